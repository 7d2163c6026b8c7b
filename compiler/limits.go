package compiler

import (
	"fmt"

	"github.com/benchy-eval/benchy/diag"
)

// The compiler's bounds. No benchmark comes near them (the paper's examples are under 2 KB
// and nest 5 deep; a generated benchmark of 10,000 fields is 478 KB, 64,000 tokens, nesting
// 4 deep), and under them every stage costs time and memory linear in the input: a text
// beyond one is refused before the YAML parser builds anything. TestHardeningShapes holds
// the compiler to 200 ms and 100 MB on 1 MB of each pathological shape.
const (
	// MaxSize is the largest benchmark file read, in bytes. The YAML lexer spends up to a
	// hundred bytes of memory per byte of a long block scalar, so this bounds memory too.
	MaxSize = 1 << 20

	// maxTokens bounds the YAML tokens of a file (keys, values, punctuation, comments),
	// counted generously from the bytes before the lexer runs: the lexer costs about 340
	// bytes per token.
	maxTokens = 100_000

	// maxDepth bounds how deep collections nest, block and flow together. goccy's parser
	// builds a path string per node, so deep nesting costs the square of the depth.
	maxDepth = 64

	// maxMapWork bounds Σ k² over the block mappings of a text that needs goccy's full
	// parser (k keys each): it parses a block mapping of k keys in O(k²) time and memory
	// (each key recurses and copies the keys after it), 4.5 bytes per unit. 8M is one
	// mapping of about 2,800 keys, 36 MB. The fast path, which reads most benchmarks, is
	// linear and not bounded by this.
	maxMapWork = 8 << 20

	// maxDiagnostics is how many diagnostics a compile returns; one more says how many
	// were left out.
	maxDiagnostics = 100

	// maxSuggestWork bounds the "did you mean" search over a compile, in edit-distance
	// cells (word length × candidate length) plus 64 per candidate for the allocations of
	// each comparison: 30,000 misspelt weights against 30,000 fields would otherwise take
	// minutes, and 30,000 unknown keys 50 MB. A benchmark's few suggestions spend a
	// thousandth of it; past it, diagnostics come without suggestions.
	maxSuggestWork = 2_000_000

	// maxCollected is how many diagnostics validation writes down; past it, it only counts
	// them (writing one costs a kilobyte). Only a text with more problems than this can
	// show a first hundred that are not the hundred earliest.
	maxCollected = 10_000

	// maxDocuments bounds the document markers ("---", "...") before the full parser runs:
	// it splits documents in time and memory quadratic in their number. A benchmark is one
	// document.
	maxDocuments = 16

	// maxSuggestLen is the longest word a suggestion is searched for, in bytes.
	maxSuggestLen = 256
)

// limit keeps the first maxDiagnostics of a sorted list and says how many more there were
// (dropped counts those never written down), at the place of the first one left out, so
// the summary sorts last.
func limit(ds diag.List, dropped int) diag.List {
	if len(ds)+dropped <= maxDiagnostics {
		return ds
	}
	kept := min(len(ds), maxDiagnostics)
	at := ds[len(ds)-1]
	if len(ds) > kept {
		at = ds[kept]
	}
	more := len(ds) - kept + dropped
	return append(ds[:kept:kept], diag.Diagnostic{
		Phase: at.Phase, Code: diag.TooManyDiagnostics, Path: []string{},
		Message: fmt.Sprintf("%d more problems are not shown (from line %d on); fix these and compile again", more, at.Line),
		Line:    at.Line, Column: at.Column,
	})
}

package yamlnode

import (
	"fmt"

	"github.com/benchy-eval/benchy/diag"
)

// The front end's bounds. No file Benchy reads comes near them (the paper's examples are
// under 2 KB and nest 5 deep; a generated benchmark of 10,000 fields is 478 KB, 64,000
// tokens, nesting 4 deep), and under them reading costs time and memory linear in the
// input: a text beyond one is refused before the YAML parser builds anything. The
// compiler's TestHardeningShapes and the adapter's TestHardeningRuntimeYAML hold reading to
// 200 ms and 100 MB on 1 MB of each pathological shape.
const (
	// MaxSize is the largest file read, in bytes. The YAML lexer spends up to a hundred
	// bytes of memory per byte of a long block scalar, so this bounds memory too.
	MaxSize = 1 << 20

	// maxTokens bounds the YAML tokens of a file (keys, values, punctuation, comments),
	// counted generously from the bytes before the lexer runs: the lexer costs about 340
	// bytes per token.
	maxTokens = 100_000

	// MaxDepth bounds how deep collections nest, block and flow together. goccy's parser
	// builds a path string per node, so deep nesting costs the square of the depth.
	MaxDepth = 64

	// maxMapWork bounds Σ k² over the block mappings of a text that needs goccy's full
	// parser (k keys each): it parses a block mapping of k keys in O(k²) time and memory
	// (each key recurses and copies the keys after it), 4.5 bytes per unit. 8M is one
	// mapping of about 2,800 keys, 36 MB. The fast path, which reads most benchmarks, is
	// linear and not bounded by this.
	maxMapWork = 8 << 20

	// MaxCollected is how many diagnostics a stage writes down; past it, it only counts
	// them (writing one costs a kilobyte). Only a text with more problems than this can
	// show a first hundred that are not the hundred earliest.
	MaxCollected = 10_000

	// MaxDiagnostics is how many diagnostics a reader of a file returns (the compiler, the
	// runtime file's parser); one more says how many were left out.
	MaxDiagnostics = 100

	// maxDocuments bounds the document markers ("---", "...") before the full parser runs:
	// it splits documents in time and memory quadratic in their number. A Benchy file is
	// one document.
	maxDocuments = 16
)

// Limit keeps the first MaxDiagnostics of a sorted list and says how many more there were
// (dropped counts those never written down), at the place of the first one left out, so
// the summary sorts last. doc names the file as Options.Doc does: a benchmark file ("") is
// to be compiled again once fixed, any other file tried again.
func Limit(ds diag.List, dropped int, doc string) diag.List {
	if len(ds)+dropped <= MaxDiagnostics {
		return ds
	}
	kept := min(len(ds), MaxDiagnostics)
	at := ds[len(ds)-1]
	if len(ds) > kept {
		at = ds[kept]
	}
	more := len(ds) - kept + dropped
	again := "try"
	if doc == "" || doc == benchmarkDoc {
		again = "compile"
	}
	return append(ds[:kept:kept], diag.Diagnostic{
		Phase: at.Phase, Code: diag.TooManyDiagnostics, Path: []string{},
		Message: fmt.Sprintf("%d more problems are not shown (from line %d on); fix these and %s again", more, at.Line, again),
		Line:    at.Line, Column: at.Column,
	})
}

// TooLarge is the diagnostic of a text of n bytes, over limit (MaxSize, for YAML), read as
// a doc ("benchmark file" when empty). The parser gives it for a text it is passed; a
// reader that stops at limit+1 bytes, so that a huge or endless input (a device, a pipe)
// costs no more than that, gives the same, so a file is refused alike however it is read.
// n < 0 says the size is not known, only that it is over.
func TooLarge(n, limit int64, doc string) diag.Diagnostic {
	if doc == "" {
		doc = benchmarkDoc
	}
	is := size(n)
	if n < 0 {
		is = "more than " + size(limit)
	}
	return parseDiag(diag.TooLarge, nil, 1, 1, fmt.Sprintf("the file is %s; Benchy reads %ss of at most %s", is, doc, size(limit)))
}

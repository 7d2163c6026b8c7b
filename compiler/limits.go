package compiler

import (
	"fmt"

	"github.com/benchy-eval/benchy/diag"
)

// The compiler's own bounds, beside those of the YAML front end (package yamlnode: size,
// tokens, depth, documents), under which every stage costs time and memory linear in the
// input. TestHardeningShapes holds the compiler to 200 ms and 100 MB on 1 MB of each
// pathological shape.
const (
	// maxDiagnostics is how many diagnostics a compile returns; one more says how many
	// were left out.
	maxDiagnostics = 100

	// maxSuggestWork bounds the "did you mean" search over a compile, in edit-distance
	// cells (word length × candidate length) plus 64 per candidate for the allocations of
	// each comparison: 30,000 misspelt weights against 30,000 fields would otherwise take
	// minutes, and 30,000 unknown keys 50 MB. A benchmark's few suggestions spend a
	// thousandth of it; past it, diagnostics come without suggestions.
	maxSuggestWork = 2_000_000

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

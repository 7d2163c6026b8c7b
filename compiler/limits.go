package compiler

// The compiler's own bounds, beside those of the YAML front end (package yamlnode: size,
// tokens, depth, documents), under which every stage costs time and memory linear in the
// input. TestHardeningShapes holds the compiler to 200 ms and 100 MB on 1 MB of each
// pathological shape.
const (
	// maxSuggestWork bounds the "did you mean" search over a compile, in edit-distance
	// cells (word length × candidate length) plus 64 per candidate for the allocations of
	// each comparison: 30,000 misspelt weights against 30,000 fields would otherwise take
	// minutes, and 30,000 unknown keys 50 MB. A benchmark's few suggestions spend a
	// thousandth of it; past it, diagnostics come without suggestions.
	maxSuggestWork = 2_000_000

	// maxSuggestLen is the longest word a suggestion is searched for, in bytes.
	maxSuggestLen = 256

	// maxEnumMembers bounds an enum's members (too_large beyond): every enum is a scoring
	// dimension whose confusion cells the store counts and the results page and report
	// draw (folded to the most frequent 20, api.MaxConfusionLabels), and each member is
	// kept in the stored IR of every run. 4,096 holds ImageNet-1k's 1,000 classes four
	// times over; an enum of 8,000 made a charts answer of 128 MB before the fold.
	maxEnumMembers = 4096
)

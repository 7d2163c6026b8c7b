package yamlnode

import (
	"os"
	"testing"
)

// TestHardeningTokenEstimate holds guard's token count, on which the lexer's cost bound
// rests, to the lexer: over the benchmarks and the YAML test suite it never counts fewer
// than half the tokens the lexer makes.
func TestHardeningTokenEstimate(t *testing.T) {
	files := append(benchmarkFiles(), suiteFiles()...)
	worst := 10.0
	for _, f := range files {
		src, _ := os.ReadFile(f)
		g := bytesGuard{src: src, line: 1, col: 1, sep: true, lineStart: true, scalarAbove: -1}
		g.indents = g.stack[:0]
		g.run()
		toks, err := tokenize(src)
		if err != nil || len(toks) == 0 || g.i < len(src) {
			continue // the lexer failed, or the guard refused the text
		}
		ratio := float64(g.tokens) / float64(len(toks))
		worst = min(worst, ratio)
		if ratio < 0.5 {
			t.Errorf("%s: %d tokens counted, the lexer makes %d", f, g.tokens, len(toks))
		}
	}
	t.Logf("%d texts: the count is at least %.2f times the lexer's", len(files), worst)
}

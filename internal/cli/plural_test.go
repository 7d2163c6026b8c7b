package cli

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// TestSummaryWording: a run's summary counts its examples in the right number, and names
// its worst dimensions only when the benchmark scores several (one's worst is its score).
func TestSummaryWording(t *testing.T) {
	acc := func(v float64) *float64 { return &v }
	dim := func(name string, weight float64, a *float64) engine.DimensionAccuracy {
		return engine.DimensionAccuracy{Path: []string{name}, Weight: weight, Accuracy: a}
	}
	for _, tt := range []struct {
		name     string
		examples int
		dims     []engine.DimensionAccuracy
		want     []string // lines the summary has
		not      string   // text it has not
	}{
		{"one example", 1, []engine.DimensionAccuracy{dim("label", 1, acc(1))}, []string{"over 1 example in "}, "worst"},
		{"no example", 0, nil, []string{"over 0 examples in "}, "worst"},
		{"one dimension", 3, []engine.DimensionAccuracy{dim("label", 1, acc(0.5))}, []string{"over 3 examples in "}, "worst"},
		{"one weighted of two", 3, []engine.DimensionAccuracy{dim("label", 1, acc(0.5)), dim("note", 0, acc(0.1))}, nil, "worst"},
		{"two dimensions", 2, []engine.DimensionAccuracy{dim("a", 1, acc(1)), dim("b", 1, acc(0.5))},
			[]string{"over 2 examples in ", "worst dimensions: b 0.50, a 1.00\n"}, ""},
		{"two, one never scored", 2, []engine.DimensionAccuracy{dim("a", 1, nil), dim("b", 1, acc(0.5))},
			[]string{"worst dimension: b 0.50\n"}, "worst dimensions"},
	} {
		var out strings.Builder
		printSummary(&out, &engine.Report{Summary: engine.Summary{Examples: tt.examples}, Dimensions: tt.dims}, "r.json")
		for _, want := range tt.want {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the summary lacks %q:\n%s", tt.name, want, out.String())
			}
		}
		if tt.not != "" && strings.Contains(out.String(), tt.not) {
			t.Errorf("%s: the summary has %q:\n%s", tt.name, tt.not, out.String())
		}
	}
}

// TestComparisonWording: runs compare counts examples and changed examples in the right
// number, and says "the first N" only when it shows fewer than changed.
func TestComparisonWording(t *testing.T) {
	flips := func(n int) []api.Flip { return make([]api.Flip, n) }
	for _, tt := range []struct {
		name string
		c    api.Comparison
		want []string
	}{
		{"one example, changed", api.Comparison{Examples: 1, Improved: 1, Flips: flips(1)},
			[]string{"\n1 example: 1 improved, 0 regressed\n", "\n1 changed example:\n"}},
		{"three changed", api.Comparison{Examples: 5, Improved: 2, Regressed: 1, Flips: flips(3)},
			[]string{"\n5 examples: 2 improved, 1 regressed\n", "\n3 changed examples:\n"}},
		{"more changed than shown", api.Comparison{Examples: 50, Improved: 12, Flips: flips(12)},
			[]string{"\nchanged examples (the first 10):\n", "--json lists up to"}},
		{"none changed", api.Comparison{Examples: 2}, []string{"\n2 examples: 0 improved, 0 regressed\n", "no example changed"}},
	} {
		var out strings.Builder
		writeComparison(&out, [2]store.Run{}, tt.c)
		for _, want := range tt.want {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the comparison lacks %q:\n%s", tt.name, want, out.String())
			}
		}
	}
}

package report

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestReportConfusionLabelsFitTheSVG: each column's label, turned 45° up and right from
// its column, ends inside the matrix's SVG, the last one "(40 others)" too (it was cut at
// the right edge as "(40 othe"); so do the row labels at the left.
func TestReportConfusionLabelsFitTheSVG(t *testing.T) {
	const glyph = 6.5 // px, a generous average at the report's 11px
	values := make([]string, 60)
	counts := map[[2]string]int{}
	for i := range values {
		values[i] = fmt.Sprintf("member-%02d", i)
		counts[[2]string{values[i], values[i]}] = 1 + i%5
	}
	values[3] = "a very long member name indeed"
	for _, m := range []api.Confusion{
		api.FoldConfusion([]string{"label"}, values, counts),
		matrix([]string{"kind"}, []string{"bill", "receipt", "a very long member name"}, [][]int{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}),
	} {
		v := confusionOf(m)
		for _, h := range v.Heads {
			if end := h.X + float64(len([]rune(h.Label)))*glyph*math.Sqrt2/2; end > v.W {
				t.Errorf("%s: the column label %q ends at x=%.0f, past the SVG's width %.0f", v.Path, h.Label, end, v.W)
			}
			if top := h.Y - float64(len([]rune(h.Label)))*glyph*math.Sqrt2/2; top < 0 {
				t.Errorf("%s: the column label %q reaches y=%.0f, above the SVG", v.Path, h.Label, top)
			}
		}
		for _, r := range v.Rows {
			if start := r.X - float64(len([]rune(r.Label)))*glyph; start < 0 {
				t.Errorf("%s: the row label %q starts at x=%.0f, left of the SVG", v.Path, r.Label, start)
			}
		}
		if m.Other() && !strings.Contains(v.Heads[len(v.Heads)-1].Label, "others)") {
			t.Errorf("the last column is %q, want the others", v.Heads[len(v.Heads)-1].Label)
		}
	}
}

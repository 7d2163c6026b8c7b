package results

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// TestConfusionOthersSetNoScaleNorShowAsError: in a 60-member enum folded to 20 labels,
// the other × other cell (62 examples, 45 of them right answers among the 40 folded
// members) is neither drawn as an error nor the top of the colour scale: it is neutral and
// its title says it mixes right and wrong answers; the real diagonal's largest count (22)
// takes the full shade. It was dark red, and the diagonal pale beside it.
func TestConfusionOthersSetNoScaleNorShowAsError(t *testing.T) {
	m := api.Confusion{Path: []string{"label"}, Members: 60}
	for i := range api.MaxConfusionLabels {
		m.Labels = append(m.Labels, string(rune('a'+i)))
		m.Cells = append(m.Cells, api.ConfusionCell{Expected: i, Predicted: i, Count: 3 + i%20})
	}
	other := len(m.Labels)
	m.Cells = append(m.Cells, api.ConfusionCell{Expected: 0, Predicted: 1, Count: 4},
		api.ConfusionCell{Expected: 2, Predicted: other, Count: 31}, api.ConfusionCell{Expected: other, Predicted: 3, Count: 33},
		api.ConfusionCell{Expected: other, Predicted: other, Count: 62})
	slices.SortFunc(m.Cells, func(a, b api.ConfusionCell) int { // as the api sends them
		return cmp.Or(cmp.Compare(a.Expected, b.Expected), cmp.Compare(a.Predicted, b.Predicted))
	})
	html := app.HTMLString((&Page{}).confusion(m))
	cell := func(count string) string { // the <g> of the first cell of that count
		g := regexp.MustCompile(`(?s)<g[^>]*data-count="` + count + `"[^>]*>.*?</g>`).FindString(html)
		if g == "" {
			t.Fatalf("no cell of %s in\n%.3000s", count, html)
		}
		return g
	}
	mixed := cell("62")
	if !strings.Contains(mixed, "mixed") || !strings.Contains(mixed, "right and wrong") {
		t.Errorf("the other × other cell is not neutral with a title that says it mixes right and wrong answers:\n%s", mixed)
	}
	if !strings.Contains(cell("22"), `fill-opacity="1.00"`) {
		t.Errorf("the diagonal's largest count is not the top of the scale:\n%s", cell("22"))
	}
	for _, c := range []string{"31", "33"} { // an expected label predicted as another member, and the reverse: errors
		if g := cell(c); strings.Contains(g, "mixed") || !strings.Contains(g, "other") {
			t.Errorf("a cell between a label and the others is not an error of the others:\n%s", g)
		}
	}
}

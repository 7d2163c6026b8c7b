package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestReportConfusionMixedCellIsNeutral: in a folded matrix the other × other cell, which
// mixes right answers among the folded members with wrong ones, is drawn neutral (no
// shade of the scale, no diagonal mark) and its title says so; the cells between a label
// and the others are shaded as any cell is.
func TestReportConfusionMixedCellIsNeutral(t *testing.T) {
	values := make([]string, 60)
	counts := map[[2]string]int{}
	for i := range values {
		values[i] = fmt.Sprintf("m%02d", i)
		counts[[2]string{values[i], values[i]}] = 1
	}
	for i := range api.MaxConfusionLabels { // the 20 drawn apart
		counts[[2]string{values[i], values[i]}] = 10 + i
	}
	counts[[2]string{values[50], values[51]}] = 5 //  wrong, among the folded members
	counts[[2]string{values[0], values[55]}] = 2  // a label predicted as one of the others
	v := confusionOf(api.FoldConfusion([]string{"label"}, values, counts))
	side := api.MaxConfusionLabels + 1
	mixed := v.Cells[side*side-1]
	if mixed.Label != "45" || !strings.Contains(mixed.Class, "mixed") || strings.Contains(mixed.Class, " s") || strings.Contains(mixed.Class, "diag") {
		t.Errorf("the other × other cell (%s) has class %q, want a neutral one", mixed.Label, mixed.Class)
	}
	if !strings.Contains(mixed.Title, "right and wrong") {
		t.Errorf("the other × other cell's title %q does not say it mixes right and wrong answers", mixed.Title)
	}
	if c := v.Cells[side-1]; c.Label != "2" || !strings.Contains(c.Class, "cell s") {
		t.Errorf("a label predicted as one of the others (%s) has class %q, want a shade", c.Label, c.Class)
	}
}

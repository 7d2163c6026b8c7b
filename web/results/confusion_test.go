package results

import (
	"fmt"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// TestConfusionDrawsTopMembers: the matrix of an enum of 4,000 members, every member
// occurring, draws its api.MaxConfusionLabels most frequent members and one row and column
// for the others: 21×21 cells, where a dense matrix was 16,000,000; the others' cells
// filter nothing (they name no one member); a small enum draws every pair, zeros too.
func TestConfusionDrawsTopMembers(t *testing.T) {
	values := make([]string, 4000)
	counts := map[[2]string]int{}
	for i := range values {
		values[i] = fmt.Sprintf("m%d", i)
	}
	for i, v := range values {
		counts[[2]string{v, values[(i+1)%len(values)]}] = 1 + i%7
	}
	p := &Page{}
	html := app.HTMLString(p.confusion(api.FoldConfusion([]string{"label"}, values, counts)))
	side := api.MaxConfusionLabels + 1
	if n := strings.Count(html, "<g "); n != side*side {
		t.Errorf("%d cells drawn, want %d", n, side*side)
	}
	if n := strings.Count(html, "data-other"); n != 2*side-1 {
		t.Errorf("%d cells of the others, want the last row and column, %d", n, 2*side-1)
	}
	if !strings.Contains(html, "(3,980 others)") || !strings.Contains(html, "most frequent of 4,000 members") {
		t.Errorf("the others are not named:\n%.3000s", html)
	}
	small := app.HTMLString(p.confusion(api.FoldConfusion([]string{"kind"}, []string{"a", "b", "c"}, map[[2]string]int{{"a", "b"}: 2})))
	if n := strings.Count(small, "<g "); n != 9 || strings.Contains(small, "others") {
		t.Errorf("a 3-member enum draws %d cells, want 9 and no others", n)
	}
}

package results

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// TestConfusionClipsLongLabels: the matrix of an enum of 20 members of 49,000 "&", every
// cell counted, as the server answers it (api.FoldConfusion), draws no name longer than
// maxTitleLabel characters in any cell's title, sets no cell of a member the answer cut
// to filter the table (the value names no member), and stays under 512 KB of HTML: each
// of its 441 cells named two whole members (235 MB of HTML).
func TestConfusionClipsLongLabels(t *testing.T) {
	values := make([]string, 20)
	counts := map[[2]string]int{}
	for i := range values {
		values[i] = strings.Repeat("&", 49000) + fmt.Sprintf("%02d", i)
	}
	for i := range values {
		for j := range values {
			counts[[2]string{values[i], values[j]}] = 1 + i + j
		}
	}
	p := &Page{}
	html := app.HTMLString(p.confusion(api.FoldConfusion([]string{"label"}, values, counts)))
	t.Logf("%d bytes of HTML", len(html))
	most := 0
	for _, m := range regexp.MustCompile(`(?:&amp;)+`).FindAllString(html, -1) {
		most = max(most, len(m)/len("&amp;"))
	}
	if most > 200 {
		t.Errorf("a member is drawn %d characters long, want at most the answer's 200 bytes", most)
	}
	for _, title := range regexp.MustCompile(`<title>([^<]*)</title>`).FindAllStringSubmatch(html, -1) {
		if n := strings.Count(title[1], "&amp;"); n > 2*maxTitleLabel {
			t.Fatalf("a cell's title names members in %d characters, want at most %d each: %.200s", n, maxTitleLabel, title[1])
		}
	}
	if n := strings.Count(html, "clickable"); n != 0 {
		t.Errorf("%d cells of members the answer cut filter the table, want none", n)
	}
	if len(html) > 512<<10 {
		t.Errorf("the matrix is %d bytes of HTML, want at most %d", len(html), 512<<10)
	}
}

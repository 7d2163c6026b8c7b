package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// heavyRun is a run of 8 enum dimensions, each a matrix of 20 members of 80 "&" with
// every cell counted: the most a run's charts draw.
func heavyRun(id string) Run {
	r := Run{Run: api.Run{ID: id, Status: "completed", System: &api.System{Label: "sys-" + id}},
		Charts: api.Charts{Summary: api.Summary{Examples: 400, Valid: 400}, Histogram: make([]int, 11)}}
	for e := range 8 {
		m := api.Confusion{Path: []string{fmt.Sprint("e", e)}, Members: 20}
		for i := range 20 {
			m.Labels = append(m.Labels, strings.Repeat("&", 78)+fmt.Sprintf("%02d", i))
			for j := range 20 {
				m.Cells = append(m.Cells, api.ConfusionCell{Expected: i, Predicted: j, Count: 1})
			}
		}
		r.Charts.Confusion = append(r.Charts.Confusion, m)
	}
	return r
}

// TestReportStopsAtByteBound: the report of 60 runs whose charts are as large as a run's
// can be stops at MaxReportBytes as written, a whole document with a note that counts the
// runs not shown, each of them never loaded; a report of 60 small runs shows them all.
func TestReportStopsAtByteBound(t *testing.T) {
	const bound = MaxReportBytes
	var loaded int
	load := func(r *Run, n int) error {
		loaded++
		*r = heavyRun(r.Run.ID)
		return nil
	}
	var runs []Run
	for i := range 60 {
		runs = append(runs, Run{Run: api.Run{ID: fmt.Sprint("R", i)}})
	}
	html := write(t, Report{Examples: 1, Load: load, Sections: []Section{{Benchmark: "b.yaml", Runs: runs}}})
	shown := strings.Count(html, `<article class="run"`)
	t.Logf("%d bytes, %d runs shown, %d loaded", len(html), shown, loaded)
	if len(html) > bound {
		t.Errorf("the report is %d bytes, want at most %d", len(html), bound)
	}
	m := regexp.MustCompile(`data-report-cut="(\d+)"`).FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("no note of the runs not shown")
	}
	if n, _ := strconv.Atoi(m[1]); n+shown != 60 || shown == 0 || loaded > shown+1 {
		t.Errorf("%d runs shown, %d said not shown, %d loaded: want 60 in all, each not shown never loaded", shown, n, loaded)
	}
	if !strings.HasSuffix(strings.TrimSpace(html), "</html>") || strings.Count(html, "<article") != strings.Count(html, "</article>") ||
		strings.Count(html, "<section") != strings.Count(html, "</section>") {
		t.Errorf("the document is not closed whole after the cut")
	}
	small := write(t, Report{Examples: 1, Sections: []Section{{Benchmark: "b.yaml", Runs: runs}}})
	if strings.Count(small, `<article class="run"`) != 60 || strings.Contains(small, "data-report-cut") {
		t.Errorf("a report of 60 small runs is cut")
	}
}

// TestReportHeadLinksBounded: the head of a report of 5,000 runs (benchy report takes any
// number) links at most MaxLinks of them and counts the rest, so that the part written
// before any run stays small; its title names a benchmark cut to MaxLabel characters.
func TestReportHeadLinksBounded(t *testing.T) {
	var secs []Section
	for i := range 5000 {
		secs = append(secs, Section{Benchmark: fmt.Sprintf("b%d.yaml", i) + strings.Repeat("x", 1000), BenchmarkHash: fmt.Sprint(i),
			Runs: []Run{{Run: api.Run{ID: fmt.Sprint("R", i), System: &api.System{Label: strings.Repeat("y", 1000)}}}}})
	}
	var b strings.Builder
	if err := page.ExecuteTemplate(&b, "head", head(Report{Sections: secs})); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `<a href="#`); n > MaxLinks || !strings.Contains(b.String(), "4900 more runs") {
		t.Errorf("the head links %d runs of 5000, want at most %d and a count of the rest", n, MaxLinks)
	}
	if n := longest(b.String(), "x"); n > MaxLabel {
		t.Errorf("a benchmark is named in %d characters, want at most %d", n, MaxLabel)
	}
	if b.Len() > 64<<10 {
		t.Errorf("the head is %d bytes, want at most %d", b.Len(), 64<<10)
	}
}

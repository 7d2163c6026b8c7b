package report

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestReportFailingCountsAgreeWithExamplesShown: every count a run's failing examples
// are worded with agrees with the examples it shows: 400 failing, 255 read and the byte
// budget stopping them part way, its heading and its note name the same number shown and
// the rest as not shown (the heading said "the first 255" over 251 examples and a note of
// 149 more); a run that lists 20 of 400 says so the same way.
func TestReportFailingCountsAgreeWithExamplesShown(t *testing.T) {
	long := strings.Repeat("a long value ", MaxValue/13)
	for _, c := range []struct {
		name           string
		examples, read int
		value          string
	}{
		{"cut by the byte budget", 1000, 255, long},
		{"listed in full", 20, 20, "v"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := wideRun("R1", 10, c.read, c.value, func(int) bool { return true })
			r.FailingTotal = 400
			html := write(t, Report{Examples: c.examples, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{r}}}})
			shown := strings.Count(html, `<div class="example"`)
			if c.examples > c.read && shown >= c.read {
				t.Fatalf("%d examples shown of %d: the case cuts nothing", shown, c.read)
			}
			firsts := regexp.MustCompile(`the first (\d+)`).FindAllStringSubmatch(html, -1)
			if len(firsts) == 0 {
				t.Errorf("no line says how many examples are shown")
			}
			for _, m := range firsts {
				if n, _ := strconv.Atoi(m[1]); n != shown {
					t.Errorf("%q, where %d examples are shown", m[0], shown)
				}
			}
			for _, m := range regexp.MustCompile(`(\d+) (more )?failing examples?( of this run)? (are|is) not (shown|listed)`).FindAllStringSubmatch(html, -1) {
				if n, _ := strconv.Atoi(m[1]); n != 400-shown {
					t.Errorf("%q, where %d of 400 are shown", m[0], shown)
				}
			}
			if !strings.Contains(html, `Failing examples (400)<`) {
				t.Errorf("the heading does not count the 400 failing examples")
			}
		})
	}
}

// TestReportShortLoadIsACut: a run whose load brings fewer examples than asked and than
// failed (the store's page of them stops at 8 MiB) says where they were cut, not that
// --examples N would list more: it was asked for 1000.
func TestReportShortLoadIsACut(t *testing.T) {
	load := func(r *Run, n int) error {
		*r = wideRun(r.Run.ID, 3, min(n, 30), "v", func(int) bool { return true })
		r.FailingTotal = 400
		return nil
	}
	html := write(t, Report{Examples: 1000, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{{Run: api.Run{ID: "R1"}}}}}, Load: load})
	if !strings.Contains(html, "Cut here: 370 failing examples of this run are not shown, after the first 30;") || strings.Contains(html, "--examples N lists more") {
		t.Errorf("a short load is not said to be cut:\n%s", html[strings.LastIndex(html, "</div>"):])
	}
}

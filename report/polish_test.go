package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestReportPolish: what a second newcomer compared with the web app. The status bar has
// a legend with each status's count; the finished time reads "2026-12-01 20:02:35 UTC",
// not RFC 3339 with nanoseconds; a dimension's accuracy is a percent beside its
// correct/valid counts; on a leaderboard a system tied with the leader (rank 1 too) shows
// its delta, interval and verdict as the web's board does, not "-".
func TestReportPolish(t *testing.T) {
	r := fixture("R1", 40, "x")
	var rep api.Report
	if err := json.Unmarshal(r.Run.Report, &rep); err != nil {
		t.Fatal(err)
	}
	rep.FinishedAt = "2026-12-01T20:02:35.32517525Z"
	r.Run.Report, _ = json.Marshal(rep)
	acc := 8.0 / 9
	r.Charts.Dimensions = []api.Dimension{{Path: []string{"vendor"}, Weight: 1, Correct: 8, Valid: 9, Accuracy: &acc}}
	board := api.Leaderboard{Entries: []api.LeaderboardEntry{
		{Rank: 1, System: "a", Run: "R1", Score: 0.5},
		{Rank: 1, System: "b", Run: "R2", Score: 0.5, DeltaInterval: &api.Interval{Level: 0.95, Method: "paired bootstrap"}},
		{Rank: 3, System: "c", Run: "R3", Score: 0.25, DeltaVsLeader: -0.25, Significant: true, DeltaInterval: &api.Interval{Low: -0.375, High: -0.125}},
		{Rank: 4, System: "d", Run: "R4", Score: 0.4375, DeltaVsLeader: -0.0625, DeltaInterval: &api.Interval{Low: -0.2, High: 0.05}},
	}}
	html := write(t, Report{Examples: DefaultExamples, Sections: []Section{{Benchmark: "b.yaml", Runs: []Run{r}, Boards: []api.Leaderboard{board}}}})
	for _, want := range []string{
		`<span data-legend="valid">`, `</svg> valid: 38</span>`, `</svg> invalid_output: 1</span>`, `</svg> execution_error: 1</span>`,
		`<td data-finished>2026-12-01 20:02:35 UTC</td>`,
		`<td>vendor</td><td>1</td><td>88.9%</td>`, `<td>8/9</td>`,
		`<td class="delta" data-verdict="leader"><span class="ok">leader</span></td>`,
		`<td class="delta" data-verdict="not distinguishable"><code>0.0000</code> <code class="muted">[0.0000, 0.0000]</code> <span class="muted">not distinguishable</span></td>`,
		`<code>-0.2500</code> <code class="muted">[-0.3750, -0.1250]</code> <span class="bad">significantly worse</span>`,
		`<code>-0.0625</code> <code class="muted">[-0.2000, &#43;0.0500]</code> <span class="muted">not distinguishable</span>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, not := range []string{"20:02:35.325", "0.8889"} {
		if strings.Contains(html, not) {
			t.Errorf("the report still shows %q", not)
		}
	}
}

package report

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
)

// longest is the most times in a row unit occurs in s.
func longest(s, unit string) int {
	most := 0
	for _, m := range regexp.MustCompile("(?:"+regexp.QuoteMeta(unit)+")+").FindAllString(s, -1) {
		most = max(most, len(m)/len(unit))
	}
	return most
}

// TestReportClipsLongLabels: a run whose enum members, dimension, field names, system
// label, binding and benchmark name are each 10,000 "&" (a benchmark file may hold 20
// members of 49,000; HTML writes each "&" in 5 bytes), and whose top error's message is
// 100,000 "<", draws each name at most MaxLabel characters (a legend names each member cut
// once) and the message at most MaxValue bytes, in a report under 1 MB (two runs: the
// failed one shows its message, not its charts): each of a matrix's 441 cells named two
// whole labels, and one such run's report was 196 MB.
func TestReportClipsLongLabels(t *testing.T) {
	long := strings.Repeat("&", 10000)
	var labels []string
	m := api.Confusion{Path: []string{long}, Members: 20}
	for i := range 20 {
		labels = append(labels, fmt.Sprintf("%s%02d", long, i))
		for j := range 20 {
			m.Cells = append(m.Cells, api.ConfusionCell{Expected: i, Predicted: j, Count: 1 + i + j})
		}
	}
	m.Labels = labels
	out := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: long, Type: ir.TypeString}}}
	acc := 0.5
	score := 0.0
	exp, _ := json.Marshal(map[string]string{long: "a"})
	pred, _ := json.Marshal(map[string]string{long: "b"})
	r := Run{Run: api.Run{ID: "R1", Benchmark: long, Status: "completed", System: &api.System{Label: long, Binding: long}},
		Charts: api.Charts{Summary: api.Summary{Examples: 400, Valid: 400}, Histogram: make([]int, 11),
			Dimensions: []api.Dimension{{Path: []string{long}, Weight: 1, Correct: 200, Valid: 400, Accuracy: &acc}},
			Confusion:  []api.Confusion{m}},
		Program: ir.Program{Input: out, Output: out}, FailingTotal: 1,
		Failing: []api.Result{{Index: 0, Status: "valid", Score: &score, Input: exp, Expected: exp, Prediction: pred,
			FieldScores: []api.FieldScore{{Path: []string{long}, Score: 0, Weight: 1}}}}}
	failed := r
	failed.Run.ID, failed.Health = "R2", api.Health{Failed: true, Code: "adapter_error", Message: strings.Repeat("<", 100000), Count: 400, Examples: 400}
	html := write(t, Report{Examples: 1, Sections: []Section{{Benchmark: long, Runs: []Run{r, failed}}}})
	t.Logf("the report is %d bytes", len(html))
	if n := longest(html, "&amp;"); n > MaxLabel {
		t.Errorf("a name is drawn %d characters long, want at most %d", n, MaxLabel)
	}
	if n := longest(html, "&lt;"); n > MaxValue {
		t.Errorf("the top error's message is drawn %d characters long, want at most %d", n, MaxValue)
	}
	if len(html) > 1<<20 {
		t.Errorf("the report of one run is %d bytes, want at most %d", len(html), 1<<20)
	}
	if !strings.Contains(html, `data-members="20"`) {
		t.Errorf("no legend names once the 20 members the matrix's heads cut")
	}
}

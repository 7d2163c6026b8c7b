package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// longMembersYAML is a classify benchmark of 980 KB: an enum of 20 members of 49,000 "&"
// each, the longest the 1 MiB bound on a benchmark file lets a label be.
func longMembersYAML() (string, []string) {
	members := make([]string, 20)
	quoted := make([]string, 20)
	for i := range members {
		members[i] = strings.Repeat("&", 49000) + fmt.Sprintf("%02d", i)
		quoted[i] = `"` + members[i] + `"`
	}
	return `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: general, language: en}
program:
  input: {text: string}
  output:
    label: {enum: [` + strings.Join(quoted, ", ") + `]}
scoring:
  weights: {label: 1}
  aggregator: weighted_mean
data: {path: ./data.jsonl}
ai-system: {type: external, id: system-00}
`, members
}

// TestReportClipsLongLabels: a run of an enum of 20 members of 49,000 "&", every cell of
// its matrix counted, answers charts whose labels are at most api.MaxLabelBytes each (a
// page filters nothing by one cut: Clipped names them), and a report under 1 MB, where
// each of the matrix's 441 cells named two whole labels and one run's report was 196 MB
// (GET /api/report of 20 such runs, 3.92 GB in 19.6 s).
func TestReportClipsLongLabels(t *testing.T) {
	dir := t.TempDir()
	src, members := longMembersYAML()
	id := storeRun(t, dir, src, 400, func(i int) (map[string]any, map[string]any) {
		return map[string]any{"text": fmt.Sprint(i)}, map[string]any{"label": members[i%20]}
	}, func(i int) engine.ExampleResult {
		zero := 0.0
		return engine.ExampleResult{Status: engine.StatusValid, Prediction: map[string]any{"label": members[(i%20+i/20)%20]},
			FieldScores: []engine.FieldScore{{Path: []string{"label"}, Score: 0, Weight: 1}}, Score: &zero}
	})
	_, srv := serve(t, Config{Workspace: dir})
	r := call(t, srv, "GET", api.ChartsPath(id), "")
	if r.status != http.StatusOK {
		t.Fatalf("GET charts: %d %.300s", r.status, r.body)
	}
	var c api.Charts
	if err := json.Unmarshal([]byte(r.body), &c); err != nil {
		t.Fatal(err)
	}
	m := c.Confusion[0]
	for i, l := range m.Labels {
		if len(l) > 200 {
			t.Errorf("label %d of the charts is %d bytes, want at most %d", i, len(l), 200)
			break
		}
	}
	if len(m.Labels) != 20 || m.Total() != 400 || len(r.body) > 64<<10 {
		t.Errorf("%d labels counting %d examples in %d bytes, want 20 counting 400 in at most 64 KB", len(m.Labels), m.Total(), len(r.body))
	}
	rep := call(t, srv, "GET", reportQuery([]string{id}), "")
	t.Logf("charts %d bytes, report %d bytes", len(r.body), len(rep.body))
	if rep.status != http.StatusOK || len(rep.body) > 1<<20 || !strings.HasSuffix(strings.TrimSpace(rep.body), "</html>") {
		t.Errorf("GET /api/report: %d, %d bytes, want a whole document of at most %d", rep.status, len(rep.body), 1<<20)
	}
}

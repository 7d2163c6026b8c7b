package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// wideYAML is an extract benchmark of n string output fields f0 ... f<n-1>.
func wideYAML(n int) string {
	var fields, weights strings.Builder
	for i := range n {
		fmt.Fprintf(&fields, "    f%d: string\n", i)
		fmt.Fprintf(&weights, "    f%d: 1\n", i)
	}
	return `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {n: int}
  output:
` + fields.String() + `scoring:
  weights:
` + weights.String() + `  aggregator: weighted_mean
data: {path: ./data.jsonl}
ai-system: {type: external, id: system-00}
`
}

// storeWideRun stores a completed run of wideYAML(fields) whose examples answer every
// field wrong.
func storeWideRun(t *testing.T, dir string, fields, examples int) string {
	t.Helper()
	return storeRun(t, dir, wideYAML(fields), examples, func(i int) (map[string]any, map[string]any) {
		exp := map[string]any{}
		for f := range fields {
			exp[fmt.Sprintf("f%d", f)] = fmt.Sprintf("right %d", f)
		}
		return map[string]any{"n": i}, exp
	}, func(int) engine.ExampleResult {
		pred := map[string]any{}
		scores := make([]engine.FieldScore, fields)
		for f := range fields {
			pred[fmt.Sprintf("f%d", f)] = "wrong answer"
			scores[f] = engine.FieldScore{Path: []string{fmt.Sprintf("f%d", f)}, Score: 0, Weight: 1}
		}
		zero := 0.0
		return engine.ExampleResult{Status: engine.StatusValid, Prediction: pred, FieldScores: scores, Score: &zero}
	})
}

// reportQuery is GET /api/report of runs ids.
func reportQuery(ids []string) string {
	return "/api/report?" + url.Values{"run": ids}.Encode()
}

// TestReportOfManyFieldsIsBounded: the report of 8 runs of a 2,000-field benchmark, 20
// failing examples each with every field wrong, shows report.MaxFields fields an example
// and says how many more: under 1 MB, where every field of every example was 33 MB (and 8
// runs of 14,000 fields 606 MB in 80 s at 1.52 GB). It is still one whole HTML document.
func TestReportOfManyFieldsIsBounded(t *testing.T) {
	dir := t.TempDir()
	var ids []string
	for range 8 {
		ids = append(ids, storeWideRun(t, dir, 2000, 20))
	}
	_, srv := serve(t, Config{Workspace: dir})
	r := call(t, srv, "GET", reportQuery(ids), "")
	if r.status != http.StatusOK {
		t.Fatalf("GET /api/report: %d %.500s", r.status, r.body)
	}
	t.Logf("the report is %d bytes", len(r.body))
	const most = 4 << 20
	if len(r.body) > most {
		t.Fatalf("the report of 8 runs of 2,000 fields is %d bytes, want at most %d", len(r.body), most)
	}
	if n := strings.Count(r.body, `<div class="example"`); n != 160 {
		t.Errorf("%d examples shown, want 8 runs × 20", n)
	}
	if n := strings.Count(r.body, "and 1950 more output fields, 1950 of them not right"); n != 160 {
		t.Errorf("%d examples say how many fields they do not show, want 160", n)
	}
	if !strings.HasSuffix(r.body, "</html>\n") {
		t.Error("the report does not end its document")
	}
}

// TestReportRunsPerRequestCapped: GET /api/report names at most 20 runs (maxReportRuns):
// 21 is a 400 that says so, before any run is read; 20 is a report.
func TestReportRunsPerRequestCapped(t *testing.T) {
	dir := t.TempDir()
	id := storeWideRun(t, dir, 2, 1)
	_, srv := serve(t, Config{Workspace: dir})
	ids := make([]string, 21)
	for i := range ids {
		ids[i] = id
	}
	r := call(t, srv, "GET", reportQuery(ids), "")
	if r.status != http.StatusBadRequest || !strings.Contains(r.body, string(api.BadRequest)) || !strings.Contains(r.body, "from 1 to 20 runs") {
		t.Errorf("a report of 21 runs: %d %.300s, want 400 naming the bound", r.status, r.body)
	}
	if r := call(t, srv, "GET", reportQuery(ids[:20]), ""); r.status != http.StatusOK {
		t.Errorf("a report of 20 runs: %d %.300s", r.status, r.body)
	}
}

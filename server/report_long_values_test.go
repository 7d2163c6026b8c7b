package server

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestReportShowsValuesOfLongExamples: an example whose stored JSON is over the store's
// page bound (16 KiB: 120 fields of 1 KB, or one field of 17 KB) shows every field's
// expected value and prediction, each cut at report.MaxValue bytes with how many more
// there are, as a short example does; no cell of a value that exists is empty (the
// report read them as pages cut them, one JSON string each, and matched no field).
func TestReportShowsValuesOfLongExamples(t *testing.T) {
	dir := t.TempDir()
	wide := storeLongRun(t, dir, 120, func(int, int) int { return 1000 })
	long := storeLongRun(t, dir, 1, func(i, _ int) int { return []int{17000, 100}[i] })
	_, srv := serve(t, Config{Workspace: dir})
	r := call(t, srv, "GET", reportQuery([]string{wide, long}), "")
	if r.status != http.StatusOK {
		t.Fatalf("GET /api/report: %d %.500s", r.status, r.body)
	}
	html := string(r.body)
	if n := strings.Count(html, `<td class="v"></td>`); n > 0 {
		t.Errorf("%d empty value cells, want none", n)
	}
	rows := regexp.MustCompile(`<tr><td class="bad">✗</td><td>f\d+</td><td class="v">&#34;right [^<]+</td><td class="v">&#34;wrong [^<]+</td>`).FindAllString(html, -1)
	if want := 2*50 + 2; len(rows) != want { // MaxFields of each wide example, then the long example's field and the short one's
		t.Errorf("%d rows show both values, want %d", len(rows), want)
	}
	if !strings.Contains(html, `… (15002 more bytes)`) {
		t.Errorf("the 17,000-byte value is not cut at 2000 bytes with how many more there are")
	}
}

// storeLongRun stores a run of wideYAML(fields) of two examples, each expecting in field
// f of example i a string of size(i, f) bytes and predicting another as long.
func storeLongRun(t *testing.T, dir string, fields int, size func(i, f int) int) string {
	t.Helper()
	value := func(word string, i, f int) string {
		s := fmt.Sprintf("%s %d.%d ", word, i, f)
		return s + strings.Repeat("x", max(size(i, f)-len(s), 0))
	}
	return storeRun(t, dir, wideYAML(fields), 2, func(i int) (map[string]any, map[string]any) {
		exp := map[string]any{}
		for f := range fields {
			exp[fmt.Sprintf("f%d", f)] = value("right", i, f)
		}
		return map[string]any{"n": i}, exp
	}, func(i int) engine.ExampleResult {
		pred := map[string]any{}
		scores := make([]engine.FieldScore, fields)
		for f := range fields {
			pred[fmt.Sprintf("f%d", f)] = value("wrong", i, f)
			scores[f] = engine.FieldScore{Path: []string{fmt.Sprintf("f%d", f)}, Score: 0, Weight: 1}
		}
		zero := 0.0
		return engine.ExampleResult{Status: engine.StatusValid, Prediction: pred, FieldScores: scores, Score: &zero}
	})
}

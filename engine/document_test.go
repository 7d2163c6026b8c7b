package engine

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWriteDocument: the result document is valid JSON with the keys of A.14 and those
// Benchy adds beside them, and the results in index order, exactly as streamed.
func TestWriteDocument(t *testing.T) {
	b, root, answer := mixedRun(t, 30)
	var c counter
	sys := NewSystem(b.AISystem, "", "sys-1", "sha256:fp")
	rr, err := run(t, b, root, &c, answer, Options{Concurrency: 4, IRHash: "sha256:abc", BenchmarkHash: "sha256:bench", System: &sys, Binding: "sys-1"})
	if err != nil {
		t.Fatal(err)
	}
	var doc bytes.Buffer
	if err := WriteDocument(&doc, rr.report, bytes.NewReader(rr.raw)); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(doc.Bytes()) {
		t.Fatalf("the document is not JSON:\n%s", doc.Bytes())
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"ai_system", "benchmark_hash", "benchmark_score", "binding", "concurrency", "confidence_interval", "dataset_digest", "dimensions",
		"finished_at", "ir_hash", "results", "started_at", "summary", "system", "version"}
	if !slices.Equal(keys, want) {
		t.Errorf("document keys %q, want %q", keys, want)
	}

	var d struct {
		Version        string          `json:"version"`
		BenchmarkScore float64         `json:"benchmark_score"`
		Summary        map[string]int  `json:"summary"`
		IRHash         string          `json:"ir_hash"`
		AISystem       map[string]any  `json:"ai_system"`
		Binding        string          `json:"binding"`
		StartedAt      string          `json:"started_at"`
		FinishedAt     string          `json:"finished_at"`
		Dimensions     []any           `json:"dimensions"`
		Confidence     map[string]any  `json:"confidence_interval"`
		Results        []ExampleResult `json:"results"`
	}
	if err := json.Unmarshal(doc.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != "1.0" || d.IRHash != "sha256:abc" || d.Binding != "sys-1" || d.BenchmarkScore != rr.report.BenchmarkScore {
		t.Errorf("head %+v", d)
	}
	if d.AISystem["type"] != "external" || d.AISystem["id"] != "sys-1" {
		t.Errorf("ai_system %v, want the benchmark's external sys-1", d.AISystem)
	}
	wantSummary := map[string]int{"examples": 30, "valid": rr.report.Summary.Valid,
		"invalid_outputs": rr.report.Summary.InvalidOutputs, "execution_errors": rr.report.Summary.ExecutionErrors}
	if len(d.Summary) != 4 || !maps.Equal(d.Summary, wantSummary) {
		t.Errorf("summary %v, want %v", d.Summary, wantSummary)
	}
	start, err1 := time.Parse(time.RFC3339Nano, d.StartedAt)
	end, err2 := time.Parse(time.RFC3339Nano, d.FinishedAt)
	if err1 != nil || err2 != nil || end.Before(start) {
		t.Errorf("started_at %q, finished_at %q", d.StartedAt, d.FinishedAt)
	}
	if len(d.Dimensions) != len(b.Scoring.Dimensions) {
		t.Errorf("%d dimensions, want %d", len(d.Dimensions), len(b.Scoring.Dimensions))
	}
	for _, k := range []string{"level", "low", "high", "method"} {
		if _, ok := d.Confidence[k]; !ok {
			t.Errorf("confidence_interval lacks %q: %v", k, d.Confidence)
		}
	}
	if len(d.Results) != 30 {
		t.Fatalf("%d results, want 30", len(d.Results))
	}
	for i, res := range d.Results {
		if res.Index != i {
			t.Errorf("results[%d] has index %d", i, res.Index)
		}
	}
	var results []json.RawMessage
	json.Unmarshal(top["results"], &results)
	for i, r := range results {
		if got, want := string(r), strings.TrimSpace(string(bytes.Split(rr.raw, []byte("\n"))[i])); got != want {
			t.Errorf("results[%d] = %s, streamed %s", i, got, want)
		}
	}

	// A results stream that does not match the report is refused, not silently written.
	short := bytes.Join(bytes.Split(rr.raw, []byte("\n"))[:10], []byte("\n"))
	if err := WriteDocument(&bytes.Buffer{}, rr.report, bytes.NewReader(short)); err == nil {
		t.Error("WriteDocument accepted 10 results for a report of 30")
	}
}

package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/benchy-eval/benchy/store"
)

// TestCompareRuns: two completed runs of the invoice benchmark compare as identical (the
// stand-in system is deterministic); runs of different length or unfinished runs are
// refused.
func TestCompareRuns(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml", "concurrency": 2}`)
	waitStatus(t, srv, a, store.Completed)
	b := startRun(t, srv, `{"benchmark": "benchmark.yaml", "concurrency": 1}`)
	waitStatus(t, srv, b, store.Completed)
	r := call(t, srv, "GET", "/api/runs/compare?a="+a+"&b="+b, "")
	var got struct {
		A, B       string
		Examples   int     `json:"examples"`
		ScoreA     float64 `json:"score_a"`
		Delta      float64 `json:"delta"`
		Flips      []any   `json:"flips"`
		Dimensions []any   `json:"dimensions"`
	}
	if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &got) != nil {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if got.A != a || got.Examples != 10 || got.Delta != 0 || len(got.Flips) != 0 || len(got.Dimensions) != 5 || got.ScoreA < 0.43 || got.ScoreA > 0.44 {
		t.Errorf("comparison %s", r.body)
	}
	limited := startRun(t, srv, `{"benchmark": "benchmark.yaml", "limit": 3}`)
	waitStatus(t, srv, limited, store.Completed)
	if r := call(t, srv, "GET", "/api/runs/compare?a="+a+"&b="+limited, ""); r.status != http.StatusConflict {
		t.Errorf("different lengths: %d %s", r.status, r.body)
	}
	if r := call(t, srv, "GET", "/api/runs/compare?a="+a, ""); r.status != http.StatusBadRequest {
		t.Errorf("one run: %d", r.status)
	}
	if r := call(t, srv, "GET", "/api/runs/compare?a="+a+"&b=nope", ""); r.status != http.StatusNotFound {
		t.Errorf("unknown run: %d", r.status)
	}
}

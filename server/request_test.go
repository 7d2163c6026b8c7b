package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// TestExampleDetailRequest: an example's detail carries the request its model was sent,
// as the store recorded it; an example without one has none, and a page never has it.
func TestExampleDetailRequest(t *testing.T) {
	dir := runWorkspace(t, slow{})
	s, srv := serve(t, Config{Workspace: dir})
	id := otherRun(t, s.st, dir, 0)
	const sent = `{"model":"m","messages":[{"role":"user","content":"Read the invoice <b>&</b>"}]}`
	w := s.st.ResultWriter(id)
	score := 1.0
	for i, req := range []string{sent, ""} {
		if err := w.Add(engine.ExampleResult{Index: i, Status: engine.StatusValid, Score: &score, Contribution: 1,
			Prediction: map[string]any{"number": "x", "total": 1}, Request: req}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{sent, ""} {
		var d api.ExampleDetail
		decode(t, srv, "GET", api.ExamplePath(id, i), "", http.StatusOK, &d)
		if d.Request != want {
			t.Errorf("example %d: request %q, want %q", i, d.Request, want)
		}
	}
	if r := call(t, srv, "GET", api.RunPath(id)+"/results", ""); r.status != http.StatusOK || strings.Contains(r.body, "Read the invoice") {
		t.Errorf("a page: %d, carries the request: %s", r.status, r.body)
	}
}

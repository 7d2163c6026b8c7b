package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestRunBudget: POST /api/runs with max_cost stops a model run before a request could
// pass it, cancelled with reason budget, the budget and cache mode in its options; a
// resume with a smaller budget is refused, one without a body keeps the budget; a
// resume with a larger one completes it without asking the provider again for the
// examples done, and a later resume keeps the raised budget. Each example costs $0.004 (1,000
// input tokens at $2, 200 output at $10 per million), and its bound before it is sent is
// its input plus 4,096 output tokens, some $0.042: with $0.045 the first goes, the second
// could pass the budget.
func TestRunBudget(t *testing.T) {
	var asked atomic.Int64
	_, srv := serve(t, Config{Workspace: boundedWorkspace(t, chatStub(t, &asked).URL)})
	id := startRun(t, srv, `{"benchmark": "qa/benchmark.yaml", "concurrency": 1, "max_cost": 0.045, "cache": "off"}`)
	v := waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
	if v.Status != api.Cancelled || v.Reason != api.ReasonBudget || v.Done != 1 {
		t.Fatalf("a run of 3 examples at $0.004 within $0.045: %s reason %q, %d done (%+v), want cancelled, budget, 1 done", v.Status, v.Reason, v.Done, v.Error)
	}
	if want := (api.Options{Concurrency: 1, MaxCost: 0.045, Cache: "off"}); v.Options != want {
		t.Errorf("options %+v, want %+v", v.Options, want)
	}
	if n := asked.Load(); n != 1 {
		t.Fatalf("the provider was asked %d times, want 1", n)
	}

	for _, c := range []struct{ body, want string }{
		{`{"max_cost": 0.01}`, "max_cost $0.01 is below the run's budget of $0.045"},
		{`{"max_cost": -1}`, "max_cost is -1"},
		{`{"max_cost": "more"}`, "not the expected JSON"},
	} {
		r := call(t, srv, "POST", api.ResumePath(id), c.body)
		var got api.Error
		json.Unmarshal([]byte(r.body), &got)
		if r.status != http.StatusBadRequest || got.Error.Code != api.BadRequest || !strings.Contains(got.Error.Message, c.want) {
			t.Errorf("resume with %s: %d %s, want 400 bad_request saying %q", c.body, r.status, r.body, c.want)
		}
	}
	if v := getRun(t, srv, id); v.Status != api.Cancelled || v.Options.MaxCost != 0.045 {
		t.Fatalf("after refused resumes: %s, options %+v, want cancelled with its budget", v.Status, v.Options)
	}

	// No body keeps the budget: the next request could still pass it, and none is sent.
	if r := call(t, srv, "POST", api.ResumePath(id), "", "Content-Type", "application/json"); r.status != http.StatusAccepted {
		t.Fatalf("resume without a body: %d %s", r.status, r.body)
	}
	v = waitRun(t, srv, id, "finished again", func(v api.Run) bool { return v.FinishedAt != nil && v.Status != api.Queued })
	if v.Status != api.Cancelled || v.Reason != api.ReasonBudget || asked.Load() != 1 {
		t.Fatalf("resumed without a body: %s reason %q, %d requests, want cancelled at the budget kept, no request", v.Status, v.Reason, asked.Load())
	}

	decode(t, srv, "POST", api.ResumePath(id), `{"max_cost": 1}`, http.StatusAccepted, nil)
	v = waitRun(t, srv, id, "finished with $1", func(v api.Run) bool { return v.FinishedAt != nil && v.Status != api.Queued && v.Status != api.Running })
	if v.Status != api.Completed || v.Done != 3 || v.Reason != "" {
		t.Fatalf("resumed with $1: %s reason %q, %d done (%+v), want completed with 3", v.Status, v.Reason, v.Done, v.Error)
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("the provider was asked %d times in all, want 3: the example done is not asked again", n)
	}
	if want := (api.Options{Concurrency: 1, MaxCost: 1, Cache: "off"}); v.Options != want {
		t.Errorf("options after the raise %+v, want %+v", v.Options, want)
	}
}

// boundedWorkspace is modelWorkspace with each reply bounded at 4,096 output tokens
// (max_tokens), which a budget needs of an OpenAI request.
func boundedWorkspace(t *testing.T, url string) string {
	t.Helper()
	dir := modelWorkspace(t, url)
	bounded := strings.Replace(qaYAML, "prompt: prompt.md}", "prompt: prompt.md, parameters: {max_tokens: 4096}}", 1)
	if err := os.WriteFile(filepath.Join(dir, "qa", "benchmark.yaml"), []byte(bounded), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestStartRunBudgetRefused: POST /api/runs with a budget the AI-system cannot keep is
// answered 400 naming why, before any request and with no run stored: a cost budget for a
// model without prices, any budget for OpenAI requests without max_completion_tokens or
// max_tokens (their replies have no bound); for one of several systems too.
func TestStartRunBudgetRefused(t *testing.T) {
	var asked atomic.Int64
	url := chatStub(t, &asked).URL
	unpriced := boundedWorkspace(t, url)
	rt := filepath.Join(unpriced, RuntimeFile)
	text, _ := os.ReadFile(rt)
	os.WriteFile(rt, []byte(strings.Split(string(text), "    prices:")[0]), 0o644)
	for _, c := range []struct{ dir, body, want string }{
		{unpriced, `{"benchmark": "qa/benchmark.yaml", "max_cost": 1}`, "needs the model's prices"},
		{modelWorkspace(t, url), `{"benchmark": "qa/benchmark.yaml", "max_tokens": 100000}`,
			"a budget needs each reply bounded: set max_completion_tokens (or max_tokens) in ai-system.parameters"},
		{modelWorkspace(t, url), `{"benchmark": "qa/benchmark.yaml", "max_cost": 1, "systems": [{"own": true}]}`, "systems[0] (local/m): a budget needs each reply bounded"},
	} {
		s, srv := serve(t, Config{Workspace: c.dir})
		r := call(t, srv, "POST", "/api/runs", c.body)
		var got api.Error
		json.Unmarshal([]byte(r.body), &got)
		if r.status != http.StatusBadRequest || got.Error.Code != api.BadRequest || !strings.Contains(got.Error.Message, c.want) {
			t.Errorf("%s: %d %s, want 400 bad_request saying %q", c.body, r.status, r.body, c.want)
		}
		if runs, err := s.st.ListRuns(store.Filter{}, 10); err != nil || len(runs) != 0 {
			t.Errorf("%s: %d runs stored, %v; want none", c.body, len(runs), err)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("refused runs asked the provider %d times", n)
	}
}

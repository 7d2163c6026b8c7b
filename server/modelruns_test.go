package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// qaYAML is a model benchmark of one question per example, over the provider "local".
const qaYAML = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: finance, language: en}
program:
  input: {q: string}
  output: {answer: string}
scoring:
  weights: {answer: 1}
  aggregator: weighted_mean
data: {path: data.jsonl}
ai-system: {type: model, provider: local, model: m, prompt: prompt.md}
`

// chatStub is an OpenAI-compatible chat endpoint answering {"answer": "a"} for 1,000 input
// and 200 output tokens; calls counts what it was asked.
func chatStub(t *testing.T, calls *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":200}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// modelWorkspace is a workspace of qa/benchmark.yaml (three examples, two answered right by
// the stub) bound to the provider at url, priced at $2 and $10 per million tokens, and
// bad/benchmark.yaml, whose prompt template names a field the input lacks.
func modelWorkspace(t *testing.T, url string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ws")
	testkit.WriteFiles(t, dir, map[string]string{
		"qa/benchmark.yaml":  qaYAML,
		"qa/prompt.md":       "Answer.\n---user---\n{{q}}\n",
		"qa/data.jsonl":      `{"input": {"q": "one"}, "expected": {"answer": "a"}}` + "\n" + `{"input": {"q": "two"}, "expected": {"answer": "a"}}` + "\n" + `{"input": {"q": "three"}, "expected": {"answer": "b"}}` + "\n",
		"bad/benchmark.yaml": qaYAML,
		"bad/prompt.md":      "Answer.\n---user---\nQ: {{questoin}}\n",
		"bad/data.jsonl":     `{"input": {"q": "one"}, "expected": {"answer": "a"}}` + "\n",
		RuntimeFile: "providers:\n  local:\n    kind: openai\n    base_url: '" + url + "/v1'\n    max_retries: 0\n" +
			"    prices: {m: {input_per_mtok: 2, output_per_mtok: 10}}\n",
	})
	return dir
}

// TestStartRunModelOptions: POST /api/runs takes benchy run's --record-requests (a count,
// -1 every example, -2 none) and --cache (off|use|refresh|only, over the runtime file's
// cache:), and refuses values those flags refuse, naming what is allowed.
func TestStartRunModelOptions(t *testing.T) {
	var asked atomic.Int64
	stub := chatStub(t, &asked)
	_, srv := serve(t, Config{Workspace: modelWorkspace(t, stub.URL)})
	for _, c := range []struct{ body, want string }{
		{`{"benchmark": "qa/benchmark.yaml", "record_requests": -3}`, "record_requests is -3: want 0"},
		{`{"benchmark": "qa/benchmark.yaml", "cache": "always"}`, `cache is "always": want off, use, refresh or only`},
		{`{"benchmark": "qa/benchmark.yaml", "cache": "USE"}`, `cache is "USE"`},
		{`{"benchmark": "qa/benchmark.yaml", "max_cost": -1}`, "max_cost is -1: want US dollars above 0"},
		{`{"benchmark": "qa/benchmark.yaml", "max_tokens": -5}`, "max_tokens is -5: want tokens above 0"},
		{`{"benchmark": "qa/benchmark.yaml", "record_requests": "all"}`, ""},
		{`{"benchmark": "qa/benchmark.yaml", "systems": [{"own": true}], "cache": "sometimes"}`, `cache is "sometimes"`},
	} {
		r := call(t, srv, "POST", "/api/runs", c.body)
		var got api.Error
		json.Unmarshal([]byte(r.body), &got)
		if r.status != http.StatusBadRequest || got.Error.Code != api.BadRequest || !strings.Contains(got.Error.Message, c.want) {
			t.Errorf("%s: %d %s, want 400 bad_request saying %q", c.body, r.status, r.body, c.want)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("refused runs asked the provider %d times", n)
	}

	// The runtime file has no cache: (off); cache use fills it, and a second run replays it.
	run := func(body string) api.Run {
		t.Helper()
		id := startRun(t, srv, body)
		return waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
	}
	first := run(`{"benchmark": "qa/benchmark.yaml", "cache": "use", "record_requests": -1}`)
	if first.Status != api.Completed || first.Options.RecordRequests != api.RecordAll {
		t.Fatalf("first run: %s %+v, options %+v, want completed recording every request (-1)", first.Status, first.Error, first.Options)
	}
	rep := first.DecodeReport()
	if rep == nil || rep.Cache == nil || *rep.Cache != (api.CacheCounts{Hits: 0, Misses: 3}) {
		t.Fatalf("first run's report cache %+v, want 0 hits and 3 misses", rep)
	}
	sent := asked.Load()
	if sent != 3 {
		t.Fatalf("the provider was asked %d times, want 3", sent)
	}
	stub.Close() // cache only replays without the network
	replay := run(`{"benchmark": "qa/benchmark.yaml", "cache": "only"}`)
	rep = replay.DecodeReport()
	if replay.Status != api.Completed || rep == nil || rep.Cache == nil || *rep.Cache != (api.CacheCounts{Hits: 3}) || rep.Summary.Valid != 3 {
		t.Fatalf("replay: %s %+v, report %+v, want completed with 3 hits", replay.Status, replay.Error, rep)
	}
	if rep.Usage == nil || rep.Usage.CachedCostUSD == nil || rep.Usage.CostUSD == nil || *rep.Usage.CachedCostUSD != *rep.Usage.CostUSD {
		t.Errorf("replay's usage %+v: want all of its cost replayed from the cache", rep.Usage)
	}
	var page api.ResultPage
	decode(t, srv, "GET", "/api/runs/"+replay.ID+"/results", "", http.StatusOK, &page)
	for _, r := range page.Results {
		if r.Usage == nil || r.Usage.Cached == nil || !*r.Usage.Cached {
			t.Errorf("replay's example %d usage %+v, want cached", r.Index, r.Usage)
		}
	}
}

// TestCacheModesAgree: the API's list of cache modes is the provider's.
func TestCacheModesAgree(t *testing.T) {
	if !slices.Equal(api.CacheModes, provider.CacheModes) {
		t.Errorf("api.CacheModes %v, provider.CacheModes %v", api.CacheModes, provider.CacheModes)
	}
}

// TestRunCostInTheAPI: a priced model run shows each example's cost_usd and the run's
// usage.cost_usd and priced_examples in its report; without a cache no example says cached.
func TestRunCostInTheAPI(t *testing.T) {
	var asked atomic.Int64
	_, srv := serve(t, Config{Workspace: modelWorkspace(t, chatStub(t, &asked).URL)})
	id := startRun(t, srv, `{"benchmark": "qa/benchmark.yaml"}`)
	v := waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
	const each = 1000*2.0/1e6 + 200*10.0/1e6
	rep := v.DecodeReport()
	if v.Status != api.Completed || rep == nil || rep.Usage == nil || rep.Usage.CostUSD == nil {
		t.Fatalf("%s %+v, report %+v: want a completed run with a cost", v.Status, v.Error, rep)
	}
	if got := *rep.Usage.CostUSD; got < 3*each-1e-12 || got > 3*each+1e-12 || rep.Usage.PricedExamples != 3 || rep.Usage.CachedCostUSD != nil || rep.Cache != nil {
		t.Errorf("usage %+v cache %+v, want $%v over 3 priced examples, nothing cached, no cache counts", rep.Usage, rep.Cache, 3*each)
	}
	var page api.ResultPage
	decode(t, srv, "GET", "/api/runs/"+id+"/results", "", http.StatusOK, &page)
	if len(page.Results) != 3 {
		t.Fatalf("%d results", len(page.Results))
	}
	for _, r := range page.Results {
		if r.Usage == nil || r.Usage.CostUSD == nil || *r.Usage.CostUSD != each || r.Usage.Cached != nil {
			t.Errorf("example %d usage %+v, want cost_usd %v and no cached", r.Index, r.Usage, each)
		}
	}
	// The leaderboard's entry carries the cost.
	var board api.Leaderboard
	decode(t, srv, "GET", "/api/leaderboard?benchmark=qa/benchmark.yaml", "", http.StatusOK, &board)
	if len(board.Entries) != 1 || board.Entries[0].Usage == nil || board.Entries[0].Usage.CostUSD == nil {
		b, _ := json.Marshal(board)
		t.Errorf("leaderboard %s: want its entry's usage.cost_usd", b)
	}
}

// TestPromptTemplateDiagnostics: a run of a benchmark whose prompt template names a field
// the input lacks is refused before any call with the template's diagnostics, each at its
// line and column of the prompt file (relative to the workspace), as a benchmark that does
// not compile is: not as a binding_unusable sentence.
func TestPromptTemplateDiagnostics(t *testing.T) {
	var asked atomic.Int64
	_, srv := serve(t, Config{Workspace: modelWorkspace(t, chatStub(t, &asked).URL)})
	for _, body := range []string{`{"benchmark": "bad/benchmark.yaml"}`, `{"benchmark": "bad/benchmark.yaml", "systems": [{"own": true}]}`} {
		r := call(t, srv, "POST", "/api/runs", body)
		var got api.InvalidBenchmarkError
		if err := json.Unmarshal([]byte(r.body), &got); err != nil || r.status != http.StatusBadRequest || got.Error.Error.Code != api.InvalidBenchmark {
			t.Fatalf("%s: %d %s, want 400 invalid_benchmark", body, r.status, r.body)
		}
		if len(got.Diagnostics) != 1 {
			t.Fatalf("%s: diagnostics %+v, want one", body, got.Diagnostics)
		}
		d := got.Diagnostics[0]
		if d.File != "bad/prompt.md" || d.Line != 3 || d.Column != 4 || !strings.Contains(d.Message, "questoin") {
			t.Errorf("%s: %+v, want bad/prompt.md:3:4 naming questoin", body, d)
		}
		if strings.Contains(r.body, filepath.Dir(t.TempDir())) {
			t.Errorf("%s: the answer shows the server's paths: %s", body, r.body)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the provider was asked %d times, want never", n)
	}
}

// TestRunReasonInTheAPI: a run cancelled at its budget says so (reason "budget") in GET
// /api/runs/{id} and in the list; a run a user cancelled has no reason.
func TestRunReasonInTheAPI(t *testing.T) {
	var asked atomic.Int64
	dir := modelWorkspace(t, chatStub(t, &asked).URL)
	s, srv := serve(t, Config{Workspace: dir})
	b, _ := compiler.Compile([]byte(qaYAML))
	canonical, _ := ir.Marshal(b)
	ids := map[string]string{}
	for _, reason := range []string{api.ReasonBudget, ""} {
		run, err := s.st.CreateRun(store.RunSpec{Benchmark: "qa/benchmark.yaml", IR: canonical, IRHash: ir.Hash(canonical), AISystem: b.AISystem, Binding: "local"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.st.MarkRunning(run.ID, 3); err != nil {
			t.Fatal(err)
		}
		if err := s.st.CancelFor(run.ID, reason); err != nil {
			t.Fatal(err)
		}
		ids[reason] = run.ID
	}
	if v := getRun(t, srv, ids[api.ReasonBudget]); v.Status != api.Cancelled || v.Reason != api.ReasonBudget {
		t.Errorf("a run cancelled at its budget: %s reason %q, want cancelled, budget", v.Status, v.Reason)
	}
	if v := getRun(t, srv, ids[""]); v.Status != api.Cancelled || v.Reason != "" {
		t.Errorf("a run cancelled by a user: %s reason %q, want none", v.Status, v.Reason)
	}
	var list api.Runs
	decode(t, srv, "GET", "/api/runs", "", http.StatusOK, &list)
	for _, v := range list.Runs {
		if v.ID == ids[api.ReasonBudget] && v.Reason != api.ReasonBudget {
			t.Errorf("the list shows the budget's run with reason %q", v.Reason)
		}
	}
}

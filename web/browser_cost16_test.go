package web_test

// Browser tests of what a model run cost (issue 16): the example view's usage line shows
// the example's cost and marks a reply replayed from the response cache, the results page
// shows the run's cost, what of it came from the cache and the cache's hits and misses,
// and the leaderboard has a Cost column. The runs are real: `benchy serve` calls an
// OpenAI-compatible stub (httptest) at the prices of the runtime file.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
)

const costBenchmark = `version: "1.0"
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

// chatStub is an OpenAI-compatible server that answers every request {"answer": "a"} for
// 1,000 input and 200 output tokens, counting the requests in asked.
func chatStub(t *testing.T) (url string, asked *atomic.Int64) {
	asked = new(atomic.Int64)
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":200}}`))
	}))
	t.Cleanup(stub.Close)
	return stub.URL, asked
}

// costWorkspace is qa.yaml, three questions the stub at url answers for 1,000 input and
// 200 output tokens each, priced at $2 and $10 per million: $0.0040 an example. A
// maxTokens above 0 bounds each reply, as a budget needs.
func costWorkspace(t *testing.T, url string, maxTokens int) string {
	bench := costBenchmark
	if maxTokens > 0 {
		bench = strings.Replace(bench, "prompt: prompt.md}", fmt.Sprintf("prompt: prompt.md, parameters: {max_tokens: %d}}", maxTokens), 1)
	}
	return testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"qa.yaml":    bench,
		"prompt.md":  "Answer.\n---user---\n{{q}}\n",
		"data.jsonl": `{"input": {"q": "one"}, "expected": {"answer": "a"}}` + "\n" + `{"input": {"q": "two"}, "expected": {"answer": "a"}}` + "\n" + `{"input": {"q": "three"}, "expected": {"answer": "b"}}` + "\n",
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: '" + url + "/v1'\n    max_retries: 0\n" +
			"    prices: {m: {input_per_mtok: 2, output_per_mtok: 10}}\n",
	})
}

// TestBrowserCost16 runs qa.yaml with the cache on, then again from the cache: the second
// run's example shows its cost and the cached mark, its page the cost (all of it from the
// cache) and 3 hits, 0 misses, and the leaderboard its cost.
func TestBrowserCost16(t *testing.T) {
	requireBrowser(t)
	url, asked := chatStub(t)
	srv := startServer(t, costWorkspace(t, url, 0))
	start := func() string {
		var started api.Started
		srv.postJSON(t, "/api/runs", `{"benchmark": "qa.yaml", "cache": "use"}`, &started)
		waitRun(t, srv, started.ID)
		return started.ID
	}
	start()
	id := start()
	if n := asked.Load(); n != 3 {
		t.Fatalf("the stub was asked %d times, want 3 (the second run from the cache)", n)
	}
	b := newBrowser(t, 90*time.Second)

	b.open(srv.URL("/results?run=" + id + "&example=0"))
	waitExample(b, 0)
	usage := poll[string](b, "the usage line", `(() => { const e = document.getElementById("example-usage"); return e && e.innerText; })()`, 10*time.Second, "")
	for _, want := range []string{"cost $0.0040", "cached"} {
		if !strings.Contains(usage, want) {
			t.Errorf("the usage line reads %q, want %q in it", usage, want)
		}
	}
	if !b.exists("#example-cached") {
		t.Error("no cached mark in the example view")
	}
	b.screenshot("cost16-example")

	b.open(srv.URL("/results?run=" + id))
	cost := poll[string](b, "the cost card", `(() => { const e = document.getElementById("cost"); return e && e.innerText; })()`, 10*time.Second, "")
	if !strings.Contains(cost, "$0.0120") || !strings.Contains(cost, "$0.0120 of it from the cache") {
		t.Errorf("the cost card reads %q, want $0.0120, all of it from the cache", cost)
	}
	if cache := eval[string](b, `document.getElementById("cache").innerText`); !strings.Contains(cache, "3 / 0") {
		t.Errorf("the cache card reads %q, want 3 hits / 0 misses", cache)
	}
	b.screenshot("cost16-results")

	b.open(srv.URL("/leaderboard?benchmark=qa.yaml"))
	cell := poll[string](b, "the cost column", `(() => { const e = document.querySelector("#board tr.entry .entry-cost"); return e && e.textContent; })()`, 10*time.Second,
		`document.body.innerText.slice(0, 400)`)
	if cell != "$0.0120" {
		t.Errorf("the leaderboard's cost is %q, want $0.0120", cell)
	}
	if head := eval[string](b, `[...document.querySelectorAll("#board thead th")].map(h => h.textContent).join("|")`); !strings.Contains(head, "|Cost|") {
		t.Errorf("the board's headers %q have no Cost", head)
	}
	b.screenshot("cost16-leaderboard")
}

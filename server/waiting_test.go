package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider/batchstub"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// nameYAML is a model benchmark of one text per example, whose output batchstub.Echo
// answers: the name is the request's last text.
const nameYAML = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: finance, language: en}
program:
  input: {text: string}
  output: {name: string}
scoring:
  weights: {name: 1}
  aggregator: weighted_mean
data: {path: data.jsonl}
ai-system: {type: model, provider: local, model: m, prompt: prompt.md}
`

// batchWorkspace is a workspace of names/benchmark.yaml (n examples) bound to the batch
// stub at url through its batch API.
func batchWorkspace(t *testing.T, url string, n int) string {
	t.Helper()
	var rows strings.Builder
	for i := range n {
		fmt.Fprintf(&rows, `{"input": {"text": "review %d"}, "expected": {"name": "text: review %d"}}`+"\n", i, i)
	}
	dir := filepath.Join(t.TempDir(), "ws")
	testkit.WriteFiles(t, dir, map[string]string{
		"names/benchmark.yaml": nameYAML,
		"names/prompt.md":      "Give the name.\n",
		"names/data.jsonl":     rows.String(),
		RuntimeFile:            "providers:\n  local:\n    kind: openai\n    base_url: '" + url + "/v1'\n    batch: true\n",
	})
	return dir
}

// TestRunWaitsForBatches: a run through the provider's batch API shows, while its batch is
// held in progress, waiting for "batch" with the batch's id, state and counts in GET
// /api/runs/{id} (and its batches), and on its event stream; released, it completes, waits
// for nothing, and still lists its batch, ended.
func TestRunWaitsForBatches(t *testing.T) {
	stub := batchstub.New(false)
	stub.Hold = true
	t.Cleanup(stub.Close)
	_, srv := serve(t, Config{Workspace: batchWorkspace(t, stub.URL, 3)})
	id := startRun(t, srv, `{"benchmark": "names/benchmark.yaml"}`)
	v := waitRun(t, srv, id, "waiting for its batch", func(v api.Run) bool { return v.Waiting != nil })
	w := v.Waiting
	if w.For != api.WaitBatch || len(w.Batches) != 1 || len(v.Batches) != 1 || w.Batches[0].ID != v.Batches[0].ID {
		t.Fatalf("waiting %+v, batches %+v: want one batch waited for, the run's", w, v.Batches)
	}
	b := v.Batches[0]
	if b.ID == "" || b.Provider != "local" || b.Kind != "openai" || b.Requests != 3 || b.State == "completed" || b.Done != 0 {
		t.Errorf("batch %+v: want local's openai batch of 3 requests, none done", b)
	}
	if want := fmt.Sprintf("batch %s: %s 0/3", b.ID, b.State); w.Detail != want || time.Since(w.Since) > time.Minute || w.Since.After(time.Now()) {
		t.Errorf("waiting %q since %v, want %q since its submission", w.Detail, w.Since, want)
	}
	if stub.Count("sync") != 0 {
		t.Errorf("%d synchronous requests", stub.Count("sync"))
	}

	next, closeStream := events(t, srv, id)
	defer closeStream()
	for {
		e, ok := next()
		if !ok || e.name == "done" {
			t.Fatalf("the stream ended (%+v) before a progress event said the run waits", e)
		}
		var p api.Progress
		if e.name == "progress" && json.Unmarshal([]byte(e.data), &p) == nil && p.Waiting != nil {
			if p.Waiting.For != api.WaitBatch || len(p.Waiting.Batches) != 1 || p.Waiting.Batches[0].ID != b.ID || p.Total != 3 {
				t.Errorf("the stream's progress %+v, waiting %+v: want batch %s, total 3", p, p.Waiting, b.ID)
			}
			break
		}
	}

	stub.Release()
	v = waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
	if v.Status != api.Completed || v.Summary == nil || v.Summary.Valid != 3 || v.Waiting != nil {
		t.Fatalf("released: %s %+v, waiting %+v, want completed with 3 valid, waiting for nothing", v.Status, v.Summary, v.Waiting)
	}
	if len(v.Batches) != 1 || v.Batches[0].ID != b.ID || v.Batches[0].State != "completed" || v.Batches[0].Done != 3 {
		t.Errorf("the completed run's batches %+v, want %s completed, 3 done", v.Batches, b.ID)
	}
}

// TestRunWaitsForTheRateLimit: a run whose provider holds its requests, with a 429's
// retry-after or a reply saying no tokens are left until a reset, shows waiting for
// "rate_limit" and why in GET /api/runs/{id}, and completes once the wait is over.
func TestRunWaitsForTheRateLimit(t *testing.T) {
	for _, c := range []struct {
		name   string
		first  func(w http.ResponseWriter) // the answer to the first request
		detail string
	}{
		{"a 429 with retry-after", func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"message":"slow down","type":"rate_limit_exceeded"}}`))
		}, ""},
		{"no tokens left until a reset", func(w http.ResponseWriter) {
			w.Header().Set("x-ratelimit-remaining-tokens", "0")
			w.Header().Set("x-ratelimit-reset-tokens", "2s")
			w.Write([]byte(`{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`))
		}, "tokens"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var asked atomic.Int64
			stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if asked.Add(1) == 1 {
					c.first(w)
					return
				}
				w.Write([]byte(`{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`))
			}))
			t.Cleanup(stub.Close)
			dir := modelWorkspace(t, stub.URL)
			testkit.WriteFiles(t, dir, map[string]string{RuntimeFile: "providers:\n  local:\n    kind: openai\n    base_url: '" + stub.URL + "/v1'\n"})
			_, srv := serve(t, Config{Workspace: dir})
			id := startRun(t, srv, `{"benchmark": "qa/benchmark.yaml", "concurrency": 1}`)
			v := waitRun(t, srv, id, "waiting for the rate limit", func(v api.Run) bool { return v.Waiting != nil || v.FinishedAt != nil })
			if w := v.Waiting; w == nil || w.For != api.WaitRateLimit || w.Detail == "" || !strings.Contains(w.Detail, c.detail) || time.Since(w.Since) > time.Minute {
				t.Fatalf("%s, waiting %+v: want waiting for rate_limit, why (%q)", v.Status, v.Waiting, c.detail)
			}
			v = waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
			if v.Status != api.Completed || v.Summary == nil || v.Summary.Examples != 3 || v.Waiting != nil {
				t.Errorf("after the wait: %s %+v waiting %+v, want completed, waiting for nothing", v.Status, v.Summary, v.Waiting)
			}
		})
	}
}

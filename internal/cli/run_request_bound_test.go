package cli_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider/batchstub"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestRunRefusesRowPastRequestBound: a prompt template that writes {{text}} 9,000 times
// turns a 1 KiB review into a 9 MiB request, past the 8 MiB of text a request may carry.
// The run stops before its first request, at that row's line, as a dataset problem
// (request_too_large), in benchy run, a batch run (nothing submitted), benchy run
// --estimate and a run of the server; the rows before it, whose requests are small, are
// not sent either. Before the bound every
// request was rendered and sent whole (4 examples of a 500 KB template and a 1 KB field
// took 1.5 GB).
func TestRunRefusesRowPastRequestBound(t *testing.T) {
	var requests atomic.Int32
	srv := sentimentProvider(t, func(chatRequest) (string, bool) {
		requests.Add(1)
		return "positive", true
	})
	batches := batchstub.New(false)
	t.Cleanup(batches.Close)
	dir := t.TempDir()
	long := strings.Repeat("a long review ", 80)[:1024]
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n---user---\n" + strings.Repeat("{{text}}\n", 9000),
		"data/reviews.jsonl": `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Broken on arrival"}, "expected": {"sentiment": "negative"}}
{"input": {"text": "` + long + `"}, "expected": {"sentiment": "negative"}}
{"input": {"text": "fine"}, "expected": {"sentiment": "positive"}}
`,
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 0\n",
		"batch.yaml":          "providers:\n  local:\n    kind: openai\n    base_url: " + batches.URL + "/v1\n    max_retries: 0\n    batch: true\n",
	})
	bench := filepath.Join(dir, "benchmark.yaml")
	at := filepath.Join(dir, "data", "reviews.jsonl") + ":3:1: request_too_large: "

	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, "results.json"), bench)
	if code == 0 || !strings.Contains(stderr, at) || requests.Load() != 0 {
		t.Errorf("benchy run: exit %d after %d requests, want a refusal at line 3 (%q) before any request\n%s", code, requests.Load(), at, stderr)
	}

	code, _, stderr = runBenchy(t, "run", "--runtime", filepath.Join(dir, "batch.yaml"), "-o", filepath.Join(dir, "batch.json"), bench)
	if code == 0 || !strings.Contains(stderr, at) || batches.Count("upload") != 0 || batches.Count("create") != 0 {
		t.Errorf("a batch run: exit %d after %d uploads and %d batches, want a refusal at line 3 (%q) before any\n%s", code, batches.Count("upload"), batches.Count("create"), at, stderr)
	}

	code, stdout, stderr := runBenchy(t, "run", "--estimate", bench)
	if code == 0 || !strings.Contains(stderr, at) {
		t.Errorf("benchy run --estimate: exit %d, want a refusal at line 3 (%q)\n%s%s", code, at, stdout, stderr)
	}

	web := serveAPI(t, dir)
	var started api.Started
	if code := apiCall(t, web, "POST", api.RunsPath, `{"benchmark": "benchmark.yaml"}`, &started); code != http.StatusAccepted {
		t.Fatalf("POST /api/runs: %d", code)
	}
	run := waitRun(t, web, started.ID)
	if e := run.Error; run.Status != api.Aborted || e == nil || e.Code != "request_too_large" || e.File != "data/reviews.jsonl" || e.Line != 3 {
		t.Errorf("the server's run: %s, error %+v; want aborted with request_too_large at line 3 of data/reviews.jsonl", run.Status, e)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached the provider, want none", n)
	}
}

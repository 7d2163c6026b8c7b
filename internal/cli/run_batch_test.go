package cli_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider/batchstub"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestRunBatch: batch: true in the runtime file sends benchy run through the provider's
// batch API (one upload, one batch, no synchronous call), and its results equal those of
// the same run sent request by request to the same server, but for their timings.
func TestRunBatch(t *testing.T) {
	srv := batchstub.New(false)
	srv.Answer = func(body []byte) (int, []byte) {
		answer := `{\"sentiment\":\"negative\"}`
		switch {
		case strings.Contains(string(body), "maybe"):
			answer = "I cannot tell."
		case strings.Contains(string(body), "love"):
			answer = `{\"sentiment\":\"positive\"}`
		case strings.Contains(string(body), "refused"):
			return 400, []byte(`{"error":{"message":"this input is refused","type":"invalid_request_error"}}`)
		}
		return 200, fmt.Appendf(nil, `{"choices":[{"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`, answer)
	}
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	head := "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 0\n"
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl": `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Broken on arrival"}, "expected": {"sentiment": "negative"}}
{"input": {"text": "maybe fine"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "refused"}, "expected": {"sentiment": "positive"}}
`,
		"benchy.runtime.yaml": head,
		"batch.yaml":          head + "    batch: true\n",
	})
	run := func(runtime, out string) map[string]any {
		t.Helper()
		code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, runtime), "-o", filepath.Join(dir, out), filepath.Join(dir, "benchmark.yaml"))
		if code != 0 {
			t.Fatalf("benchy run --runtime %s: exit %d\n%s", runtime, code, stderr)
		}
		if runtime == "batch.yaml" && !regexp.MustCompile(`(?m)^batch batch_\w+ at local: completed, 4 of 4 requests done; replies read$`).MatchString(stderr) {
			t.Errorf("the batch run does not say how its batch went:\n%s", stderr)
		}
		return readDoc(t, filepath.Join(dir, out))
	}
	sync := run("benchy.runtime.yaml", "sync.json")
	calls := srv.Count("sync")
	batch := run("batch.yaml", "batch.json")
	if srv.Count("sync") != calls || srv.Count("create") != 1 || srv.Count("upload") != 1 {
		t.Errorf("the batch run made %d synchronous calls, %d batches, %d uploads; want 0, 1, 1", srv.Count("sync")-calls, srv.Count("create"), srv.Count("upload"))
	}
	strip := func(doc map[string]any) []any {
		rs := doc["results"].([]any)
		for _, r := range rs {
			delete(r.(map[string]any)["usage"].(map[string]any), "latency_ms")
		}
		return rs
	}
	if s, b := strip(sync), strip(batch); !reflect.DeepEqual(s, b) {
		t.Errorf("the batch run's results differ from the synchronous run's:\nsync  %v\nbatch %v", s, b)
	}
	// benchy runs show names the run's batch, as the store keeps it.
	code, stdout, stderr := runBenchy(t, "runs", "show", "--workspace", dir, batch["run_id"].(string))
	var shown struct {
		Batches []struct {
			ID, State string
			Requests  int
			Counts    map[string]int `json:"request_counts"`
			Read      bool           `json:"replies_read"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &shown); code != 0 || err != nil || len(shown.Batches) != 1 || shown.Batches[0].State != "completed" ||
		shown.Batches[0].Requests != 4 || shown.Batches[0].Counts["completed"] != 3 || !shown.Batches[0].Read || !strings.HasPrefix(shown.Batches[0].ID, "batch_") {
		t.Errorf("benchy runs show: exit %d, %v, %+v\n%s%s", code, err, shown, stdout, stderr)
	}
	// A batch run is one batch at the provider, and a shard uses no response cache.
	code, _, stderr = runBenchy(t, "run", "--runtime", filepath.Join(dir, "batch.yaml"), "--shard", "0/2", "--out-dir", filepath.Join(dir, "shards"), filepath.Join(dir, "benchmark.yaml"))
	if code != 2 || !strings.Contains(stderr, "--shard cannot go with a provider's batch: true") {
		t.Errorf("--shard of a batch run: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runBenchy(t, "run", "--cache", "use", "--shard", "0/2", "--out-dir", filepath.Join(dir, "shards"), filepath.Join(dir, "benchmark.yaml"))
	if code != 2 || !strings.Contains(stderr, "--cache cannot go with --shard") {
		t.Errorf("--shard with --cache: exit %d\n%s", code, stderr)
	}
	if sync["benchmark_score"] != batch["benchmark_score"] || sync["summary"].(map[string]any)["execution_errors"] != 1.0 {
		t.Errorf("scores %v and %v, summary %v", sync["benchmark_score"], batch["benchmark_score"], sync["summary"])
	}
}

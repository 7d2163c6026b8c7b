package cli_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestRunWaitsForRateLimit: a provider whose first reply says no request is left for 3
// seconds holds the run's next requests until then, and benchy run's progress line says,
// while no example ends, that the run waits for the rate limit and why.
func TestRunWaitsForRateLimit(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("x-ratelimit-remaining-requests", "0")
			w.Header().Set("x-ratelimit-reset-requests", "3s")
		}
		fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"{\"sentiment\":\"positive\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl": `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Great"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Fine"}, "expected": {"sentiment": "positive"}}
`,
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    tokens_per_minute: 100000\n",
	})
	code, _, stderr := runBenchy(t, "run", "--concurrency", "1", "-o", filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "waiting for the rate limit (the provider's requests limit)") {
		t.Errorf("the progress line never says the run waits for the rate limit:\n%s", stderr)
	}
	if calls.Load() != 3 {
		t.Errorf("%d requests, want 3", calls.Load())
	}
}

package cli_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider/batchstub"
	"github.com/benchy-eval/benchy/internal/testkit"
)

var summaryTime = regexp.MustCompile(`over \d+ examples? in (\S+)\n`)

// TestRunSummaryTime: a batch run's summary says how long the user waited, the batch's
// wait included, not the few milliseconds its engine took to read the replies.
func TestRunSummaryTime(t *testing.T) {
	srv := batchstub.New(false)
	srv.Answer = func(body []byte) (int, []byte) {
		return 200, []byte(`{"choices":[{"message":{"role":"assistant","content":"{\"sentiment\":\"negative\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`)
	}
	srv.Hold = true
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl":   `{"input": {"text": "Broken on arrival"}, "expected": {"sentiment": "negative"}}` + "\n",
		"benchy.runtime.yaml":  "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 0\n    batch: true\n",
	})
	const wait = 1500 * time.Millisecond
	go func() { time.Sleep(wait); srv.Release() }()
	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, "r.json"), filepath.Join(dir, "benchmark.yaml"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	m := summaryTime.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary time:\n%s", stderr)
	}
	took, err := time.ParseDuration(m[1])
	if err != nil || took < wait {
		t.Errorf("the summary says the run took %s, want at least the batch's wait of %s\n%s", m[1], wait, stderr)
	}
	if !strings.Contains(stderr, "batch ") {
		t.Errorf("not a batch run:\n%s", stderr)
	}

}

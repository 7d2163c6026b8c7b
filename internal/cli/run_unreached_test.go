package cli_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestRunUnreached: a model whose server is not running makes every example an execution
// error; benchy run said "score 0.0000" and exited 0, as for a system that answered badly.
// It now says the score is not meaningful, the run's health (the most frequent code with
// its message in full, said once), that the system was never reached, and exits 3 (issue 15: 1 is a gate's),
// alone or among systems; a run with one answer is a result as before.
func TestRunUnreached(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0") // a port with nothing behind it once closed
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	dir := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl":   `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}` + "\n",
		"benchy.runtime.yaml":  "providers:\n  local:\n    kind: openai\n    base_url: http://" + dead + "/v1\n    max_retries: 0\n",
	})
	code, _, stderr := runBenchy(t, "run", "--no-store", "-o", filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml"))
	if code != 3 || !strings.Contains(stderr, "every example was an execution error: the AI-system was never reached; its score") ||
		!strings.Contains(stderr, "\nfailed infrastructure: 1 of 1 examples: provider_error: cannot reach http://"+dead+": dial tcp "+dead) ||
		strings.Count(stderr, "cannot reach") != 1 || !strings.Contains(stderr, "score 0.0000 (not meaningful: failed infrastructure) over 1 example") {
		t.Errorf("a model whose server is down: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		t.Errorf("the result document was not written: %v", err)
	}
	code, _, stderr = runBenchy(t, "run", "--no-store", "--model", "local/a", "--model", "local/b", "-o", filepath.Join(dir, "r-{system}.json"), filepath.Join(dir, "benchmark.yaml"))
	if code != 3 || strings.Count(stderr, "was never reached") != 2 || strings.Count(stderr, ": failed infrastructure: 1 of 1 examples: provider_error: ") != 2 {
		t.Errorf("two models whose server is down: exit %d\n%s", code, stderr)
	}
}

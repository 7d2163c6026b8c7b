package cli_test

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestMergeAllErrorsExitsInfra: shards whose every example was an execution error (a
// model server that is not running) merge into a run that exits 3, as the unsharded run
// does, saying its score measures the setup: a Slurm or Kubernetes CI job of shards must
// fail a broken setup as benchy run would, where the merge exited 0.
func TestMergeAllErrorsExitsInfra(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0") // a port with nothing behind it once closed
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	dir := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl": `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}` + "\n" +
			`{"input": {"text": "I hate it"}, "expected": {"sentiment": "negative"}}` + "\n",
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: http://" + dead + "/v1\n    max_retries: 0\n",
	})
	t.Setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
	bench, out := filepath.Join(dir, "benchmark.yaml"), filepath.Join(dir, "shards")
	for _, k := range []string{"0", "1"} {
		if code, _, stderr := runBenchy(t, "run", "--shard", k+"/2", "--out-dir", out, bench); code != 0 && code != 3 {
			t.Fatalf("shard %s/2: exit %d\n%s", k, code, stderr)
		}
	}
	code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, out)
	if code != 3 || !strings.Contains(stderr, "every example was an execution error") {
		t.Errorf("a merge of shards whose every example failed: exit %d, want 3 saying so\n%s", code, stderr)
	}
}

package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestRunSystemsModel: --model PROVIDER/MODEL on a model benchmark puts the benchmark's own
// prompt and parameters to each model named (a model's name may hold a slash), against a
// server that speaks the OpenAI Chat Completions format: each run records the prompt's
// digest, and its label names its result files.
func TestRunSystemsModel(t *testing.T) {
	const prompt = "Classify the sentiment of the review.\n"
	var mu sync.Mutex
	asked := map[string]int{} // model: requests with the prompt as the system message and temperature 0
	srv := sentimentProvider(t, func(req chatRequest) (string, bool) {
		if fmt.Sprint(req.Messages[0].Content) == strings.TrimSpace(prompt) || fmt.Sprint(req.Messages[0].Content) == prompt {
			if req.Temperature != nil && *req.Temperature == 0 {
				mu.Lock()
				asked[req.Model]++
				mu.Unlock()
			}
		}
		// the small model is always negative; the other reads the review
		if req.Model != "small" && strings.Contains(fmt.Sprint(req.Messages[1].Content), "love") {
			return "positive", true
		}
		return "negative", true
	})

	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": prompt,
		"data/reviews.jsonl": `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Broken on arrival"}, "expected": {"sentiment": "negative"}}
`,
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n",
	})
	code, stdout, stderr := runBenchy(t, "run", "--model", "local/small", "--model", "local/meta/llama", "-o", filepath.Join(dir, "r-{system}.json"), filepath.Join(dir, "benchmark.yaml"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if asked["small"] != 2 || asked["meta/llama"] != 2 || len(asked) != 2 {
		t.Errorf("requests with the benchmark's prompt and parameters, by model: %v", asked)
	}
	runs := storedRuns(t, dir)
	small, llama := runs["local/small"], runs["local/meta/llama"]
	want := engine.SHA256([]byte(prompt))
	if small.System == nil || llama.System == nil || small.System.PromptSHA256 != want || llama.System.PromptSHA256 != want {
		t.Fatalf("stored %+v, want both with the prompt's digest %s", runs, want)
	}
	if small.BenchmarkHash != llama.BenchmarkHash || small.IRHash == llama.IRHash || small.System.Hash == llama.System.Hash {
		t.Errorf("benchmark_hash %s %s, ir_hash %s %s", small.BenchmarkHash, llama.BenchmarkHash, small.IRHash, llama.IRHash)
	}
	for _, name := range []string{"r-local_small.json", "r-local_meta_llama.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("result file: %v", err)
		}
	}
	if !strings.Contains(stdout, "1     local/meta/llama  1.0000") || !strings.Contains(stdout, "2     local/small       0.5000") {
		t.Errorf("leaderboard:\n%s", stdout)
	}
}

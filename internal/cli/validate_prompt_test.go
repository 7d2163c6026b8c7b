package cli_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestValidatePromptTemplate: benchy validate checks a model's prompt template as a run
// would before its first request, positioned in the prompt file; a good one passes; a
// prompt file the run could not read is reported where the benchmark names it.
func TestValidatePromptTemplate(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify it.\n---user---\nThe review:\n\n{{txet}}\n",
		"good.yaml":            strings.Replace(sentimentModel, "prompts/sentiment.md", "prompts/good.md", 1),
		"prompts/good.md":      "Classify it.\n---user---\n{{text}}\n",
		"missing.yaml":         strings.Replace(sentimentModel, "prompts/sentiment.md", "prompts/none.md", 1),
		"data/reviews.jsonl":   `{"input": {"text": "fine"}, "expected": {"sentiment": "positive"}}` + "\n",
	})
	code, _, stderr := runBenchy(t, "validate", filepath.Join(dir, "benchmark.yaml"))
	want := filepath.Join(dir, "prompts", "sentiment.md") + ":5:1: invalid_value: {{txet}} is not a field of the input"
	if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "did you mean text?") {
		t.Errorf("a broken template: exit %d, want 1 with %q:\n%s", code, want, stderr)
	}
	code, stdout, _ := runBenchy(t, "validate", "--json", filepath.Join(dir, "benchmark.yaml"))
	var ds []struct{ File, Code string }
	if err := json.Unmarshal([]byte(stdout), &ds); code != 1 || err != nil || len(ds) != 1 || ds[0].Code != "invalid_value" || !strings.HasSuffix(ds[0].File, "sentiment.md") {
		t.Errorf("--json: exit %d, %v, %s", code, err, stdout)
	}
	if code, _, stderr := runBenchy(t, "validate", filepath.Join(dir, "good.yaml")); code != 0 {
		t.Errorf("good.yaml: exit %d\n%s", code, stderr)
	}
	// A prompt file the run could not read: where the benchmark names it.
	line := 1 + strings.Count(sentimentModel[:strings.Index(sentimentModel, "prompt: ")], "\n")
	code, _, stderr = runBenchy(t, "validate", filepath.Join(dir, "missing.yaml"))
	if want := fmt.Sprintf("missing.yaml:%d:11: data_not_found: ai-system.prompt: cannot read the prompt file", line); code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("missing.yaml: exit %d, want 1 with %q:\n%s", code, want, stderr)
	}
}

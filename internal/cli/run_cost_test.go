package cli_test

import (
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestRunCost: with prices for the model in the runtime file, each example's usage.cost_usd
// is its tokens at those prices, the report's usage.cost_usd their sum, and the summary
// prints it to 4 decimals with how many examples were priced; a replay from the cache costs
// the same, as its results are the original's, and says none of it was paid again; without a price for the model there is no cost anywhere (unknown, not $0).
func TestRunCost(t *testing.T) {
	var requests atomic.Int32
	srv := cacheProvider(t, &requests) // 12 prompt and 4 completion tokens per reply
	dir := t.TempDir()
	head := "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 0\n"
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl": `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Broken on arrival"}, "expected": {"sentiment": "negative"}}
{"input": {"text": "maybe fine"}, "expected": {"sentiment": "positive"}}
`,
		"benchy.runtime.yaml": head + "    prices:\n      tiny: {input_per_mtok: 1000, output_per_mtok: 2500}\n      other: {input_per_mtok: 1, output_per_mtok: 1}\n",
		"unpriced.yaml":       head + "    prices:\n      other: {input_per_mtok: 1, output_per_mtok: 1}\n",
	})
	run := func(runtime, out string, args ...string) (map[string]any, string) {
		t.Helper()
		code, _, stderr := runBenchy(t, append(append([]string{"run", "--runtime", filepath.Join(dir, runtime), "-o", filepath.Join(dir, out)}, args...), filepath.Join(dir, "benchmark.yaml"))...)
		if code != 0 {
			t.Fatalf("benchy run %s %v: exit %d\n%s", runtime, args, code, stderr)
		}
		return readDoc(t, filepath.Join(dir, out)), stderr
	}
	const each = 12*1000/1e6 + 4*2500/1e6 // 0.022, the invalid output's included: it was paid for

	// benchy.runtime.yaml marks dir as a workspace: its store keeps the response cache.
	doc, stderr := run("benchy.runtime.yaml", "priced.json", "--cache", "use")
	if !strings.Contains(stderr, "cost $0.0660 (3 of 3 examples priced)\n") {
		t.Errorf("the summary has no cost line:\n%s", stderr)
	}
	for i, r := range doc["results"].([]any) {
		if c, _ := r.(map[string]any)["usage"].(map[string]any)["cost_usd"].(float64); math.Abs(c-each) > 1e-12 {
			t.Errorf("example %d: cost_usd %v, want %v", i, c, each)
		}
	}
	if u := doc["usage"].(map[string]any); math.Abs(u["cost_usd"].(float64)-3*each) > 1e-12 || u["priced_examples"] != 3.0 {
		t.Errorf("the report's usage %v, want cost_usd %v over 3 priced examples", u, 3*each)
	}

	srv.Close()
	doc, stderr = run("benchy.runtime.yaml", "replay.json", "--cache", "only")
	if u := doc["usage"].(map[string]any); !strings.Contains(stderr, "cost $0.0660 (3 of 3 examples priced; $0.0660 of it replayed from the cache, not paid again)\n") ||
		math.Abs(u["cost_usd"].(float64)-3*each) > 1e-12 || math.Abs(u["cached_cost_usd"].(float64)-3*each) > 1e-12 {
		t.Errorf("a replay from the cache costs what the original did, none of it paid again: usage %v\n%s", doc["usage"], stderr)
	}
	for i, r := range doc["results"].([]any) {
		if c, _ := r.(map[string]any)["usage"].(map[string]any)["cost_usd"].(float64); math.Abs(c-each) > 1e-12 {
			t.Errorf("replayed example %d: cost_usd %v, want the original's %v", i, c, each)
		}
	}

	doc, stderr = run("unpriced.yaml", "unpriced.json", "--cache", "only")
	if strings.Contains(stderr, "cost $") {
		t.Errorf("a run of an unpriced model prints a cost:\n%s", stderr)
	}
	if _, ok := doc["usage"].(map[string]any)["cost_usd"]; ok {
		t.Errorf("a run of an unpriced model has a cost: %v", doc["usage"])
	}
	for i, r := range doc["results"].([]any) {
		if _, ok := r.(map[string]any)["usage"].(map[string]any)["cost_usd"]; ok {
			t.Errorf("unpriced example %d has a cost_usd", i)
		}
	}
}

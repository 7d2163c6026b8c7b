package compiler

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ontology"
)

// TestUnsupportedTask: a task the registry lists but Benchy has no rule for fails
// compilation instead of skipping task validation. The embedded registry has no such task,
// so the test injects one.
func TestUnsupportedTask(t *testing.T) {
	reg, err := ontology.Load([]byte(`{"version":"1.0",
		"tasks":[{"id":"extract","description":"x"},{"id":"summarize","description":"condense a text"}],
		"domains":[{"id":"general","description":"x"}],
		"languages":[{"code":"en","name":"English","native":"English"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(v string) (*ontology.Registry, bool) { return reg, v == "1.0" }
	src := `version: "1.0"
ontology_version: "1.0"
benchmark: {task: summarize, domain: general, language: en}
program:
  input: {text: string}
  output: {summary: string}
scoring:
  weights: {summary: 1}
  aggregator: weighted_mean
data: {path: x.jsonl}
ai-system: {type: external, id: s}
`
	b, ds := compile([]byte(src), lookup)
	if b != nil || len(ds) != 1 || ds[0].Code != diag.UnsupportedTask || ds[0].Line != 3 {
		t.Fatalf("got %v %v, want one unsupported_task at line 3", b, ds)
	}
	if !strings.Contains(ds[0].Message, "summarize") {
		t.Errorf("message %q does not name the task", ds[0].Message)
	}
	// The same file with a supported task compiles against the same registry.
	if _, ds := compile([]byte(strings.Replace(src, "summarize", "extract", 1)), lookup); len(ds) > 0 {
		t.Errorf("extract: %v", ds)
	}
}

package engine

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// resumeBenchmark is a two-field extract benchmark with n examples; the fake system gets
// every third example's second field wrong, so scores vary.
func resumeBenchmark(t *testing.T, n int) (*ir.Benchmark, string) {
	b := compileYAML(t, `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {text: string}
  output: {a: string, b: int}
scoring:
  weights: {a: 1, b: 3}
  aggregator: weighted_mean
data: {path: data.jsonl}
ai-system: {type: external, id: x}
`)
	var rows []string
	for i := range n {
		rows = append(rows, fmt.Sprintf(`{"input": {"text": "t%d"}, "expected": {"a": "t%d", "b": %d}}`, i, i, i))
	}
	return b, testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": jsonl(rows...)})
}

type resumeRun struct {
	results map[int]ExampleResult
	jsonl   []byte
	report  *Report
	calls   int64
	reused  int
}

func runForResume(t *testing.T, b *ir.Benchmark, root string, prior func(int) (ExampleResult, bool)) resumeRun {
	t.Helper()
	var c counter
	var out bytes.Buffer
	rr := resumeRun{results: map[int]ExampleResult{}}
	rep, err := Run(context.Background(), b, c.factory(func(_ context.Context, index int, input map[string]any) (any, error) {
		text := input["text"].(string)
		n := index
		if index%3 == 0 {
			n++
		}
		return map[string]any{"a": text, "b": n}, nil
	}), Options{BenchmarkDir: root, Concurrency: 4, Results: &out, Prior: prior, OnResult: func(res ExampleResult, reused bool) {
		rr.results[res.Index] = res
		if reused {
			rr.reused++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	rr.jsonl, rr.report, rr.calls = out.Bytes(), rep, c.calls.Load()
	if strings.Count(string(rr.jsonl), "\n") != len(rr.results) {
		t.Fatalf("%d lines for %d results", strings.Count(string(rr.jsonl), "\n"), len(rr.results))
	}
	return rr
}

package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/ir"
)

// answerFunc is what a fake AI-system says for one example.
type answerFunc func(ctx context.Context, index int, input map[string]any) (any, error)

// fakeAdapter answers in process from a func and counts its calls, so a test can prove that
// the AI-system was (or was never) called.
type fakeAdapter struct {
	answer answerFunc
	calls  *atomic.Int64
}

func (a *fakeAdapter) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	a.calls.Add(1)
	return a.answer(ctx, index, input)
}

func (a *fakeAdapter) Close() error { return nil }

// counter counts adapters made and calls made through them.
type counter struct {
	made  atomic.Int64
	calls atomic.Int64
}

func (c *counter) factory(answer answerFunc) Factory {
	return func() (Adapter, error) {
		c.made.Add(1)
		return &fakeAdapter{answer: answer, calls: &c.calls}, nil
	}
}

// compileYAML compiles a benchmark written in Benchy YAML, as a user would.
func compileYAML(t testing.TB, src string) *ir.Benchmark {
	t.Helper()
	b, ds := compiler.Compile([]byte(src))
	if len(ds) > 0 {
		t.Fatalf("benchmark does not compile:\n%s", ds.Format("bench.yaml"))
	}
	return b
}

// jsonl joins rows into a JSONL text, one row a line.
func jsonl(rows ...string) string { return strings.Join(rows, "\n") + "\n" }

// jsonValue decodes a JSON text as the engine sees values: numbers as json.Number.
func jsonValue(t testing.TB, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("bad JSON in test %q: %v", s, err)
	}
	return v
}

// runResult is a finished run: its report, the raw JSONL results and each result decoded.
type runResult struct {
	report  *Report
	raw     []byte
	results []ExampleResult
	lines   []map[string]json.RawMessage
}

// run runs b from root with answer as the AI-system, collecting the results stream.
func run(t testing.TB, b *ir.Benchmark, root string, c *counter, answer answerFunc, opts Options) (*runResult, error) {
	t.Helper()
	var buf bytes.Buffer
	opts.BenchmarkDir = root
	opts.Results = &buf
	rep, err := Run(context.Background(), b, c.factory(answer), opts)
	if err != nil {
		return nil, err
	}
	rr := &runResult{report: rep, raw: buf.Bytes()}
	for line := range bytes.Lines(buf.Bytes()) {
		var res ExampleResult
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&res); err != nil {
			t.Fatalf("result line %q: %v", line, err)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(line, &raw); err != nil {
			t.Fatal(err)
		}
		rr.results = append(rr.results, res)
		rr.lines = append(rr.lines, raw)
	}
	return rr, nil
}

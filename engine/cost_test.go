package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestReportSumsCost: the report's usage.cost_usd sums the examples that have a cost and
// counts them; a run with no priced example has none (unknown, not $0).
func TestReportSumsCost(t *testing.T) {
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/exam.jsonl": jsonl(goodRow, goodRow, goodRow, goodRow), "data/files/a.txt": "x"})
	a, b, zero := 0.25, 0.125, 0.0
	for _, c := range []struct {
		name  string
		costs []*float64
		want  string
	}{
		{"no prices", []*float64{nil, nil, nil, nil}, `{"examples":4,"input_tokens":0,"output_tokens":0,"latency_ms":0}`},
		{"some priced", []*float64{&a, nil, &b, &zero}, `{"examples":4,"input_tokens":0,"output_tokens":0,"latency_ms":0,"cost_usd":0.375,"priced_examples":3}`},
	} {
		var k counter
		rr, err := run(t, compileYAML(t, datasetBench), root, &k, func(_ context.Context, i int, _ map[string]any) (any, error) {
			return &Answer{Output: map[string]any{"label": "yes", "n": json.Number("1")}, Usage: &Usage{CostUSD: c.costs[i]}}, nil
		}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(rr.report.Usage)
		if string(got) != c.want {
			t.Errorf("%s: usage %s, want %s", c.name, got, c.want)
		}
	}
}

package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

const rescoreBench = `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: extract
  domain: finance
  language: en
program:
  input:
    text: string
  output:
    name: string
    big: int
    x: float
    kind:
      enum: [a, b]
    at: datetime
scoring:
  weights:
    name: 1
    big: 2
    x: 1
    kind: 1
    at: 3
  aggregator: weighted_mean
data:
  path: ./data.jsonl
ai-system:
  type: external
  id: sys-1
`

// TestRescorerAgreesWithRun: every result a run writes, read back as a journal line is,
// scores again as it was (numbers past a double's precision, 1.50 against 1.5, datetimes
// in another spelling, answers invalid and failed); a valid result whose numbers agree
// with each other but not with its prediction, or whose prediction is no valid output, is
// refused.
func TestRescorerAgreesWithRun(t *testing.T) {
	row := `{"input": {"text": "t"}, "expected": {"name": "Ada", "big": 12345678901234567890, "x": 1.5, "kind": "a", "at": "2026-01-01T10:00:00Z"}}`
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": strings.Repeat(row+"\n", 6)})
	b := compileYAML(t, rescoreBench)
	answers := []string{
		`{"name": "Ada", "big": 12345678901234567890, "x": 1.50, "kind": "a", "at": "2026-01-01t10:00:00z"}`,
		`{"name": "Ada", "big": 12345678901234567891, "x": 1.5, "kind": "b", "at": "2026-01-01T11:00:00+01:00"}`,
		`{"name": "ada", "big": 0, "x": 2, "kind": "a", "at": "2026-01-01T10:00:01Z"}`,
		`{"name": "Ada"}`,
		`"no object"`,
		``,
	}
	var c counter
	rr, err := run(t, b, root, &c, func(_ context.Context, i int, _ map[string]any) (any, error) {
		if answers[i] == "" {
			return nil, ExecutionError("adapter_error", "it failed")
		}
		return jsonValue(t, answers[i]), nil
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rescore := func(results []ExampleResult) error {
		rs, err := NewRescorer(b, root, Paths{Workspace: root})
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		for i := range results {
			if err := rs.Check(&results[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rescore(rr.results); err != nil {
		t.Fatalf("a run's own results: %v\n%s", err, rr.raw)
	}
	forged := func(edit func(r *ExampleResult)) []ExampleResult {
		var again []ExampleResult
		for line := range strings.Lines(string(rr.raw)) {
			var res ExampleResult
			dec := json.NewDecoder(strings.NewReader(line))
			dec.UseNumber()
			if err := dec.Decode(&res); err != nil {
				t.Fatal(err)
			}
			again = append(again, res)
		}
		edit(&again[2])
		return again
	}
	allRight := func(r *ExampleResult) {
		one := 1.0
		for i := range r.FieldScores {
			r.FieldScores[i].Score = 1
		}
		r.Score, r.Contribution, r.Error = &one, 1, nil
	}
	for name, edit := range map[string]func(r *ExampleResult){
		"a wrong answer scored 1": allRight,
		"no valid output claimed valid": func(r *ExampleResult) {
			allRight(r)
			r.Prediction = map[string]any{"name": "Ada"}
		},
	} {
		err := rescore(forged(edit))
		var a *Abort
		if err == nil || errors.As(err, &a) {
			t.Errorf("%s: %v, want the result refused", name, err)
		}
	}
}

package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// answering is an adapter whose every answer is out, or an invalid output of pred.
type answering struct {
	out  any
	pred any
}

func (a answering) Invoke(context.Context, int, map[string]any) (any, error) {
	if a.pred != nil {
		return nil, InvalidOutput(a.pred, "the reply holds no JSON object")
	}
	return a.out, nil
}
func (answering) Close() error { return nil }

// TestInvalidOutputKeptBounded: an invalid output's prediction (a model's 3 MiB text with
// no JSON object, or an answer of the wrong shape holding 3 MiB) is kept as at most
// MaxKeptPrediction bytes of its JSON text, cut at a character and marked with its length,
// which CutPrediction recognises; a short one is kept as it is. A result served by the API
// or merged from a shard then costs a bounded amount, whatever the reply.
func TestInvalidOutputKeptBounded(t *testing.T) {
	r := &runner{b: compileYAML(t, keptYAML)}
	ex := &example{index: 0, input: map[string]any{}}
	long := strings.Repeat("é", 3<<19) // 3 MiB
	for _, c := range []struct {
		name string
		ad   Adapter
		cut  bool
	}{
		{"a declared invalid output of 3 MiB", answering{pred: long}, true},
		{"an answer of the wrong shape holding 3 MiB", answering{out: map[string]any{"debug": long}}, true},
		{"a short declared invalid output", answering{pred: "no json here"}, false},
	} {
		res := r.evaluate(context.Background(), c.ad, ex)
		enc, _ := json.Marshal(res.Prediction)
		switch {
		case res.Status != StatusInvalidOutput:
			t.Errorf("%s: %s, want invalid_output", c.name, res.Status)
		case len(enc) > MaxKeptPrediction+16:
			t.Errorf("%s: kept %d bytes of JSON, want at most %d", c.name, len(enc), MaxKeptPrediction)
		case CutPrediction(res.Prediction) != c.cut:
			t.Errorf("%s: cut %v, want %v (%.80s…)", c.name, CutPrediction(res.Prediction), c.cut, enc)
		}
	}
	if CutPrediction("a model's answer … (cut: 12 bytes)") || CutPrediction(map[string]any{}) {
		t.Error("CutPrediction takes what no cut wrote")
	}
}

// keptYAML is a benchmark whose output is one enum.
const keptYAML = `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: classify
  domain: general
  language: en
program:
  input:
    text: string
  output:
    label:
      enum: [a, b]
scoring:
  weights:
    label: 1
  aggregator: weighted_mean
data:
  path: ./data.jsonl
ai-system:
  type: external
  id: sys
`

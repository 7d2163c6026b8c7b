package report

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
)

// Field is one leaf of an example's output: what the dataset expected and the AI-system
// predicted, each as compact JSON ("" when the value has none), and its score when the
// example was scored.
type Field struct {
	Path      []string
	Expected  string
	Predicted string
	Scored    bool
	Score     float64
	Weight    float64
}

// Mark is ✓ for a field that scored 1, ✗ for one scored lower, · for one not scored (an
// example that was not valid).
func (f Field) Mark() string {
	switch {
	case !f.Scored:
		return "·"
	case f.Score == 1:
		return "✓"
	}
	return "✗"
}

// Align lines up expected and prediction (JSON objects) field by field over the leaves of
// output, in declaration order, with each leaf's score from scores (an example's
// field_scores, matched by path): the order a reader declared, not the keys' order in
// either value, which differ.
//
// It costs time linear in the leaves and scores: the scores are looked up by path, where a
// scan of them for each leaf took a 14,000-field example 196 million comparisons.
func Align(output ir.Field, expected, prediction json.RawMessage, scores []api.FieldScore) []Field {
	exp, pred := decode(expected), decode(prediction)
	byPath := make(map[string]api.FieldScore, len(scores))
	for _, s := range scores {
		byPath[strings.Join(s.Path, "\x00")] = s // the last of a path twice, as the scan took it
	}
	var out []Field
	for _, leaf := range output.Leaves() {
		f := Field{Path: leaf.Path, Expected: at(exp, leaf.Path), Predicted: at(pred, leaf.Path)}
		if s, ok := byPath[strings.Join(leaf.Path, "\x00")]; ok {
			f.Scored, f.Score, f.Weight = true, s.Score, s.Weight
		}
		out = append(out, f)
	}
	return out
}

// Inputs are the leaves of input's value in declaration order, each with its value
// as compact JSON.
func Inputs(input ir.Field, value json.RawMessage) []Field {
	v := decode(value)
	var out []Field
	for _, leaf := range input.Leaves() {
		out = append(out, Field{Path: leaf.Path, Expected: at(v, leaf.Path)})
	}
	return out
}

// SplitRow is a dataset row's input and expected output ({"input": ..., "expected": ...}).
func SplitRow(row json.RawMessage) (input, expected json.RawMessage) {
	var r struct {
		Input    json.RawMessage `json:"input"`
		Expected json.RawMessage `json:"expected"`
	}
	if json.Unmarshal(row, &r) != nil {
		return nil, nil
	}
	return r.Input, r.Expected
}

func decode(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber() // numbers as written: 12.50 stays 12.50
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// at is the value at path in v as compact JSON, "" when there is none.
func at(v any, path []string) string {
	for _, k := range path {
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if v, ok = obj[k]; !ok {
			return ""
		}
	}
	if v == nil && len(path) > 0 {
		return "null"
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false) // the HTML writer escapes what it shows; JUnit's XML escapes its own
	if e.Encode(v) != nil {
		return ""
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

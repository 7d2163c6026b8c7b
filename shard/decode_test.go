package shard

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// decodeLines are journal lines of every shape the engine writes, and a few it does not.
func decodeLines(t testing.TB) []string {
	f := func(x float64) *float64 { return &x }
	yes := true
	results := []engine.ExampleResult{
		{Index: 3, Status: engine.StatusValid, Prediction: map[string]any{"label": "a", "n": json.Number("12345678901234567890"), "x": json.Number("1.50")},
			FieldScores: []engine.FieldScore{{Path: []string{"label"}, Score: 1, Weight: 2}, {Path: []string{"o", "n"}, Score: 0, Weight: 0.5}}, Score: f(0.8), Contribution: 0.8},
		{Index: 4, Status: engine.StatusInvalidOutput, Prediction: "not json \u2028 <&>", Error: &engine.ResultError{Code: "wrong_type", Path: []string{}, Message: "é\x01"}},
		{Index: 5, Status: engine.StatusExecutionError, Error: &engine.ResultError{Code: "timeout", Message: "slow"},
			Usage: &engine.Usage{InputTokens: 10, OutputTokens: 2, LatencyMS: 12.5, Cached: &yes, CostUSD: f(0.001), Unreported: true, BudgetTokens: 9, BudgetCostUSD: f(0.5)}},
		{Index: 6, Status: engine.StatusValid, Prediction: []any{nil, true, map[string]any{}}, FieldScores: []engine.FieldScore{}, Score: f(0), Usage: &engine.Usage{LatencyMS: 1}},
	}
	var enc engine.LineEncoder
	var lines []string
	for _, r := range results {
		b, err := enc.Line(&r)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	return append(lines,
		`{"index":1,"status":"valid","prediction":null,"field_scores":null,"score":null,"contribution":0,"error":null,"usage":{"input_tokens":1,"future_field":3}}`,
		`{"Index":7,"STATUS":"valid","prediction":{},"field_scores":[{"path":null,"score":1,"weight":1}],"score":1,"contribution":1,"error":null}`,
		`{"index":8,"status":"valid","prediction":{},"field_scores":[null],"score":1,"contribution":1,"error":null,"extra":[1]}`,
	)
}

// TestDecodeLineAgrees holds DecodeLine's fast path to encoding/json (decodeSlow): the same
// result for every line the engine writes, and for lines of shapes it does not read.
func TestDecodeLineAgrees(t *testing.T) {
	for _, line := range decodeLines(t) {
		fast, err1 := DecodeLine([]byte(line))
		slow, err2 := decodeSlow([]byte(line))
		if err1 != nil || err2 != nil || !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\nDecodeLine %+v (%v)\nencoding/json %+v (%v)", line, fast, err1, slow, err2)
		}
	}
}

// TestDecodeLineStrict: a line the engine cannot have written (a duplicate key, which
// encoding/json reads as its last value while a reader may take its first; a lone
// surrogate; bytes that are not UTF-8) is refused.
func TestDecodeLineStrict(t *testing.T) {
	for _, line := range []string{
		`{"index":0,"status":"valid","score":0,"prediction":{"label":"a"},"field_scores":[],"score":1,"contribution":1,"error":null}`,
		`{"index":0,"status":"valid","prediction":{"label":"a","label":"b"},"field_scores":[],"score":1,"contribution":1,"error":null}`,
		`{"index":0,"status":"valid","prediction":{"label":"\ud800"},"field_scores":[],"score":1,"contribution":1,"error":null}`,
		"{\"index\":0,\"status\":\"valid\",\"prediction\":{\"label\":\"\xff\"},\"field_scores\":[],\"score\":1,\"contribution\":1,\"error\":null}",
	} {
		if res, err := DecodeLine([]byte(line)); err == nil {
			t.Errorf("%q decoded as %+v", line, res)
		}
	}
}

// FuzzDecodeLine: whatever DecodeLine decodes, encoding/json decodes the same.
func FuzzDecodeLine(f *testing.F) {
	for _, line := range decodeLines(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fast, err := DecodeLine([]byte(line))
		if err != nil {
			return
		}
		slow, err := decodeSlow([]byte(line))
		if err != nil {
			t.Fatalf("%q: DecodeLine %+v, encoding/json %v", line, fast, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q:\nDecodeLine %+v\nencoding/json %+v", line, fast, slow)
		}
	})
}

// BenchmarkDecodeLine decodes an invoice example's result line (5 dimensions) with
// DecodeLine and with json.Unmarshal into engine.ExampleResult, what the merge did before.
func BenchmarkDecodeLine(b *testing.B) {
	line := []byte(`{"index":2,"status":"valid","prediction":{"date":"2026-01-07","invoice_number":"F-003","subtotal":10,"supplier":"Gamma","total":12},"field_scores":[{"path":["invoice_number"],"score":1,"weight":1},{"path":["date"],"score":1,"weight":1},{"path":["supplier"],"score":1,"weight":1},{"path":["subtotal"],"score":1,"weight":1},{"path":["total"],"score":0,"weight":5}],"score":0.4444444444444444,"contribution":0.4444444444444444,"error":null}`)
	b.Run("DecodeLine", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeLine(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			var res engine.ExampleResult
			if err := json.Unmarshal(line, &res); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package engine

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
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

// forgeryRun is a run of rescoreBench whose results are each of a kind a journal holds: a
// right answer with a priced model call's usage, a wrong one, an invalid output the
// program's check finds (a missing field, no object, an undeclared field holding an
// array), an execution error, an invalid output an adapter declares of a prediction that
// fits the program (a reply cut off at the token limit), and a reply whose usage the
// provider did not report.
func forgeryRun(t *testing.T) (*ir.Benchmark, string, []ExampleResult) {
	t.Helper()
	row := `{"input": {"text": "t"}, "expected": {"name": "Ada", "big": 7, "x": 1.5, "kind": "a", "at": "2026-01-01T10:00:00Z"}}`
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": strings.Repeat(row+"\n", 8)})
	b := compileYAML(t, rescoreBench)
	right := `{"name": "Ada", "big": 7, "x": 1.5, "kind": "a", "at": "2026-01-01T10:00:00Z"}`
	cost := 0.0005
	answer := func(_ context.Context, i int, _ map[string]any) (any, error) {
		switch i {
		case 0:
			return &Answer{Output: jsonValue(t, right), Usage: &Usage{InputTokens: 100, OutputTokens: 20, LatencyMS: 12.5, CostUSD: &cost}}, nil
		case 1:
			return jsonValue(t, `{"name": "Bob", "big": 7, "x": 2, "kind": "b", "at": "2026-01-01T10:00:00Z"}`), nil
		case 2:
			return jsonValue(t, `{"name": "Ada"}`), nil
		case 3:
			return "no object", nil
		case 4:
			return nil, ExecutionError(diag.AdapterError, "it failed")
		case 5:
			return nil, InvalidOutput(jsonValue(t, right), "the reply was cut off at the token limit")
		case 6:
			return &Answer{Output: jsonValue(t, right), Usage: &Usage{Unreported: true, LatencyMS: 3}}, nil
		}
		return jsonValue(t, `{"name": "Ada", "big": 7, "x": 1.5, "kind": "a", "at": "2026-01-01T10:00:00Z", "zz": [1, 2, 3]}`), nil
	}
	var c counter
	rr, err := run(t, b, root, &c, answer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return b, root, rr.results
}

// checkAll is the first refusal of Check over results, a fresh Rescorer's.
func checkAll(t *testing.T, b *ir.Benchmark, root string, results []ExampleResult) error {
	t.Helper()
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

// TestRescorerRefusesForgedResults: each row is a result of the run edited into one the
// engine never writes, and Check refuses it: usage a call cannot have had, a status its
// prediction belies, an error of a code the registry does not know or of a length no
// adapter writes. The run's own results, all of them, pass.
func TestRescorerRefusesForgedResults(t *testing.T) {
	b, root, results := forgeryRun(t)
	if err := checkAll(t, b, root, results); err != nil {
		t.Fatalf("the run's own results: %v", err)
	}
	f := func(x float64) *float64 { return &x }
	relabel := func(r *ExampleResult, code diag.Code, path []string, message string) {
		r.Status, r.FieldScores, r.Score, r.Contribution = StatusInvalidOutput, nil, nil, 0
		r.Error = &ResultError{Code: code, Path: path, Message: message}
	}
	for _, c := range []struct {
		name  string
		index int
		edit  func(r *ExampleResult)
		want  string
	}{
		{"a negative cost", 0, func(r *ExampleResult) { r.Usage.CostUSD = f(-50) }, "cost"},
		{"a negative token count", 0, func(r *ExampleResult) { r.Usage.InputTokens = -1000000 }, "tokens"},
		{"token counts past any provider's", 0, func(r *ExampleResult) { r.Usage.OutputTokens = 2 * MaxBound }, "tokens"},
		{"a negative latency", 0, func(r *ExampleResult) { r.Usage.LatencyMS = -1 }, "latency"},
		{"a latency that is no number", 0, func(r *ExampleResult) { r.Usage.LatencyMS = math.NaN() }, "latency"},
		{"an infinite cost", 0, func(r *ExampleResult) { r.Usage.CostUSD = f(math.Inf(1)) }, "cost"},
		{"a cost of no tokens", 0, func(r *ExampleResult) { r.Usage.InputTokens, r.Usage.OutputTokens = 0, 0 }, "cost"},
		{"unreported usage with counts", 6, func(r *ExampleResult) { r.Usage.InputTokens = 10 }, "unreported"},
		{"unreported usage with a cost", 6, func(r *ExampleResult) { r.Usage.CostUSD = f(0) }, "unreported"},
		{"a negative budget charge", 0, func(r *ExampleResult) { r.Usage.BudgetTokens = -5 }, "budget"},
		{"a budget charge of no dollars", 0, func(r *ExampleResult) { r.Usage.BudgetCostUSD = f(0) }, "budget"},
		{"a right answer relabelled invalid_output", 0, func(r *ExampleResult) {
			relabel(r, diag.MissingField, []string{"big"}, "required field big is missing")
		}, "valid output"},
		{"a wrong answer relabelled invalid_output as no object", 1, func(r *ExampleResult) {
			relabel(r, diag.WrongType, []string{}, "the object must be an object with fields name, big, x, kind, at; found an object")
		}, "valid output"},
		{"an invalid output whose error is not its prediction's", 2, func(r *ExampleResult) {
			r.Error.Path, r.Error.Message = []string{"at"}, "required field at is missing"
		}, "its prediction's"},
		{"an invalid output with no error path", 3, func(r *ExampleResult) { r.Error.Path = nil }, "path"},
		{"an execution error with a prediction", 4, func(r *ExampleResult) { r.Prediction = map[string]any{"name": "Ada"} }, "prediction"},
		{"an execution error with a path", 4, func(r *ExampleResult) { r.Error.Path = []string{"name"} }, "path"},
		{"an unregistered error code", 4, func(r *ExampleResult) { r.Error.Code = "made_up_code" }, "made_up_code"},
		{"an unregistered code on an invalid output", 5, func(r *ExampleResult) { r.Error.Code = "made_up_code" }, "made_up_code"},
		{"a message no adapter writes", 4, func(r *ExampleResult) { r.Error.Message = strings.Repeat("x", 5<<20) }, "message"},
	} {
		t.Run(c.name, func(t *testing.T) {
			again := slices.Clone(results)
			r := again[c.index]
			if r.Usage != nil {
				u := *r.Usage
				r.Usage = &u
			}
			if r.Error != nil {
				e := *r.Error
				r.Error = &e
			}
			c.edit(&r)
			again[c.index] = r
			err := checkAll(t, b, root, again)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want it refused naming %q", err, c.want)
			}
		})
	}
}

// TestRescorerReadsRawPredictions: a prediction kept as written (json.RawMessage, as a
// merge keeps one too large to decode whole) is checked as its decoded value is: every
// result of the run passes so, and a valid result whose raw prediction holds an array,
// or a right answer relabelled invalid_output, is refused.
func TestRescorerReadsRawPredictions(t *testing.T) {
	b, root, results := forgeryRun(t)
	raw := make([]ExampleResult, len(results))
	for i, r := range results {
		if r.Prediction != nil {
			data, err := json.Marshal(r.Prediction)
			if err != nil {
				t.Fatal(err)
			}
			r.Prediction = json.RawMessage(data)
		}
		raw[i] = r
	}
	if err := checkAll(t, b, root, raw); err != nil {
		t.Fatalf("the run's own results, their predictions raw: %v", err)
	}
	valid := slices.Clone(raw)
	valid[0].Prediction = json.RawMessage(`{"name":"Ada","big":7,"x":1.5,"kind":"a","at":"2026-01-01T10:00:00Z","zz":[` + strings.Repeat("0,", 1000) + `0]}`)
	if err := checkAll(t, b, root, valid); err == nil || !strings.Contains(err.Error(), "no valid output") {
		t.Errorf("a valid result whose prediction holds an array: %v, want it refused", err)
	}
	relabelled := slices.Clone(raw)
	r := &relabelled[0]
	r.Status, r.FieldScores, r.Score, r.Contribution = StatusInvalidOutput, nil, nil, 0
	r.Error = &ResultError{Code: diag.ExtraField, Path: []string{"zz"}, Message: "field zz is not declared by the program (it declares name, big, x, kind, at)"}
	if err := checkAll(t, b, root, relabelled); err == nil || !strings.Contains(err.Error(), "valid output") {
		t.Errorf("a right answer relabelled invalid_output: %v, want it refused", err)
	}
}

// predictionSeeds are predictions of every shape view reads: the program's own, fields
// missing, undeclared, of the wrong kind, arrays at every place, nested and escaped keys.
var predictionSeeds = []string{
	`{"name": "Ada", "big": 7, "x": 1.5, "kind": "a", "at": "2026-01-01T10:00:00Z"}`,
	`{"name": "Ada", "big": 7, "x": 1.5, "kind": "c", "at": "2026-01-01T10:00:00Z", "zz": [1, {"a": [2]}], "ab": {"x": 1}}`,
	`{"name": ["Ada"], "big": {"n": 7}, "x": 1.5, "kind": "a", "at": "2026-01-01T10:00:00Z"}`,
	`{"name": "Ada", "big": 7.5, "x": "1.5", "kind": null, "at": "2026-01-01"}`,
	`{"name": "Ada"}`, `{}`, `[]`, `[1, 2, {"name": "Ada"}]`, `"no object"`, `12`, `null`, `true`,
	`{"\u006eame": "Ada", "big": 7, "x": 1e3, "kind": "b", "at": "2026-01-01T10:00:00+01:00", "\u00e9": 1}`,
	`{"name": "Ada", "name": "Bob"}`, `{"zz": 1, "zz": 2, "name": "A"}`, `{"name": "\ud800"}`, "{\"zz\": \"\xff\"}",
	`{"name": "Ada",}`, `[1,]`, `{"name" "Ada"}`, `{"name": "Ada"} x`,
}

// FuzzViewAgrees holds view to the whole decode: a prediction it reads gives evaluate the
// result the decoded value gives, and it refuses what DecodeJSON refuses but a duplicate
// key inside what it leaves out.
func FuzzViewAgrees(f *testing.F) {
	for _, s := range predictionSeeds {
		f.Add(s)
	}
	row := `{"input": {"text": "t"}, "expected": {"name": "Ada", "big": 7, "x": 1.5, "kind": "a", "at": "2026-01-01T10:00:00Z"}}`
	root := testkit.WriteFiles(f, f.TempDir(), map[string]string{"data.jsonl": row + "\n"})
	b := compileYAML(f, rescoreBench)
	rs, err := NewRescorer(b, root, Paths{Workspace: root})
	if err != nil {
		f.Fatal(err)
	}
	defer rs.Close()
	ex, err := rs.row(0)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		whole, werr := DecodeJSON([]byte(raw))
		v, verr := rs.view([]byte(raw))
		if werr != nil {
			var se *StrictError
			if verr == nil && !(errors.As(werr, &se) && se.Reason == "a duplicate key") {
				t.Fatalf("%q: view read what DecodeJSON refuses (%v)", raw, werr)
			}
			return
		}
		if verr != nil {
			t.Fatalf("%q: view refuses (%v) what DecodeJSON reads", raw, verr)
		}
		got := rs.r.evaluate(context.Background(), replay{v}, ex)
		want := rs.r.evaluate(context.Background(), replay{whole}, ex)
		got.Prediction, want.Prediction, got.Row, want.Row, got.Expected, want.Expected = nil, nil, nil, nil, nil, nil
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		if string(gotJSON) != string(wantJSON) {
			t.Fatalf("%q:\nview  %s\nwhole %s", raw, gotJSON, wantJSON)
		}
	})
}

// countValues is how many JSON values v holds, itself included.
func countValues(v any) int {
	n := 1
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			n += countValues(e)
		}
	case []any:
		for _, e := range x {
			n += countValues(e)
		}
	}
	return n
}

// FuzzSplitPrediction holds SplitPrediction to DecodeJSON: of a line DecodeJSON reads as
// an object, it finds the prediction DecodeJSON gives and counts the values of it and of
// the rest; it refuses what DecodeJSON refuses (a duplicate key apart), what is no object,
// and a member named prediction in another letter case.
func FuzzSplitPrediction(f *testing.F) {
	for _, p := range predictionSeeds {
		f.Add(`{"index":1,"status":"valid","prediction":` + p + `,"field_scores":[{"path":["a"],"score":1,"weight":1}],"score":1,"contribution":1,"error":null}`)
	}
	f.Add(`{"index":1,"prediction":1,"Prediction":2}`)
	f.Add(`{"index":1}`)
	f.Add(` {"prediction" : [1, 2] } `)
	f.Fuzz(func(t *testing.T, line string) {
		sp, err := SplitPrediction([]byte(line))
		whole, werr := DecodeJSON([]byte(line))
		m, isObject := whole.(map[string]any)
		var se *StrictError
		switch {
		case werr != nil && errors.As(werr, &se) && se.Reason == "a duplicate key":
			return // either
		case werr != nil || !isObject:
			if err == nil {
				t.Fatalf("%q: split what DecodeJSON does not read as an object (%v)", line, werr)
			}
			return
		}
		folded := false
		for k := range m {
			folded = folded || k != "prediction" && strings.EqualFold(k, "prediction")
		}
		if folded {
			if err == nil {
				t.Fatalf("%q: split a line with a prediction member in another letter case", line)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v, where DecodeJSON reads it", line, err)
		}
		p, has := m["prediction"]
		if !has {
			if sp.Start != 0 || sp.End != 0 || sp.Prediction != 0 || sp.Rest != countValues(whole) {
				t.Fatalf("%q: %+v, for a line of %d values without a prediction", line, sp, countValues(whole))
			}
			return
		}
		again, err := DecodeJSON([]byte(line[sp.Start:sp.End]))
		if err != nil || !reflect.DeepEqual(again, p) {
			t.Fatalf("%q: the prediction at %d:%d is %q (%v), want %v", line, sp.Start, sp.End, line[sp.Start:sp.End], err, p)
		}
		if sp.Prediction != countValues(p) || sp.Rest != countValues(whole)-countValues(p) {
			t.Fatalf("%q: %+v, want %d values in the prediction and %d beside it", line, sp, countValues(p), countValues(whole)-countValues(p))
		}
	})
}

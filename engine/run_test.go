package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// statusBench scores six fields, one of them nested with weight 0 (validated, never
// scored) and one an artifact the AI-system produces: weights 1+2+1+1+0+1 = 6.
const statusBench = `version: "1.0"
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
    count: int
    kind:
      enum: [a, b]
    when: date
    meta:
      ok: bool
    file: document
scoring:
  weights:
    name: 1
    count: 2
    kind: 1
    when: 1
    meta:
      ok: 0
    file: 1
  aggregator: weighted_mean
data:
  path: ./data/exam.jsonl
ai-system:
  type: external
  id: sys-1
`

// TestStatuses gives one example per status and error code of A.12 and A.16, all in one run:
// a failed example never stops the run, and each result has the shape of A.14.
func TestStatuses(t *testing.T) {
	root := t.TempDir()
	produced := t.TempDir() // where the AI-system writes its output artifacts
	testkit.WriteFiles(t, produced, map[string]string{"same.txt": "contract v1", "other.txt": "contract v2"})
	same, other := filepath.Join(produced, "same.txt"), filepath.Join(produced, "other.txt")

	// right answers the example correctly; change edits it.
	right := func() map[string]any {
		return map[string]any{"name": "Ada", "count": json.Number("3"), "kind": "a", "when": "2026-01-01",
			"meta": map[string]any{"ok": true}, "file": same}
	}
	change := func(edit func(m map[string]any)) answerFunc {
		return func(context.Context, int, map[string]any) (any, error) {
			m := right()
			edit(m)
			return m, nil
		}
	}
	fail := func(err error) answerFunc {
		return func(context.Context, int, map[string]any) (any, error) { return nil, err }
	}
	answer := func(v any) answerFunc {
		return func(context.Context, int, map[string]any) (any, error) { return v, nil }
	}
	score := func(s float64) *float64 { return &s }

	tests := []struct {
		rule   string
		answer answerFunc
		status Status
		score  *float64 // valid only
		code   diag.Code
		path   []string // for invalid_output; execution errors have a null path
	}{
		{rule: "a correct answer is valid with score 1",
			answer: change(func(map[string]any) {}), status: StatusValid, score: score(1)},
		{rule: "a wrong name costs its weight 1 of 6",
			answer: change(func(m map[string]any) { m["name"] = "ada" }), status: StatusValid, score: score(5.0 / 6)},
		{rule: "a wrong count costs its weight 2 of 6",
			answer: change(func(m map[string]any) { m["count"] = 4 }), status: StatusValid, score: score(4.0 / 6)},
		{rule: "a produced file with other bytes costs its weight 1 of 6",
			answer: change(func(m map[string]any) { m["file"] = other }), status: StatusValid, score: score(5.0 / 6)},
		{rule: "a wrong zero-weight field costs nothing",
			answer: change(func(m map[string]any) { m["meta"] = map[string]any{"ok": false} }), status: StatusValid, score: score(1)},
		{rule: "a schema-valid answer with every field wrong is valid with score 0",
			answer: answer(map[string]any{"name": "Bob", "count": 0, "kind": "b", "when": "2020-02-02",
				"meta": map[string]any{"ok": false}, "file": other}), status: StatusValid, score: score(0)},
		{rule: "a missing zero-weight field is still validated: missing_field",
			answer: change(func(m map[string]any) { m["meta"] = map[string]any{} }), status: StatusInvalidOutput, code: diag.MissingField, path: []string{"meta", "ok"}},
		{rule: "a missing field is missing_field",
			answer: change(func(m map[string]any) { delete(m, "when") }), status: StatusInvalidOutput, code: diag.MissingField, path: []string{"when"}},
		{rule: "an undeclared field is extra_field",
			answer: change(func(m map[string]any) { m["debug"] = "foo" }), status: StatusInvalidOutput, code: diag.ExtraField, path: []string{"debug"}},
		{rule: "a numeric string for an int is wrong_type",
			answer: change(func(m map[string]any) { m["count"] = "3" }), status: StatusInvalidOutput, code: diag.WrongType, path: []string{"count"}},
		{rule: "3.0 for an int is wrong_type",
			answer: change(func(m map[string]any) { m["count"] = json.Number("3.0") }), status: StatusInvalidOutput, code: diag.WrongType, path: []string{"count"}},
		{rule: "true for an int is wrong_type",
			answer: change(func(m map[string]any) { m["count"] = true }), status: StatusInvalidOutput, code: diag.WrongType, path: []string{"count"}},
		{rule: "a null field is wrong_type",
			answer: change(func(m map[string]any) { m["name"] = nil }), status: StatusInvalidOutput, code: diag.WrongType, path: []string{"name"}},
		{rule: "an undeclared enum member is invalid_enum",
			answer: change(func(m map[string]any) { m["kind"] = "c" }), status: StatusInvalidOutput, code: diag.InvalidEnum, path: []string{"kind"}},
		{rule: "an impossible date is invalid_value",
			answer: change(func(m map[string]any) { m["when"] = "2026-02-30" }), status: StatusInvalidOutput, code: diag.InvalidValue, path: []string{"when"}},
		{rule: "an output artifact that does not exist is artifact_not_found",
			answer: change(func(m map[string]any) { m["file"] = filepath.Join(produced, "never-written.txt") }), status: StatusInvalidOutput, code: diag.ArtifactNotFound, path: []string{"file"}},
		{rule: "an output artifact that is a directory is artifact_not_found",
			answer: change(func(m map[string]any) { m["file"] = produced }), status: StatusInvalidOutput, code: diag.ArtifactNotFound, path: []string{"file"}},
		{rule: "an answer that is not an object is wrong_type at the root",
			answer: answer("Ada, 3, a"), status: StatusInvalidOutput, code: diag.WrongType, path: []string{}},
		{rule: "a null answer is wrong_type at the root",
			answer: answer(nil), status: StatusInvalidOutput, code: diag.WrongType, path: []string{}},
		{rule: "an adapter's invalid_output Failure keeps the raw answer as prediction",
			answer: fail(InvalidOutput("Sure! {name: Ada", "the answer is not JSON")), status: StatusInvalidOutput, code: diag.InvalidValue, path: []string{}},
		{rule: "a plain adapter error is execution_error adapter_error",
			answer: fail(errors.New("python: ImportError")), status: StatusExecutionError, code: diag.AdapterError},
		{rule: "a deadline is execution_error timeout",
			answer: fail(fmt.Errorf("waiting for the system: %w", context.DeadlineExceeded)), status: StatusExecutionError, code: diag.Timeout},
		{rule: "a provider Failure is execution_error provider_error",
			answer: fail(ExecutionError(diag.ProviderError, "HTTP 502")), status: StatusExecutionError, code: diag.ProviderError},
		{rule: "a timeout Failure is execution_error timeout",
			answer: fail(ExecutionError(diag.Timeout, "no answer in 30s")), status: StatusExecutionError, code: diag.Timeout},
	}

	row := `{"input": {"text": "Ada ordered 3"}, "expected": {"name": "Ada", "count": 3, "kind": "a", "when": "2026-01-01", "meta": {"ok": true}, "file": "files/contract.txt"}}`
	rows := make([]string, len(tests))
	for i := range rows {
		rows[i] = row
	}
	testkit.WriteFiles(t, root, map[string]string{"data/exam.jsonl": jsonl(rows...), "data/files/contract.txt": "contract v1"})
	b := compileYAML(t, statusBench)

	var c counter
	rr, err := run(t, b, root, &c, func(ctx context.Context, i int, in map[string]any) (any, error) {
		return tests[i].answer(ctx, i, in)
	}, Options{Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.calls.Load(); got != int64(len(tests)) {
		t.Errorf("the AI-system was called %d times for %d examples", got, len(tests))
	}
	if len(rr.results) != len(tests) {
		t.Fatalf("%d results for %d examples", len(rr.results), len(tests))
	}

	var want Summary
	sum := 0.0
	for i, tt := range tests {
		res, raw := rr.results[i], rr.lines[i]
		t.Run(tt.rule, func(t *testing.T) {
			checkShape(t, raw)
			if res.Index != i || res.Status != tt.status {
				t.Fatalf("result %d: index %d, status %s; want %s (%+v)", i, res.Index, res.Status, tt.status, res.Error)
			}
			if tt.status == StatusValid {
				if res.Score == nil || *res.Score != *tt.score || res.Contribution != *tt.score {
					t.Errorf("score %v, contribution %v; want %v", res.Score, res.Contribution, *tt.score)
				}
				if res.Error != nil || len(res.FieldScores) != len(b.Scoring.Dimensions) || string(raw["error"]) != "null" {
					t.Errorf("a valid result has error %s and %d field scores", raw["error"], len(res.FieldScores))
				}
				return
			}
			// Failures: score null, contribution 0, field_scores null (A.13, A.14).
			if string(raw["score"]) != "null" || string(raw["field_scores"]) != "null" || string(raw["contribution"]) != "0" {
				t.Errorf("a failure has score %s, field_scores %s, contribution %s", raw["score"], raw["field_scores"], raw["contribution"])
			}
			if res.Error == nil || res.Error.Code != tt.code || res.Error.Message == "" {
				t.Fatalf("error %+v, want code %s with a message", res.Error, tt.code)
			}
			var errObj map[string]json.RawMessage
			json.Unmarshal(raw["error"], &errObj)
			if tt.status == StatusExecutionError {
				if string(errObj["path"]) != "null" || string(raw["prediction"]) != "null" {
					t.Errorf("execution_error has path %s and prediction %s; want null and null", errObj["path"], raw["prediction"])
				}
				return
			}
			if string(errObj["path"]) == "null" || !slices.Equal(res.Error.Path, tt.path) {
				t.Errorf("invalid_output path %s, want %q", errObj["path"], tt.path)
			}
			if string(raw["prediction"]) == "null" && tt.rule != "a null answer is wrong_type at the root" {
				t.Errorf("invalid_output lost the prediction")
			}
		})
		switch tt.status {
		case StatusValid:
			want.Valid++
			sum += *tt.score
		case StatusInvalidOutput:
			want.InvalidOutputs++
		case StatusExecutionError:
			want.ExecutionErrors++
		}
	}
	want.Examples = len(tests)
	if rr.report.Summary != want {
		t.Errorf("summary %+v, want %+v", rr.report.Summary, want)
	}
	if mean := sum / float64(len(tests)); math.Abs(rr.report.BenchmarkScore-mean) > 1e-12 {
		t.Errorf("benchmark score %v, want the mean of q_i %v", rr.report.BenchmarkScore, mean)
	}
	if p := rr.results[19].Prediction; p != "Sure! {name: Ada" {
		t.Errorf("a Failure's prediction is %#v", p)
	}
}

// checkShape: every example result has exactly the keys of A.14.
func checkShape(t *testing.T, raw map[string]json.RawMessage) {
	t.Helper()
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"contribution", "error", "field_scores", "index", "prediction", "score", "status"}
	if !slices.Equal(keys, want) {
		t.Errorf("result keys %q, want %q", keys, want)
	}
}

// TestDimensionAccuracy: per-dimension accuracy is the share of valid examples whose field
// matched; field scores are in the IR's dimension order with their weights; failed
// examples count in the benchmark score as 0 and not in the accuracies.
func TestDimensionAccuracy(t *testing.T) {
	root := t.TempDir()
	testkit.WriteFiles(t, root, map[string]string{
		"data/exam.jsonl": jsonl(
			`{"input":{"text":"0"},"expected":{"name":"A","count":1,"kind":"a","when":"2026-01-01","meta":{"ok":true},"file":"f.txt"}}`,
			`{"input":{"text":"1"},"expected":{"name":"B","count":2,"kind":"b","when":"2026-01-02","meta":{"ok":false},"file":"f.txt"}}`,
			`{"input":{"text":"2"},"expected":{"name":"C","count":3,"kind":"a","when":"2026-01-03","meta":{"ok":true},"file":"f.txt"}}`,
			`{"input":{"text":"3"},"expected":{"name":"D","count":4,"kind":"b","when":"2026-01-04","meta":{"ok":true},"file":"f.txt"}}`,
		),
		"data/f.txt": "x",
	})
	f := filepath.Join(root, "data", "f.txt")
	answers := []any{
		// 0: all right but name: 5/6
		map[string]any{"name": "a", "count": 1, "kind": "a", "when": "2026-01-01", "meta": map[string]any{"ok": true}, "file": f},
		// 1: name, kind and file right; count, when and meta.ok (weight 0) wrong: 3/6
		map[string]any{"name": "B", "count": 9, "kind": "b", "when": "2026-01-09", "meta": map[string]any{"ok": true}, "file": f},
		// 2: invalid output
		map[string]any{"name": "C"},
		// 3: everything right
		map[string]any{"name": "D", "count": 4, "kind": "b", "when": "2026-01-04", "meta": map[string]any{"ok": true}, "file": f},
	}
	var c counter
	rr, err := run(t, compileYAML(t, statusBench), root, &c, func(_ context.Context, i int, _ map[string]any) (any, error) {
		return answers[i], nil
	}, Options{Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	type acc struct {
		path    string
		weight  float64
		correct int
	}
	want := []acc{{"name", 1, 2}, {"count", 2, 2}, {"kind", 1, 3}, {"when", 1, 2}, {"meta.ok", 0, 2}, {"file", 1, 3}}
	if len(rr.report.Dimensions) != len(want) {
		t.Fatalf("%d dimensions, want %d", len(rr.report.Dimensions), len(want))
	}
	for i, w := range want {
		d := rr.report.Dimensions[i]
		if strings.Join(d.Path, ".") != w.path || d.Weight != w.weight || d.Correct != w.correct || d.Valid != 3 ||
			d.Accuracy == nil || *d.Accuracy != float64(w.correct)/3 {
			t.Errorf("dimension %d = %+v (accuracy %v), want %s weight %v correct %d of 3", i, d, d.Accuracy, w.path, w.weight, w.correct)
		}
	}
	for _, i := range []int{0, 1, 3} {
		for j, fs := range rr.results[i].FieldScores {
			if strings.Join(fs.Path, ".") != want[j].path || fs.Weight != want[j].weight {
				t.Errorf("result %d field score %d = %+v, want path %s weight %v", i, j, fs, want[j].path, want[j].weight)
			}
		}
	}
	q := []float64{5.0 / 6, 3.0 / 6, 0, 1}
	if got, mean := rr.report.BenchmarkScore, (q[0]+q[1]+q[2]+q[3])/4; math.Abs(got-mean) > 1e-12 {
		t.Errorf("benchmark score %v, want %v", got, mean)
	}
	for i, s := range q {
		if rr.results[i].Contribution != s {
			t.Errorf("example %d contributes %v, want %v", i, rr.results[i].Contribution, s)
		}
	}
}

// TestNoValidExamples: when every example fails, the accuracies are null (not 0 of 0) and the
// score is 0.
func TestNoValidExamples(t *testing.T) {
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data/exam.jsonl": jsonl(
		`{"input":{"text":"0"},"expected":{"name":"A","count":1,"kind":"a","when":"2026-01-01","meta":{"ok":true},"file":"f.txt"}}`),
		"data/f.txt": "x"})
	var c counter
	rr, err := run(t, compileYAML(t, statusBench), root, &c, func(context.Context, int, map[string]any) (any, error) {
		return nil, errors.New("down")
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rr.report.BenchmarkScore != 0 || rr.report.Summary.ExecutionErrors != 1 {
		t.Errorf("report %+v", rr.report)
	}
	for _, d := range rr.report.Dimensions {
		if d.Accuracy != nil || d.Valid != 0 {
			t.Errorf("dimension %v has accuracy %v of %d valid", d.Path, *d.Accuracy, d.Valid)
		}
	}
}

// TestArtifactInputsAbsolute: an artifact input reaches the adapter as an absolute path to a
// regular file inside the benchmark's directory, resolved from the JSONL file's directory.
func TestArtifactInputsAbsolute(t *testing.T) {
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/exam.jsonl": jsonl(
			`{"input":{"text":"a","doc":"files/a.txt"},"expected":{"label":"yes","n":1}}`,
			`{"input":{"text":"b","doc":"../shared/b.txt"},"expected":{"label":"no","n":2}}`,
			`{"input":{"text":"c","doc":"./files/../files/a.txt"},"expected":{"label":"no","n":2}}`,
		),
		"data/files/a.txt": "first",
		"shared/b.txt":     "second",
	})
	want := []string{"first", "second", "first"}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	var c counter
	got := make([]string, 3)
	_, err = run(t, compileYAML(t, datasetBench), root, &c, func(_ context.Context, i int, in map[string]any) (any, error) {
		p := in["doc"].(string)
		if !filepath.IsAbs(p) || p != filepath.Clean(p) {
			return nil, fmt.Errorf("%q is not a clean absolute path", p)
		}
		if rel, err := filepath.Rel(realRoot, p); err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("%q is outside %s", p, realRoot)
		}
		data, err := os.ReadFile(p)
		got[i] = string(data)
		return map[string]any{"label": "yes", "n": 1}, err
	}, Options{Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("the adapter read %q, want %q", got, want)
	}
}

// TestLimit: --limit N runs only the first N examples, but every row is validated first: a
// bad row anywhere aborts before any call (issue 3).
func TestLimit(t *testing.T) {
	good := `{"input":{"text":"x","doc":"files/a.txt"},"expected":{"label":"yes","n":1}}`
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/exam.jsonl":  jsonl(good, good, "", good, `{"input":{}}`, good),
		"data/good.jsonl":  jsonl(good, good, "", good, good),
		"data/files/a.txt": "a",
	})
	b := compileYAML(t, datasetBench)
	ok := func(context.Context, int, map[string]any) (any, error) {
		return map[string]any{"label": "yes", "n": 1}, nil
	}
	for _, tt := range []struct {
		limit    int
		examples int  // run with this many examples
		abort    bool // or abort
	}{{1, 0, true}, {3, 0, true}, {4, 0, true}, {0, 0, true}} {
		var c counter
		rr, err := run(t, b, root, &c, ok, Options{Limit: tt.limit, Concurrency: 4})
		switch {
		case tt.abort:
			var a *Abort
			if !errors.As(err, &a) || a.Diagnostic.Line != 5 || c.calls.Load() != 0 {
				t.Errorf("limit %d: err %v after %d calls, want an abort at line 5 and no call", tt.limit, err, c.calls.Load())
			}
		case err != nil:
			t.Errorf("limit %d: %v", tt.limit, err)
		default:
			if rr.report.Summary.Examples != tt.examples || c.calls.Load() != int64(tt.examples) || len(rr.results) != tt.examples {
				t.Errorf("limit %d: %d examples, %d calls, %d results; want %d", tt.limit, rr.report.Summary.Examples, c.calls.Load(), len(rr.results), tt.examples)
			}
			if rr.report.Limit != tt.limit {
				t.Errorf("limit %d recorded as %d", tt.limit, rr.report.Limit)
			}
		}
	}
	good4 := *b
	good4.Data.Path = "data/good.jsonl"
	for _, limit := range []int{1, 3, 9} {
		var c counter
		rr, err := run(t, &good4, root, &c, ok, Options{Limit: limit, Concurrency: 4})
		if want := min(limit, 4); err != nil || rr.report.Summary.Examples != want || c.calls.Load() != int64(want) {
			t.Errorf("limit %d on 4 good rows: %v, %d examples, %d calls", limit, err, rr.report.Summary.Examples, c.calls.Load())
		}
	}
}

// TestFactoryError: an adapter that cannot start is a setup abort before any example.
func TestFactoryError(t *testing.T) {
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/exam.jsonl":  jsonl(`{"input":{"text":"x","doc":"files/a.txt"},"expected":{"label":"yes","n":1}}`),
		"data/files/a.txt": "a",
	})
	_, err := Run(context.Background(), compileYAML(t, datasetBench), func() (Adapter, error) {
		return nil, errors.New("python3: not found")
	}, Options{BenchmarkDir: root})
	var a *Abort
	if !errors.As(err, &a) || a.Diagnostic.Phase != PhaseSetup || !diag.Registered(a.Diagnostic.Code) {
		t.Errorf("err = %v, want a setup abort with a registered code", err)
	}
}

// TestCancel: cancelling the run's context stops it with an error, not a partial report.
func TestCancel(t *testing.T) {
	var rows []string
	for range 200 {
		rows = append(rows, `{"input":{"text":"x","doc":"files/a.txt"},"expected":{"label":"yes","n":1}}`)
	}
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data/exam.jsonl": jsonl(rows...), "data/files/a.txt": "a"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var c counter
	rep, err := Run(ctx, compileYAML(t, datasetBench), c.factory(func(ctx context.Context, i int, _ map[string]any) (any, error) {
		if i == 10 {
			cancel()
		}
		return map[string]any{"label": "yes", "n": 1}, nil
	}), Options{BenchmarkDir: root, Concurrency: 4})
	if err == nil || rep != nil {
		t.Fatalf("a cancelled run returned report %v, err %v", rep, err)
	}
	if n := c.calls.Load(); n >= 200 {
		t.Errorf("a cancelled run still made %d calls", n)
	}
}

// TestUnencodablePrediction: an in-process adapter may answer a Go value JSON cannot hold
// (NaN, +Inf). It is invalid_output like any other bad value, and the run, its results
// stream included, goes on.
func TestUnencodablePrediction(t *testing.T) {
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/exam.jsonl":  jsonl(goodRow, goodRow, goodRow),
		"data/files/a.txt": "a",
	})
	var c counter
	rr, err := run(t, compileYAML(t, datasetBench), root, &c, func(_ context.Context, i int, _ map[string]any) (any, error) {
		switch i {
		case 0:
			return map[string]any{"label": "yes", "n": math.NaN()}, nil
		case 1:
			return map[string]any{"label": "yes", "n": math.Inf(-1), "extra": make(chan int)}, nil
		}
		return map[string]any{"label": "yes", "n": 1}, nil
	}, Options{Concurrency: 1})
	if err != nil {
		t.Fatalf("one bad answer stopped the run: %v", err)
	}
	want := []Status{StatusInvalidOutput, StatusInvalidOutput, StatusValid}
	for i, res := range rr.results {
		if res.Status != want[i] || (i < 2 && (res.Prediction == nil || res.Error.Code != diag.WrongType && res.Error.Code != diag.InvalidValue && res.Error.Code != diag.ExtraField)) {
			t.Errorf("result %d: %+v, want %s with the prediction kept as text", i, res, want[i])
		}
	}
}

// TestAdapterPanicIsAnExecutionError: an adapter that panics fails its example, not the run.
func TestAdapterPanicIsAnExecutionError(t *testing.T) {
	ad := panicAdapter{}
	res, err := invoke(context.Background(), ad, &example{index: 3})
	if res != nil || err == nil {
		t.Fatalf("invoke = %v, %v", res, err)
	}
	f := failureOf(err)
	if f.Status != StatusExecutionError || f.Code != diag.AdapterError || !strings.Contains(f.Message, "boom") {
		t.Errorf("failure %+v", f)
	}
}

type panicAdapter struct{}

func (panicAdapter) Invoke(context.Context, int, map[string]any) (any, error) { panic("boom") }
func (panicAdapter) Close() error                                             { return nil }

// TestResumeReusesPriorResults: a resumed run evaluates only the examples it lacks, and its
// results equal an uninterrupted run's.
func TestResumeReusesPriorResults(t *testing.T) {
	b, root := resumeBenchmark(t, 50)
	full := runForResume(t, b, root, nil)
	prior := map[int]ExampleResult{}
	for i, res := range full.results {
		if i%3 != 0 { // pretend a crash lost every third example
			prior[i] = res
		}
	}
	again := runForResume(t, b, root, func(i int) (ExampleResult, bool) { r, ok := prior[i]; return r, ok })
	if again.calls != 17 {
		t.Errorf("the resumed run called the AI-system %d times, want 17", again.calls)
	}
	if again.reused != 33 {
		t.Errorf("%d results reused, want 33", again.reused)
	}
	if !bytes.Equal(full.jsonl, again.jsonl) || full.report.BenchmarkScore != again.report.BenchmarkScore {
		t.Errorf("resumed results differ from the uninterrupted run's")
	}
}

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
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/testkit"
)

const labelBench = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input:
    text: string
  output:
    label: string
    n: int
    at: datetime
scoring:
  weights: {label: 1, n: 1, at: 1}
  aggregator: weighted_mean
data:
  path: ./data.jsonl
ai-system: {type: external, id: sys}
`

const strictGoodRow = `{"input":{"text":"a"},"expected":{"label":"x","n":1,"at":"2026-01-01T10:00:00Z"}}`

// TestHardeningStrictDatasetRows: a dataset row that is JSON but not strict JSON (RFC 8259
// §8.1 UTF-8, §8.2 lone surrogates, §4 duplicate names) aborts the run before any AI-system
// call, with invalid_dataset_record and the line, and the message quotes none of the row.
// encoding/json, which the reader used to agree with, repairs or collapses each of them.
func TestHardeningStrictDatasetRows(t *testing.T) {
	rows := []struct{ name, row string }{
		{"invalid UTF-8 in an input value", "{\"input\":{\"text\":\"SECRET\xff\"},\"expected\":{\"label\":\"x\",\"n\":1,\"at\":\"2026-01-01T10:00:00Z\"}}"},
		{"invalid UTF-8 in an expected value", "{\"input\":{\"text\":\"a\"},\"expected\":{\"label\":\"SECRET\xc3\",\"n\":1,\"at\":\"2026-01-01T10:00:00Z\"}}"},
		{"an encoded surrogate (CESU-8)", "{\"input\":{\"text\":\"SECRET\xed\xa0\x80\"},\"expected\":{\"label\":\"x\",\"n\":1,\"at\":\"2026-01-01T10:00:00Z\"}}"},
		{"a lone surrogate escape", `{"input":{"text":"SECRET\ud800"},"expected":{"label":"x","n":1,"at":"2026-01-01T10:00:00Z"}}`},
		{"a duplicate key in input", `{"input":{"text":"SECRET","text":"b"},"expected":{"label":"x","n":1,"at":"2026-01-01T10:00:00Z"}}`},
		{"a duplicate key in expected", `{"input":{"text":"a"},"expected":{"label":"SECRET","label":"y","n":1,"at":"2026-01-01T10:00:00Z"}}`},
		{"a duplicate row key", `{"input":{"text":"a"},"expected":{"label":"x","n":1,"at":"2026-01-01T10:00:00Z"},"expected":{"label":"SECRET","n":1,"at":"2026-01-01T10:00:00Z"}}`},
	}
	b := compileYAML(t, labelBench)
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": jsonl(strictGoodRow, strictGoodRow, tt.row, strictGoodRow)})
			var c counter
			_, err := run(t, b, root, &c, func(context.Context, int, map[string]any) (any, error) {
				return map[string]any{"label": "x", "n": json.Number("1"), "at": "2026-01-01T10:00:00Z"}, nil
			}, Options{})
			var a *Abort
			if !errors.As(err, &a) {
				t.Fatalf("err = %v, want an abort", err)
			}
			if a.Diagnostic.Code != diag.InvalidDatasetRecord || a.Diagnostic.Line != 3 {
				t.Errorf("abort %s at line %d, want invalid_dataset_record at line 3", a.Diagnostic.Code, a.Diagnostic.Line)
			}
			if strings.Contains(a.Error(), "SECRET") {
				t.Errorf("the message quotes the row: %s", a.Error())
			}
			if n := c.calls.Load(); n != 0 {
				t.Errorf("%d AI-system calls before the abort, want 0", n)
			}
		})
	}
}

// TestHardeningBigInts: an int has no range (A.6, A.7): 2^64 is an int, equal to itself and
// not to 2^64+1, compared exactly.
func TestHardeningBigInts(t *testing.T) {
	row := `{"input":{"text":"a"},"expected":{"label":"x","n":18446744073709551616,"at":"2026-01-01T10:00:00Z"}}`
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": jsonl(row, row)})
	var c counter
	rr, err := run(t, compileYAML(t, labelBench), root, &c, func(_ context.Context, i int, _ map[string]any) (any, error) {
		n := []string{"18446744073709551616", "18446744073709551617"}[i]
		return map[string]any{"label": "x", "n": json.Number(n), "at": "2026-01-01T10:00:00Z"}, nil
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rr.report.Summary.Valid != 2 {
		t.Fatalf("summary %+v, want 2 valid", rr.report.Summary)
	}
	for _, res := range rr.results {
		want := []float64{1, 0}[res.Index]
		if got := res.FieldScores[1].Score; got != want {
			t.Errorf("example %d: n scored %v, want %v", res.Index, got, want)
		}
	}
}

// TestHardeningLowercaseDatetime: RFC 3339 §5.6 lets "T" and "Z" be lower case; such a
// datetime is valid in the dataset and in an output, and equals its upper-case spelling.
func TestHardeningLowercaseDatetime(t *testing.T) {
	row := `{"input":{"text":"a"},"expected":{"label":"x","n":1,"at":"2026-01-01t10:00:00z"}}`
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": jsonl(row)})
	var c counter
	rr, err := run(t, compileYAML(t, labelBench), root, &c, func(context.Context, int, map[string]any) (any, error) {
		return map[string]any{"label": "x", "n": json.Number("1"), "at": "2026-01-01T11:00:00+01:00"}, nil
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rr.report.BenchmarkScore != 1 {
		t.Errorf("score %v, want 1: %+v", rr.report.BenchmarkScore, rr.results)
	}
}

// TestHardeningWeightSumOverflow: finite weights whose sum overflows a double (A.3 allows
// them) still give the weighted mean: two weights of 1e308 and one field right is 0.5.
func TestHardeningWeightSumOverflow(t *testing.T) {
	b := compileYAML(t, labelBench)
	b.Scoring.Dimensions[0].Weight = 1e308
	b.Scoring.Dimensions[1].Weight = math.MaxFloat64
	b.Scoring.Dimensions[2].Weight = 0
	row := `{"input":{"text":"a"},"expected":{"label":"x","n":1,"at":"2026-01-01T10:00:00Z"}}`
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": jsonl(row)})
	var c counter
	rr, err := run(t, b, root, &c, func(context.Context, int, map[string]any) (any, error) {
		return map[string]any{"label": "x", "n": json.Number("2"), "at": "2026-01-01T10:00:00Z"}, nil
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := 1e308 / (1e308 + math.MaxFloat64) // as computed without overflow
	if got := rr.report.BenchmarkScore; math.IsNaN(got) || math.Abs(got-want) > 1e-12 {
		t.Errorf("score %v, want %v", got, want)
	}
}

// TestHardeningInvalidUTF8InProcessOutput: an in-process adapter's Go string that is not
// UTF-8 is invalid_output, never scored.
func TestHardeningInvalidUTF8InProcessOutput(t *testing.T) {
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": jsonl(strictGoodRow)})
	var c counter
	rr, err := run(t, compileYAML(t, labelBench), root, &c, func(context.Context, int, map[string]any) (any, error) {
		return map[string]any{"label": "x\xff", "n": json.Number("1"), "at": "2026-01-01T10:00:00Z"}, nil
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := rr.results[0]; r.Status != StatusInvalidOutput || r.Error.Code != diag.InvalidValue {
		t.Errorf("result %+v, want invalid_output/invalid_value", r)
	}
}

// TestHardeningResultsReachTheStream: each result is in the stream as soon as it is
// scored and no other is waiting, not when a 256 KB buffer fills or the run ends: a run
// killed while the AI-system works on example 3 keeps examples 1 and 2.
func TestHardeningResultsReachTheStream(t *testing.T) {
	rows := jsonl(strictGoodRow, strictGoodRow, strictGoodRow)
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": rows})
	stream, err := os.Create(filepath.Join(t.TempDir(), "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	release := make(chan struct{})
	var c counter
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), compileYAML(t, labelBench), c.factory(func(_ context.Context, i int, _ map[string]any) (any, error) {
			if i == 2 {
				<-release
			}
			return map[string]any{"label": "x", "n": json.Number("1"), "at": "2026-01-01T10:00:00Z"}, nil
		}), Options{BenchmarkDir: root, Results: stream, Concurrency: 1})
		done <- err
	}()
	lines := 0
	for deadline := time.Now().Add(10 * time.Second); lines < 2 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		data, _ := os.ReadFile(stream.Name())
		lines = bytes.Count(data, []byte("\n"))
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if lines < 2 {
		t.Errorf("while example 3 was being answered the stream held %d results, want 2", lines)
	}
}

// TestHardeningLargeEnum: checking a value against an enum costs the same with 50,000
// members as with 3 (a set, made once per list), and finds exactly the members.
func TestHardeningLargeEnum(t *testing.T) {
	for _, n := range []int{3, 32, 33, 50_000} {
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprintf("m%d", i)
		}
		for _, v := range []string{"m0", values[n-1], values[n/2]} {
			if !isMember(values, v) {
				t.Errorf("%d members: %s is not found", n, v)
			}
		}
		for _, v := range []string{"", "m", fmt.Sprintf("m%d", n), "M0"} {
			if isMember(values, v) {
				t.Errorf("%d members: %q is found", n, v)
			}
		}
	}
	values := make([]string, 50_000)
	for i := range values {
		values[i] = fmt.Sprintf("m%d", i)
	}
	per := testing.Benchmark(func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			isMember(values, "absent")
		}
	}).NsPerOp()
	if per > 20_000 { // a scan of 50,000 members takes about 100 µs; a set lookup 0.1 µs
		t.Errorf("a lookup among 50,000 members takes %d ns: a scan, not a set", per)
	}
}

// TestHardeningDatasetKeysNotQuoted: a row's keys that the program does not declare are
// the file's content: the abort names where they are, never what they say.
func TestHardeningDatasetKeysNotQuoted(t *testing.T) {
	b := compileYAML(t, labelBench)
	for _, row := range []string{
		`{"input":{"text":"a"},"expected":{"label":"x","n":1,"at":"2026-01-01T10:00:00Z"},"sk-live-SECRET":1}`,
		`{"input":{"text":"a","sk-live-SECRET":1},"expected":{"label":"x","n":1,"at":"2026-01-01T10:00:00Z"}}`,
		`{"input":{"text":"a"},"expected":{"label":"x","n":1,"at":"2026-01-01T10:00:00Z","sk-live-SECRET":1}}`,
	} {
		root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data.jsonl": jsonl(row)})
		var c counter
		_, err := run(t, b, root, &c, nil, Options{})
		var a *Abort
		if !errors.As(err, &a) {
			t.Fatalf("%s: err = %v, want an abort", row, err)
		}
		if strings.Contains(a.Error(), "SECRET") || strings.Contains(strings.Join(a.Diagnostic.Path, "."), "SECRET") {
			t.Errorf("the abort quotes the key: %s %v", a.Error(), a.Diagnostic.Path)
		}
	}
}

// TestHardeningDatetimeExact: datetimes compare by the instant they denote at any
// precision (time.Parse keeps nanoseconds only), and the leap second 23:59:60 of RFC 3339
// §5.7 is a datetime.
func TestHardeningDatetimeExact(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"2024-01-01T10:00:00.1234567891Z", "2024-01-01T10:00:00.1234567892Z", false},
		{"2024-01-01T10:00:00.1234567891Z", "2024-01-01T11:00:00.12345678910+01:00", true},
		{"2024-01-01T10:00:00.5Z", "2024-01-01T10:00:00.500000000000Z", true},
		{"2024-01-01T10:00:00Z", "2024-01-01T10:00:00.000Z", true},
		{"2016-12-31T23:59:60Z", "2017-01-01T00:59:60+01:00", true},
		{"2016-12-31T23:59:60Z", "2016-12-31T23:59:59Z", false},
		{"2016-12-31T23:59:60.5Z", "2016-12-31T23:59:60.50Z", true},
	}
	for _, tt := range tests {
		for _, v := range []string{tt.a, tt.b} {
			if _, err := parseTemporal("datetime", v); err != nil {
				t.Fatalf("%s refused: %v", v, err)
			}
		}
		if got := equal("datetime", tt.a, tt.b); got != tt.want {
			t.Errorf("%s = %s: %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	for _, bad := range []string{"2016-12-31T12:00:60Z", "2016-12-31T23:59:61Z", "2016-12-31T23:60:00Z", "2016-12-31T24:00:00Z"} {
		if _, err := parseTemporal("datetime", bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

package engine

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// rowBench is a benchmark whose input is one text field, for rows of any length.
const rowBench = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: customer_support, language: en}
program:
  input: {text: string}
  output:
    label: {enum: [yes, no]}
scoring:
  weights: {label: 1}
  aggregator: weighted_mean
data: {path: data/exam.jsonl}
ai-system: {type: external, id: sys-1}
`

// rowOf is a row of rowBench whose text is n bytes.
func rowOf(n int) string {
	return `{"input": {"text": "` + strings.Repeat("x", n) + `"}, "expected": {"label": "yes"}}`
}

// writeRows writes the JSONL file of rowBench under root: the rows, one a line, a long
// one without being held in memory twice.
func writeRows(t testing.TB, root string, rows ...func(w *bufio.Writer)) {
	t.Helper()
	testkit.WriteFiles(t, root, map[string]string{"data/exam.jsonl": ""})
	f, err := os.Create(filepath.Join(root, "data/exam.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, row := range rows {
		row(w)
		w.WriteByte('\n')
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
}

// longRow writes a valid row of rowBench whose text is n bytes, in pieces.
func longRow(n int) func(w *bufio.Writer) {
	return func(w *bufio.Writer) {
		w.WriteString(`{"input": {"text": "`)
		chunk := strings.Repeat("x", 1<<20)
		for ; n >= len(chunk); n -= len(chunk) {
			w.WriteString(chunk)
		}
		w.WriteString(chunk[:n])
		w.WriteString(`"}, "expected": {"label": "yes"}}`)
	}
}

func shortRow(w *bufio.Writer) { w.WriteString(rowOf(1)) }

// TestDatasetRefusesLongRowUnread: a 64 MiB row (valid JSON) after a good one stops the run
// before any adapter starts, as invalid_dataset_record at its line, and the dataset pass
// reads no more of it than the bound on a row: the bytes allocated stay under 48 MiB
// (reading the line whole, then decoding it, took some 200 MiB).
func TestDatasetRefusesLongRowUnread(t *testing.T) {
	b := compileYAML(t, rowBench)
	root := t.TempDir()
	writeRows(t, root, shortRow, longRow(64<<20), shortRow)
	var c counter
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Run(context.Background(), b, c.factory(func(context.Context, int, map[string]any) (any, error) {
		return map[string]any{"label": "yes"}, nil
	}), Options{BenchmarkDir: root, Concurrency: 1})
	runtime.ReadMemStats(&after)
	var a *Abort
	if !errors.As(err, &a) {
		t.Fatalf("a 64 MiB row: err %v after %d calls, want an *Abort at line 2", err, c.calls.Load())
	}
	d := a.Diagnostic
	if d.Code != diag.InvalidDatasetRecord || d.Line != 2 || !strings.Contains(d.Message, "16 MiB") {
		t.Errorf("abort %s at line %d: %s; want invalid_dataset_record at line 2 naming the 16 MiB bound", d.Code, d.Line, d.Message)
	}
	if c.made.Load() != 0 || c.calls.Load() != 0 {
		t.Errorf("refused, yet %d adapters were started and %d calls made", c.made.Load(), c.calls.Load())
	}
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("refusing a 64 MiB row allocated %.1f MiB", mb(got))
	if got > 48<<20 {
		t.Errorf("refusing a 64 MiB row allocated %.0f MiB, want at most 48 (the row is read no further than the bound)", mb(got))
	}
}

// TestDatasetRowBoundExact: a row of exactly MaxRowBytes is read, with a byte order mark
// before it and a CRLF after it; one byte more is refused at its line.
func TestDatasetRowBoundExact(t *testing.T) {
	b := compileYAML(t, rowBench)
	text := MaxRowBytes - len(rowOf(0)) // the row's text, for a row of MaxRowBytes
	for _, tc := range []struct {
		name string
		rows []func(*bufio.Writer)
		fail int // the line refused; 0: the run goes
	}{
		{"a row of the bound, with a byte order mark and CRLF", []func(*bufio.Writer){func(w *bufio.Writer) { w.WriteString("\ufeff"); longRow(text)(w); w.WriteByte('\r') }, shortRow}, 0},
		{"a row one byte past the bound", []func(*bufio.Writer){shortRow, longRow(text + 1)}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeRows(t, root, tc.rows...)
			var c counter
			_, err := Run(context.Background(), b, c.factory(func(context.Context, int, map[string]any) (any, error) {
				return map[string]any{"label": "yes"}, nil
			}), Options{BenchmarkDir: root, Concurrency: 1})
			var a *Abort
			switch {
			case tc.fail == 0 && (err != nil || c.calls.Load() != 2):
				t.Errorf("err %v after %d calls, want both rows run", err, c.calls.Load())
			case tc.fail != 0 && (!errors.As(err, &a) || a.Diagnostic.Code != diag.InvalidDatasetRecord || a.Diagnostic.Line != tc.fail):
				t.Errorf("err %v, want invalid_dataset_record at line %d", err, tc.fail)
			}
		})
	}
}

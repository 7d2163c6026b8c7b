package engine

import (
	"bufio"
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/diag"
)

// checkingAdapter is a fake AI-system that refuses, before any call, an input whose text
// is longer than most bytes (an engine.InputChecker), and counts what it was asked.
type checkingAdapter struct {
	fakeAdapter
	most   int
	fits   bool          // what RowsFit answers
	asked  *atomic.Int64 // CheckInput calls
	hadRow *atomic.Int64 // the longest row RowsFit was told of
}

func (a *checkingAdapter) CheckInput(input map[string]any) error {
	a.asked.Add(1)
	if s, _ := input["text"].(string); len(s) > a.most {
		return &RowError{Code: diag.RequestTooLarge, Path: []string{"input", "text"}, Message: "too long to send"}
	}
	return nil
}

func (a *checkingAdapter) RowsFit(rowBytes int) bool {
	a.hadRow.Store(int64(rowBytes))
	return a.fits
}

// checkRun runs rowBench over rows with a checkingAdapter that refuses texts longer than
// most, returning the run's error, the calls made and the inputs asked.
func checkRun(t *testing.T, rows []string, most int, fits bool, opts Options) (err error, calls, asked, hadRow int64) {
	t.Helper()
	root := t.TempDir()
	var fns []func(*bufio.Writer)
	for _, r := range rows {
		fns = append(fns, func(w *bufio.Writer) { w.WriteString(r) })
	}
	writeRows(t, root, fns...)
	var c counter
	var askedN, hadRowN atomic.Int64
	factory := func() (Adapter, error) {
		c.made.Add(1)
		return &checkingAdapter{fakeAdapter: fakeAdapter{calls: &c.calls, answer: func(context.Context, int, map[string]any) (any, error) {
			return map[string]any{"label": "yes"}, nil
		}}, most: most, fits: fits, asked: &askedN, hadRow: &hadRowN}, nil
	}
	opts.BenchmarkDir = root
	_, err = Run(context.Background(), compileYAML(t, rowBench), factory, opts)
	return err, c.calls.Load(), askedN.Load(), hadRowN.Load()
}

// TestRunAsksInputChecker: an adapter that can refuse an input before sending it is asked
// of every example the run evaluates, after the dataset's own checks and before the first
// call; a refusal is the run's *Abort at the row's line, with the adapter's code and path,
// as a bad row's is. An adapter that says every row fits is asked of none.
func TestRunAsksInputChecker(t *testing.T) {
	rows := []string{rowOf(1), rowOf(2), rowOf(50), rowOf(3)}
	longest := int64(len(rowOf(50)))

	err, calls, asked, hadRow := checkRun(t, rows, 10, false, Options{Concurrency: 2})
	var a *Abort
	if !errors.As(err, &a) {
		t.Fatalf("a row refused by the adapter: err %v, want an *Abort", err)
	}
	if d := a.Diagnostic; d.Code != diag.RequestTooLarge || d.Line != 3 || d.Phase != PhaseData || !slices.Equal(d.Path, []string{"input", "text"}) ||
		!strings.Contains(d.Message, "line 3: too long to send") {
		t.Errorf("abort %+v, want request_too_large at line 3, input.text, in the data phase", d)
	}
	if calls != 0 || asked != 3 || hadRow != longest {
		t.Errorf("%d calls and %d inputs asked (told rows of %d bytes), want no call, 3 asked, rows of %d bytes", calls, asked, hadRow, longest)
	}

	// RowsFit answers for every row: the run trusts it, and asks no row.
	if err, calls, asked, _ = checkRun(t, rows, 10, true, Options{Concurrency: 2}); err != nil || calls != 4 || asked != 0 {
		t.Errorf("an adapter whose rows all fit: err %v, %d calls, %d inputs asked; want the 4 run and none asked", err, calls, asked)
	}

	if err, calls, asked, _ = checkRun(t, rows, 10, false, Options{Limit: 2}); err != nil || calls != 2 || asked != 2 {
		t.Errorf("a limit of 2: err %v, %d calls, %d asked; want the first 2 asked and run", err, calls, asked)
	}
	if err, calls, asked, _ = checkRun(t, rows, 10, false, Options{Shard: Shard{K: 1, N: 2}}); err != nil || calls != 2 || asked != 2 {
		t.Errorf("shard 1/2 (examples 1 and 3): err %v, %d calls, %d asked; want its own 2 asked and run", err, calls, asked)
	}
}

// TestCheckedInputsRefusesBeforeStreaming: CheckedInputs asks its checker of every input
// before fn sees any (a batch submits nothing for a run that would stop): a refusal is the
// *Abort at the row's line, as Run reports it.
func TestCheckedInputsRefusesBeforeStreaming(t *testing.T) {
	root := t.TempDir()
	writeRows(t, root, shortRow, func(w *bufio.Writer) { w.WriteString(rowOf(50)) }, shortRow)
	var calls, asked, hadRow atomic.Int64
	c := &checkingAdapter{fakeAdapter: fakeAdapter{calls: &calls}, most: 10, asked: &asked, hadRow: &hadRow}
	streamed := 0
	_, err := CheckedInputs(context.Background(), compileYAML(t, rowBench), root, Paths{}, 0, c, func(int, map[string]any) error {
		streamed++
		return nil
	})
	var a *Abort
	if !errors.As(err, &a) || a.Diagnostic.Code != diag.RequestTooLarge || a.Diagnostic.Line != 2 || !slices.Equal(a.Diagnostic.Path, []string{"input", "text"}) {
		t.Errorf("a row the checker refuses: %v, want the *Abort at line 2", err)
	}
	if streamed != 0 || asked.Load() != 2 {
		t.Errorf("%d inputs streamed, %d asked; want none streamed, 2 asked", streamed, asked.Load())
	}
	if _, err := CheckedInputs(context.Background(), compileYAML(t, rowBench), root, Paths{}, 1, c, func(int, map[string]any) error {
		streamed++
		return nil
	}); err != nil || streamed != 1 {
		t.Errorf("a limit of 1, before the row refused: %v after %d streamed, want the first streamed", err, streamed)
	}
}

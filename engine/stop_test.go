package engine

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// resumeAnswer is the fake AI-system of resumeBenchmark: every third example's b is wrong.
func resumeAnswer(index int, input map[string]any) any {
	n := index
	if index%3 == 0 {
		n++
	}
	return map[string]any{"a": input["text"].(string), "b": n}
}

// TestStop: Options.Stop starts no example once closed, lets the started ones finish and
// writes them, in index order, so that what is written is a prefix of the uninterrupted
// run's results and a resume from it gives that run's results; the error says it was a
// stop, not a cancellation. Examples from hold on answer only when the test releases them
// (in reverse order, so their answers come back out of order).
func TestStop(t *testing.T) {
	cases := []struct {
		name        string
		n, workers  int
		hold        int  // examples from here on wait to be released; the test stops once they are all in flight
		stopBefore  bool // Stop is closed before Run
		cancelAfter bool // after the stop, ctx is cancelled instead of releasing the held examples
		wantErr     error
		wantMsg     string
		wantCalls   int64
		wantWritten int
	}{
		{name: "stopped before any example: no adapter made, nothing asked, nothing written",
			n: 30, workers: 4, hold: 30, stopBefore: true,
			wantErr: ErrStopped, wantMsg: "run stopped after 0 of 30 examples"},
		{name: "stopped mid-run with 4 slow examples in flight: the 4 finish and are written, none starts",
			n: 30, workers: 4, hold: 6,
			wantErr: ErrStopped, wantMsg: "run stopped after 10 of 30 examples", wantCalls: 10, wantWritten: 10},
		{name: "stopped mid-run with one worker: the example in flight finishes",
			n: 12, workers: 1, hold: 3,
			wantErr: ErrStopped, wantMsg: "run stopped after 4 of 12 examples", wantCalls: 4, wantWritten: 4},
		{name: "stopped after the last example started: the run completes",
			n: 8, workers: 4, hold: 4,
			wantCalls: 8, wantWritten: 8},
		{name: "stopped, then cancelled with examples in flight: a cancellation, the 4 dropped",
			n: 30, workers: 4, hold: 6, cancelAfter: true,
			wantErr: context.Canceled, wantMsg: "run cancelled after 6 of 30 examples", wantCalls: 10, wantWritten: 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, root := resumeBenchmark(t, tc.n)
			full := runForResume(t, b, root, nil)

			release := make([]chan struct{}, tc.n)
			for i := range release {
				release[i] = make(chan struct{})
			}
			started := make(chan int, tc.n) // held examples, as they start
			var c counter
			var written []int
			prior := map[int]ExampleResult{} // what a resume would find stored
			var nWritten atomic.Int64
			var out bytes.Buffer
			stop := make(chan struct{})
			if tc.stopBefore {
				close(stop)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type ended struct {
				rep *Report
				err error
			}
			end := make(chan ended, 1)
			go func() {
				rep, err := Run(ctx, b, c.factory(func(ctx context.Context, index int, input map[string]any) (any, error) {
					if index >= tc.hold {
						started <- index
						select {
						case <-release[index]:
						case <-ctx.Done():
							return nil, ctx.Err()
						}
					}
					return resumeAnswer(index, input), nil
				}), Options{BenchmarkDir: root, Concurrency: tc.workers, Results: &out, Stop: stop,
					OnResult: func(res ExampleResult, reused bool) {
						written = append(written, res.Index)
						prior[res.Index] = res
						nWritten.Add(1)
					}})
				end <- ended{rep, err}
			}()

			if !tc.stopBefore {
				for range min(tc.workers, tc.n-tc.hold) {
					select {
					case <-started:
					case <-time.After(10 * time.Second):
						t.Fatal("the held examples never started")
					}
				}
				for nWritten.Load() < int64(tc.hold) {
					time.Sleep(time.Millisecond)
				}
				close(stop)
				if tc.cancelAfter {
					cancel()
				} else {
					time.Sleep(5 * time.Millisecond) // a dispatcher that ignored Stop would start one now
					for i := tc.n - 1; i >= 0; i-- {
						close(release[i])
						time.Sleep(time.Millisecond)
					}
				}
			}
			var e ended
			select {
			case e = <-end:
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return after the stop")
			}

			switch {
			case tc.wantErr == nil && (e.err != nil || e.rep == nil):
				t.Fatalf("Run = %v, want the report", e.err)
			case tc.wantErr != nil && !errors.Is(e.err, tc.wantErr):
				t.Fatalf("Run = %v, want %v", e.err, tc.wantErr)
			case tc.wantErr != nil && !strings.Contains(e.err.Error(), tc.wantMsg):
				t.Errorf("Run = %q, want it to say %q", e.err, tc.wantMsg)
			}
			if errors.Is(e.err, ErrStopped) && errors.Is(e.err, context.Canceled) {
				t.Errorf("a stop is also a cancellation: %v", e.err)
			}
			if errors.Is(tc.wantErr, context.Canceled) && errors.Is(e.err, ErrStopped) {
				t.Errorf("a cancellation is also a stop: %v", e.err)
			}
			if got := c.calls.Load(); got != tc.wantCalls {
				t.Errorf("the AI-system was asked for %d examples, want %d", got, tc.wantCalls)
			}
			if tc.stopBefore && c.made.Load() != 0 {
				t.Errorf("%d adapters made for a run stopped before it began", c.made.Load())
			}
			if want := seq(tc.wantWritten); !slices.Equal(written, want) {
				t.Errorf("OnResult got %v, want %v", written, want)
			}
			if prefix := lines(full.jsonl, tc.wantWritten); !bytes.Equal(out.Bytes(), prefix) {
				t.Errorf("the results written are not the uninterrupted run's first %d:\n%s\n---\n%s", tc.wantWritten, out.Bytes(), prefix)
			}

			// A resume from what was written asks only for the rest and gives the
			// uninterrupted run's results.
			again := runForResume(t, b, root, func(i int) (ExampleResult, bool) { r, ok := prior[i]; return r, ok })
			if again.calls != int64(tc.n-tc.wantWritten) || !bytes.Equal(again.jsonl, full.jsonl) {
				t.Errorf("resumed: %d calls, want %d; same results as an uninterrupted run: %t",
					again.calls, tc.n-tc.wantWritten, bytes.Equal(again.jsonl, full.jsonl))
			}
		})
	}
}

// seq is 0, 1, …, n-1 (nil for 0).
func seq(n int) []int {
	var s []int
	for i := range n {
		s = append(s, i)
	}
	return s
}

// lines is the first n lines of text.
func lines(text []byte, n int) []byte {
	var out []byte
	for line := range bytes.Lines(text) {
		if n == 0 {
			break
		}
		out = append(out, line...)
		n--
	}
	return out
}

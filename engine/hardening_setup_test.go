package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// closingAdapter counts its Close and takes closeTook over it, as a process given a grace
// period to exit does.
type closingAdapter struct {
	closed    *atomic.Int64
	closeTook time.Duration
}

func (a *closingAdapter) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (a *closingAdapter) Close() error {
	time.Sleep(a.closeTook)
	a.closed.Add(1)
	return nil
}

// TestHardeningSetupCancel (issue 11 hardening, the run that kept starting processes after
// its cancel): a run cancelled while its adapters are being made makes no more of them,
// closes those it made (all at once, not one grace period after another), and returns
// promptly. A factory takes 50 ms per adapter, as starting a process on a loaded machine
// may; 200 workers would take 10 s to start.
func TestHardeningSetupCancel(t *testing.T) {
	const workers, perAdapter, closeTook = 200, 50 * time.Millisecond, 300 * time.Millisecond
	b, root := resumeBenchmark(t, 400)
	var made, closed atomic.Int64
	factory := func() (Adapter, error) {
		time.Sleep(perAdapter)
		made.Add(1)
		return &closingAdapter{closed: &closed, closeTook: closeTook}, nil
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("cancelled by the test")
	time.AfterFunc(200*time.Millisecond, func() { cancel(cause) })
	start := time.Now()
	_, err := Run(ctx, b, factory, Options{BenchmarkDir: root, Concurrency: workers})
	took := time.Since(start)
	t.Logf("cancelled 200 ms in: %d of %d adapters made, all closed in %v (Run returned %v after it started)",
		made.Load(), workers, took-200*time.Millisecond, took.Round(time.Millisecond))
	if !errors.Is(err, cause) {
		t.Errorf("Run: %v, want the cancellation's cause", err)
	}
	// About 4 are made in 200 ms; a busy machine may fit a few more, never hundreds.
	if n := made.Load(); n > 20 {
		t.Errorf("%d adapters were made after a cancel 200 ms in (one per 50 ms), want it to stop at once", n)
	}
	if closed.Load() != made.Load() {
		t.Errorf("%d adapters made, %d closed", made.Load(), closed.Load())
	}
	// Start-up to the cancel (200 ms), the factory call under way (50 ms), and one close
	// (300 ms) for all of them: closed one after another, 4 take 1.2 s.
	if took > 1100*time.Millisecond {
		t.Errorf("Run returned %v after it started, want about 550 ms", took)
	}
}

package server

import (
	"context"
	"sync"

	"github.com/benchy-eval/benchy/engine"
)

// drain stops a run at a clean edge for a graceful shutdown: no example starts once it is
// on, the examples already started finish, and their results are handed to OnResult (so
// stored) before drained is closed. The run can then be cancelled without losing an
// answer the AI-system was already working on.
//
// The engine has no such mode, so drain works from the hooks it does have: Prior, which the
// engine asks before it dispatches each example, parks the dispatcher; a wrapper around
// each adapter holds back an example a worker had already taken; and OnResult says how far
// the results are written. An example that finished behind one that never started is lost
// (resume evaluates it again); with one worker that cannot happen.
type drain struct {
	stop <-chan struct{} // the run's end: what parked calls wait for

	mu       sync.Mutex
	on       bool
	inflight int              // examples the AI-system is working on
	first    int              // the first index neither reused nor evaluated
	ahead    map[int]struct{} // indices above first already finished
	written  int              // results handed to OnResult: every index below
	drained  chan struct{}    // closed once on and nothing more can be written
	closed   bool
}

func newDrain(stop <-chan struct{}) *drain {
	return &drain{stop: stop, ahead: map[int]struct{}{}, drained: make(chan struct{})}
}

// start turns the drain on.
func (d *drain) start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.on = true
	d.check()
}

// prior wraps Options.Prior (get may be nil): once the drain is on, the dispatcher waits
// here for the run to end.
func (d *drain) prior(get func(int) (engine.ExampleResult, bool)) func(int) (engine.ExampleResult, bool) {
	return func(i int) (engine.ExampleResult, bool) {
		d.mu.Lock()
		on := d.on
		d.mu.Unlock()
		if on {
			<-d.stop
			return engine.ExampleResult{}, false
		}
		if get != nil {
			if res, ok := get(i); ok {
				d.finished(i)
				return res, true
			}
		}
		return engine.ExampleResult{}, false
	}
}

// factory wraps every adapter of a run so that the drain sees examples start and end.
func (d *drain) factory(f engine.Factory) engine.Factory {
	return func() (engine.Adapter, error) {
		ad, err := f()
		if err != nil {
			return nil, err
		}
		return &drainAdapter{Adapter: ad, d: d}, nil
	}
}

type drainAdapter struct {
	engine.Adapter
	d *drain
}

func (a *drainAdapter) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	if !a.d.begin() {
		<-ctx.Done() // the run is ending: this example is not started, nor written
		return nil, context.Cause(ctx)
	}
	defer a.d.evaluated(index)
	return a.Adapter.Invoke(ctx, index, input)
}

// begin counts an example in flight, unless the drain is on.
func (d *drain) begin() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.on {
		return false
	}
	d.inflight++
	return true
}

// finished records that example i has a result: reused, or evaluated (then it was in flight).
func (d *drain) finished(i int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.finishedLocked(i)
}

// evaluated is finished for an example that was in flight.
func (d *drain) evaluated(i int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inflight--
	d.finishedLocked(i)
}

func (d *drain) finishedLocked(i int) {
	if i != d.first {
		d.ahead[i] = struct{}{}
	} else {
		for d.first++; ; d.first++ {
			if _, ok := d.ahead[d.first]; !ok {
				break
			}
			delete(d.ahead, d.first)
		}
	}
	d.check()
}

// wrote records that the result of example i was handed to OnResult.
func (d *drain) wrote(i int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.written = i + 1
	d.check()
}

// check closes drained when the drain is on, nothing is in flight and every result that
// can still be written has been.
func (d *drain) check() {
	if d.on && !d.closed && d.inflight == 0 && d.written >= d.first {
		d.closed = true
		close(d.drained)
	}
}

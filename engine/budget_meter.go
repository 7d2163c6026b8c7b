package engine

import (
	"context"
	"fmt"
)

// Meter is a budget's account of the attempts of one example's request, for an adapter
// that may send it more than once (a model provider's retries): each attempt holds the
// request's bound while it is in flight, so that what retries may spend counts against the
// budget as a new request's would. Dispatch reserves the first attempt's bound; an adapter
// reports how each failed attempt ended (Billed or Unbilled) and reserves the bound again
// before each further one (Again). An attempt that succeeds is settled by the example's
// result, as before.
type Meter interface {
	// Billed charges the attempt that just failed its bound: it may have been billed (the
	// request went whole and the reply was cut, a 5xx, a timeout), and a provider that
	// does not say what it spent must not spend without limit.
	Billed()
	// Unbilled releases the attempt that just failed: the provider's answer proves it was
	// not billed (the request never went whole, a refused connection, a 429 or another
	// 4xx refusal).
	Unbilled()
	// Again reserves the bound for one more attempt, waiting while examples in flight may
	// free room; an error wrapping ErrBudget when it does not fit and none may, or ctx's
	// error when ctx ends first. The attempt must not go then.
	Again(ctx context.Context) error
}

type meterKey struct{}

// WithMeter is ctx carrying m, the meter of the example ctx evaluates.
func WithMeter(ctx context.Context, m Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// MeterOf is the meter ctx carries, or one that counts nothing when the run has no budget:
// never nil.
func MeterOf(ctx context.Context) Meter {
	if m, ok := ctx.Value(meterKey{}).(Meter); ok && m != nil {
		return m
	}
	return noMeter{}
}

type noMeter struct{}

func (noMeter) Billed()                     {}
func (noMeter) Unbilled()                   {}
func (noMeter) Again(context.Context) error { return nil }

// exampleMeter is a ledger's Meter for example index.
type exampleMeter struct {
	l     *ledger
	index int
}

func (m exampleMeter) Billed() { m.end(true) }

func (m exampleMeter) Unbilled() { m.end(false) }

// end ends the attempt in flight: its bound spent when billed, released otherwise.
func (m exampleMeter) end(billed bool) {
	l := m.l
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.holds[m.index]
	if h == nil || h.held == (cost{}) {
		return
	}
	l.held.tokens -= h.held.tokens
	l.held.usd -= h.held.usd
	if billed {
		l.spent = l.spent.plus(h.held)
		h.charged = h.charged.plus(h.held)
	}
	h.held = cost{}
	l.changed()
}

func (m exampleMeter) Again(ctx context.Context) error {
	l := m.l
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.holds[m.index]
	if h == nil || h.held != (cost{}) || h.bound == (cost{}) {
		return nil // no hold to renew (a cache replay's), or one still held
	}
	defer func() {
		if h.retrying {
			h.retrying = false
			l.retrying--
		}
	}()
	for {
		if l.fits(h.bound) {
			h.held = h.bound
			l.held = l.held.plus(h.bound)
			return nil
		}
		if l.freeing(h) == 0 {
			return fmt.Errorf("%w: spent %s, and another attempt may cost %s", ErrBudget, m.text(l.spent), m.text(h.bound))
		}
		if !h.retrying {
			// Those that wait for room must know that this example frees none now.
			h.retrying = true
			l.retrying++
			l.changed()
		}
		ch := l.settled
		l.mu.Unlock()
		select {
		case <-ch:
			l.mu.Lock()
		case <-ctx.Done():
			l.mu.Lock()
			return ctx.Err()
		}
	}
}

// text is c as the budget counts it: tokens, and dollars for a cost budget.
func (m exampleMeter) text(c cost) string {
	s := fmt.Sprintf("%d tokens", c.tokens)
	if m.l.limit.MaxCostUSD > 0 {
		s += fmt.Sprintf(" ($%.4f)", c.usd)
	}
	return s
}

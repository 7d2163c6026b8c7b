package provider

import (
	"context"
	"slices"
	"time"
)

// The requests a limiter holds wait in a queue and go in the order they first asked: only
// the first may be admitted, and when it is, the next is told to look. Before, every waiter
// woke at each change and the first to take the lock went, so that one request could lose
// that race for a minute while later ones went ahead; the engine, which writes its results
// in the order of the examples, then held every finished one behind it (the progress line at
// 0 for a minute, example 0's latency 60 s). A retry keeps its request's place: a request
// asked first, whatever happened to its earlier attempts, goes first.

// turn is a waiting request's place in the queue.
type turn struct {
	seq     uint64        // the order its request first asked in
	ready   chan struct{} // told (wake) when it is first in the queue and may look again
	waiting bool          // counted in waiters: it waits for a rate limit, not only for a slot
}

// enter waits until a request of raw estimated tokens may go, and admits it. retrying says
// the request has waited out a Retry-After already. place is the request's place across its
// attempts: 0 before its first asks, when enter gives it the next.
func (l *limiter) enter(ctx context.Context, raw int, retrying bool, place *uint64) (*ticket, error) {
	l.mu.Lock()
	if *place == 0 {
		l.seq++
		*place = l.seq
	}
	now := l.now()
	if len(l.queue) == 0 || l.queue[0].seq > *place {
		if t, _, _ := l.admit(now, raw, retrying); t != nil {
			l.mu.Unlock()
			return t, nil
		}
	}
	me := &turn{seq: *place, ready: make(chan struct{}, 1)}
	l.join(me)
	for {
		var at <-chan time.Time
		var timer *time.Timer
		if l.queue[0] == me {
			t, until, why := l.admit(now, raw, retrying)
			if t != nil {
				l.quit(me)
				l.mu.Unlock()
				return t, nil
			}
			if why != "" {
				// Whoever waits behind a rate limit waits for it too.
				l.waitReason = why
				for _, w := range l.queue {
					if !w.waiting {
						w.waiting = true
						l.startWait(now)
					}
				}
			}
			if !until.IsZero() {
				timer = time.NewTimer(max(until.Sub(now), 0))
				at = timer.C
			}
		}
		l.mu.Unlock()
		select {
		case <-me.ready:
		case <-at:
		case <-ctx.Done():
		}
		if timer != nil {
			timer.Stop()
		}
		l.mu.Lock()
		if ctx.Err() != nil {
			l.quit(me)
			l.mu.Unlock()
			return nil, ctx.Err()
		}
		now = l.now()
	}
}

// join puts me in the queue at its place, with l.mu held: after every request that asked
// before it.
func (l *limiter) join(me *turn) {
	i := len(l.queue)
	for i > 0 && l.queue[i-1].seq > me.seq {
		i--
	}
	if len(l.queue) > 0 && l.queue[0].waiting {
		me.waiting = true // behind a request a rate limit holds
		l.startWait(l.now())
	}
	l.queue = slices.Insert(l.queue, i, me)
}

// quit takes me out of the queue, admitted or given up, with l.mu held, and tells the
// next first request to look.
func (l *limiter) quit(me *turn) {
	i := slices.Index(l.queue, me)
	if i < 0 {
		return
	}
	l.queue = slices.Delete(l.queue, i, i+1)
	if me.waiting {
		l.endWait()
	}
	if i == 0 {
		l.wake()
	}
}

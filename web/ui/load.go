package ui

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Load is a value a page asks the server for, and where that request stands. Every page
// keeps its remote values in Loads instead of declaring, for each, the value, its error,
// whether it came, whether it is on its way, and a generation counter against stale
// answers.
type Load[T any] struct {
	Value T      // the last answer's value: kept while a new request is out, and when it fails
	Err   error  // the last answer's error; nil when it succeeded, or before any answer
	OK    bool   // Value holds an answer
	Busy  bool   // a request is out
	Key   string // what the value is of (a path, a run id); "" when a page has only one
	gen   int    // counts requests: only the newest one's answer is taken
}

// Start marks a new request for key and returns its ticket for Settle. A new key drops the
// old key's value and error; the same key keeps them, so that a page refreshing a list
// shows the old one until the new one comes.
func (l *Load[T]) Start(key string) int {
	if key != l.Key {
		var zero T
		l.Value, l.Err, l.OK = zero, nil, false
	}
	l.gen++
	l.Key, l.Busy = key, true
	return l.gen
}

// Settle takes the answer of request ticket, unless a newer Start or a Reset came since,
// and reports whether it took it. A failed answer keeps the value of an earlier one.
func (l *Load[T]) Settle(ticket int, v T, err error) bool {
	if ticket != l.gen {
		return false
	}
	l.Busy, l.Err = false, err
	if err == nil {
		l.Value, l.OK = v, true
	}
	return true
}

// Reset forgets the value, the error and the key; an answer still on its way is dropped.
func (l *Load[T]) Reset() { *l = Load[T]{gen: l.gen + 1} }

// Current reports whether ticket is the newest request: a page's scheduled refresh checks
// it, so that a refresh of an older load does nothing.
func (l *Load[T]) Current(ticket int) bool { return ticket == l.gen }

// Ticket is the newest request's ticket.
func (l *Load[T]) Ticket() int { return l.gen }

// Answered reports whether the page can show something: the value, or why it failed.
func (l *Load[T]) Answered() bool { return l.OK || l.Err != nil }

// Has reports whether the value of key is there.
func (l *Load[T]) Has(key string) bool { return l.OK && l.Key == key }

// Fetch starts a request of l for key: get runs off the UI goroutine, with ctx (which ends
// when the page goes); its answer is settled on the UI goroutine; then, unless nil, runs
// after an answer was taken (never after a stale one).
func Fetch[T any](ctx app.Context, l *Load[T], key string, get func(context.Context) (T, error), then func(app.Context)) {
	ticket := l.Start(key)
	ctx.Async(func() {
		v, err := get(ctx)
		ctx.Dispatch(func(ctx app.Context) {
			if l.Settle(ticket, v, err) && then != nil {
				then(ctx)
			}
		})
	})
}

package client

import (
	"context"
	"errors"
	"sync"
)

// Every request tells whether the server was reached, so that the shell's indicator shows
// the last request's outcome instead of what a ping found when the page loaded.

var watchers struct {
	sync.Mutex
	next int
	fns  map[int]func(reached bool)
}

// Watch calls f after each request with whether the server answered it (any status) or
// could not be reached. A request the page cancelled says nothing. stop ends the calls.
func Watch(f func(reached bool)) (stop func()) {
	watchers.Lock()
	defer watchers.Unlock()
	if watchers.fns == nil {
		watchers.fns = map[int]func(bool){}
	}
	id := watchers.next
	watchers.next++
	watchers.fns[id] = f
	return func() {
		watchers.Lock()
		defer watchers.Unlock()
		delete(watchers.fns, id)
	}
}

// reached tells the watchers a request's outcome: err is fetch's error for the response head.
func reached(ctx context.Context, err error) {
	if err != nil && (ctx.Err() != nil || errors.Is(err, errNotBrowser)) {
		return
	}
	watchers.Lock()
	fns := make([]func(bool), 0, len(watchers.fns))
	for _, f := range watchers.fns {
		fns = append(fns, f)
	}
	watchers.Unlock()
	for _, f := range fns {
		f(err == nil)
	}
}

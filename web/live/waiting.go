package live

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// Waiting says to a person what a running run waits for (api.Waiting), as of now: "waiting
// for the rate limit (tokens per minute) since 12 s", "waiting for 1 batch at openai:
// in_progress, 120 of 500 done (since 2 min)"; "" when it waits for nothing.
func Waiting(w *api.Waiting, now time.Time) string {
	if w == nil {
		return ""
	}
	since := ""
	if !w.Since.IsZero() {
		since = ui.Duration(max(now.Sub(w.Since), 0).Truncate(time.Second))
	}
	switch w.For {
	case api.WaitRateLimit:
		s := "waiting for the rate limit"
		if w.Detail != "" {
			s += " (" + w.Detail + ")"
		}
		if since != "" {
			s += " since " + since
		}
		return s
	case api.WaitBatch:
		var providers, states []string
		done, requests := 0, 0
		for _, b := range w.Batches {
			if !slices.Contains(providers, b.Provider) {
				providers = append(providers, b.Provider)
			}
			if !slices.Contains(states, b.State) {
				states = append(states, b.State)
			}
			done, requests = done+b.Done, requests+b.Requests
		}
		s := "waiting for 1 batch"
		if len(w.Batches) != 1 {
			s = "waiting for " + ui.Int(len(w.Batches)) + " batches"
		}
		if len(providers) > 0 {
			s += " at " + strings.Join(providers, ", ")
		}
		if len(states) > 0 {
			s += ": " + strings.Join(states, ", ") + ", " + ui.Int(done) + " of " + ui.Int(requests) + " done"
		}
		if since != "" {
			s += " (since " + since + ")"
		}
		return s
	}
	return "waiting: " + w.Detail
}

// WaitTick is how often a page redraws a waiting run, for its "since".
const WaitTick = time.Second

// tickWhileWaiting redraws the run every WaitTick while it waits (its events come only when
// what it waits for changes), until c ends. r.ticking, on the UI goroutine, says one runs.
func (r *Run) tickWhileWaiting(c context.Context, update updater) {
	for {
		select {
		case <-c.Done():
			return
		case <-time.After(WaitTick):
		}
		more := make(chan bool, 1)
		update(func(ctx app.Context) {
			still := r.Record.Waiting != nil && api.Active(r.Record.Status)
			if !still {
				r.ticking = false
			}
			more <- still
		})
		select {
		case <-c.Done():
			return
		case still := <-more:
			if !still {
				return
			}
		case <-time.After(10 * WaitTick): // the update was dropped: the page stopped following
			return
		}
	}
}

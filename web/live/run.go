package live

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
	"github.com/benchy-eval/benchy/web/ui"
)

// Run is a run a page follows: its stored record, kept up to date from the server's events.
// The page owns it and reads its fields when it renders; only the UI goroutine writes them.
type Run struct {
	ID      string
	Record  api.Run       // status, counts, summary and rate as last heard
	Loaded  bool          // the record has arrived
	Score   *float64      // of a completed run
	CI      *api.Interval // the score's confidence interval
	Polling bool          // the stream failed: the record is read every second
	Err     error         // of the last request for the run
	Ended   bool          // the run is no longer queued or running, and its final record is read

	stop    context.CancelFunc
	ticking bool // tickWhileWaiting redraws it
}

// Hooks are what a page does when a followed run's record first comes, and when the run
// ends (or was over already when the page began to follow it). Either may be nil.
type Hooks struct {
	Loaded func(ctx app.Context, r *Run)
	Ended  func(ctx app.Context, r *Run)
}

// PollEvery is how often a run is read when its event stream is not available.
const PollEvery = time.Second

// Follow follows run id until it ends or Stop: known, when the page has the run's record
// from a listing, shows until the server's comes. ctx must be the page's own (of its
// OnNav or OnMount), not an element's event: go-app drops what is dispatched through the
// context of an element that is gone, and the button that started a run often goes.
func Follow(ctx app.Context, id string, known *api.Run, h Hooks) *Run {
	r := &Run{ID: id}
	if known != nil {
		r.Record, r.Loaded = *known, true
		r.setReport(*known)
	}
	c, cancel := context.WithCancel(ctx)
	r.stop = cancel
	// update applies f on the UI goroutine, unless the page stopped following the run.
	update := func(f func(ctx app.Context)) {
		ctx.Dispatch(func(ctx app.Context) {
			if c.Err() == nil {
				f(ctx)
			}
		})
	}
	ended := func(ctx app.Context) {
		r.Ended = true
		if h.Ended != nil {
			h.Ended(ctx, r)
		}
	}
	ctx.Async(func() {
		rec, err := client.Default.Run(c, id)
		if c.Err() != nil {
			return
		}
		update(func(ctx app.Context) {
			r.Err = err
			if err != nil {
				return
			}
			r.Record, r.Loaded = rec, true
			r.setReport(rec)
			if h.Loaded != nil {
				h.Loaded(ctx, r)
			}
			if !api.Active(rec.Status) {
				ended(ctx)
			}
		})
		if err != nil || !api.Active(rec.Status) {
			return
		}
		if rec.Status == api.Queued {
			ctx.Async(func() { r.watchQueued(c, update) })
		}
		if r.stream(c, update) {
			r.settle(c, update, ended)
			return
		}
		r.poll(c, update, ended)
	})
	return r
}

// Stop ends the stream or polling of the run.
func (r *Run) Stop() {
	if r != nil && r.stop != nil {
		r.stop()
		r.stop = nil
	}
}

// Active reports whether the run may still change, as last heard.
func (r *Run) Active() bool { return !r.Loaded || api.Active(r.Record.Status) }

// Phase is the run's status for its badge, and what it is doing when the status alone does
// not say: a run that is running before it knows its number of examples is "starting",
// validating the dataset (its events say total 0 until the validation pass has counted them).
func (r *Run) Phase() (status, note string) {
	rec := r.Record
	switch {
	case !r.Loaded:
		return "loading", ""
	case rec.Status == api.Queued:
		return api.Queued, "Waiting for a free slot"
	case rec.Status == api.Running && rec.Waiting != nil:
		return api.Running, "" // the page says what it waits for
	case rec.Status == api.Running && rec.Total == 0:
		return "starting", "Validating the dataset"
	}
	return rec.Status, ""
}

// Label names the run's AI-system: its label, else its binding, else "".
func (r *Run) Label() string { return ui.RunSystem(&r.Record) }

type updater func(func(ctx app.Context))

// stream follows the run's events until its "done" event, and reports whether it came.
func (r *Run) stream(c context.Context, update updater) bool {
	done := false
	client.Default.Events(c, r.ID, func(ev client.RunEvent) bool {
		switch {
		case ev.Progress != nil:
			pr := *ev.Progress
			update(func(ctx app.Context) {
				rec := &r.Record
				r.Err = nil
				rec.Done, rec.Total, rec.Rate = pr.Done, pr.Total, &pr.Rate
				rec.Summary = &pr.Summary
				if rec.Status == api.Queued && (pr.Total > 0 || pr.Done > 0 || pr.Waiting != nil) {
					rec.Status = api.Running
				}
				rec.Waiting = pr.Waiting
				rec.Cluster = pr.Cluster // a run on an executor: its shards
				if pr.Waiting != nil && !r.ticking {
					r.ticking = true
					ctx.Async(func() { r.tickWhileWaiting(c, update) })
				}
			})
		case ev.Done != nil:
			d := *ev.Done
			done = true
			update(func(ctx app.Context) {
				rec := &r.Record
				rec.Status, rec.Error, rec.Rate, rec.Waiting = d.Status, d.Error, nil, nil
				if d.Summary != nil {
					rec.Summary = d.Summary
					if d.Status == api.Completed {
						// every example has its result: the count is final before the
						// record is read again
						rec.Done = d.Summary.Examples
						rec.Total = max(rec.Total, d.Summary.Examples)
					}
				}
				r.Score = d.BenchmarkScore
			})
			return false
		}
		return true
	})
	return done && c.Err() == nil
}

// QueuedEvery is how often the record of a run last heard queued is read: its events say
// nothing of its start (their totals are 0 until the dataset is validated), and a run that
// started at once would show "queued" until its first result.
const QueuedEvery = 500 * time.Millisecond

// watchQueued reads the run's record while the run is heard queued, and takes the
// record's status when it is further along (advance).
func (r *Run) watchQueued(c context.Context, update updater) {
	for {
		select {
		case <-c.Done():
			return
		case <-time.After(QueuedEvery):
		}
		rec, err := client.Default.Run(c, r.ID)
		if c.Err() != nil || client.StatusIs(err, 404) {
			return
		}
		if err != nil {
			continue
		}
		more := make(chan bool, 1)
		update(func(ctx app.Context) {
			r.Record = advance(r.Record, rec)
			more <- r.Record.Status == api.Queued
		})
		select {
		case <-c.Done():
			return
		case still := <-more:
			if !still {
				return
			}
		case <-time.After(10 * QueuedEvery): // the update was dropped: read again
		}
	}
}

// advance is the followed record cur with what a fresher read of the record, rec, says of
// the run's start: rec's status when it is further along than cur's (queued, then running),
// its start time, and counts that only grow. How the run ends is the stream's to say
// (its "done" event, then the record read again).
func advance(cur, rec api.Run) api.Run {
	if cur.Status != api.Queued || rec.Status != api.Running {
		return cur
	}
	cur.Status, cur.StartedAt = rec.Status, rec.StartedAt
	cur.Total, cur.Done = max(cur.Total, rec.Total), max(cur.Done, rec.Done)
	return cur
}

// poll reads the run every PollEvery until it ends (or the page stops following it).
func (r *Run) poll(c context.Context, update updater, ended func(app.Context)) {
	update(func(ctx app.Context) { r.Polling = true })
	for {
		select {
		case <-c.Done():
			return
		case <-time.After(PollEvery):
		}
		rec, err := client.Default.Run(c, r.ID)
		if c.Err() != nil {
			return
		}
		update(func(ctx app.Context) {
			r.Err = err
			if err == nil {
				r.Record = rec
				r.setReport(rec)
			}
		})
		if client.StatusIs(err, 404) {
			return
		}
		if err == nil && !api.Active(rec.Status) {
			update(ended)
			return
		}
	}
}

// settle reads the ended run's record for its report.
func (r *Run) settle(c context.Context, update updater, ended func(app.Context)) {
	rec, err := client.Default.Run(c, r.ID)
	if c.Err() != nil {
		return
	}
	update(func(ctx app.Context) {
		if err == nil {
			r.Record = rec
			r.setReport(rec)
		}
		ended(ctx)
	})
}

// setReport takes the score and interval of a completed run's report.
func (r *Run) setReport(rec api.Run) {
	if rep := rec.DecodeReport(); rep != nil {
		r.Score, r.CI = rep.BenchmarkScore, rep.Confidence
		if r.Record.Summary == nil {
			s := rep.Summary
			r.Record.Summary = &s
		}
	}
}

package runs

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
)

// liveRun is the run the runs page follows: its stored record, updated from the server's
// event stream (or, when the stream fails, by polling the run every second).
type liveRun struct {
	id      string
	gen     int      // which attach this is: updates of an older one are dropped
	run     api.Run  // status, counts, summary and rate as last heard
	loaded  bool     // the run's record has arrived
	score   *float64 // of a completed run
	ci      *api.Interval
	polling bool  // the stream failed: the page polls
	err     error // of the last request for the run
	cancel  context.CancelFunc
}

// stop ends the stream or polling of the followed run.
func (l *liveRun) stop() {
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
}

// pollEvery is how often a run is polled when its event stream is not available.
const pollEvery = time.Second

// attach follows run id: its record now, then its events while it is queued or running.
func (p *Page) attach(ctx app.Context, id string) {
	p.live.stop()
	gen := p.live.gen + 1
	p.live = liveRun{id: id, gen: gen}
	for _, r := range p.runs.Value {
		if r.ID == id {
			p.live.run, p.live.loaded = r, true
			p.live.setReport(r)
		}
	}
	c, cancel := cancelable(ctx)
	p.live.cancel = cancel
	// update applies f to the followed run, if it is still this attach's.
	update := func(f func(ctx app.Context, l *liveRun)) {
		ctx.Dispatch(func(ctx app.Context) {
			if p.live.gen == gen && c.Err() == nil {
				f(ctx, &p.live)
			}
		})
	}
	ctx.Async(func() {
		r, err := client.Default.Run(c, id)
		if c.Err() != nil {
			return
		}
		update(func(ctx app.Context, l *liveRun) {
			l.err = err
			if err != nil {
				return
			}
			l.run, l.loaded = r, true
			l.setReport(r)
			if r.Benchmark != "" && r.Benchmark != p.path {
				p.choose(ctx, r.Benchmark)
			}
		})
		if err != nil || !api.Active(r.Status) {
			return
		}
		if p.stream(c, id, update) {
			p.settle(c, id, update)
			return
		}
		p.poll(c, id, update)
	})
}

type liveUpdate func(func(ctx app.Context, l *liveRun))

// stream follows run id's events until its "done" event, and reports whether it came.
func (p *Page) stream(c context.Context, id string, update liveUpdate) bool {
	done := false
	client.Default.Events(c, id, func(ev client.RunEvent) bool {
		switch {
		case ev.Progress != nil:
			pr := *ev.Progress
			update(func(ctx app.Context, l *liveRun) {
				l.err = nil
				l.run.Done, l.run.Total, l.run.Rate = pr.Done, pr.Total, &pr.Rate
				l.run.Summary = &pr.Summary
				if l.run.Status == api.Queued && (pr.Total > 0 || pr.Done > 0) {
					l.run.Status = api.Running
				}
			})
		case ev.Done != nil:
			d := *ev.Done
			done = true
			update(func(ctx app.Context, l *liveRun) {
				l.run.Status, l.run.Error, l.run.Rate = d.Status, d.Error, nil
				if d.Summary != nil {
					l.run.Summary = d.Summary
					if d.Status == api.Completed {
						// every example has its result: the count is final before the
						// run's record is read again
						l.run.Done = d.Summary.Examples
						l.run.Total = max(l.run.Total, d.Summary.Examples)
					}
				}
				l.score = d.BenchmarkScore
			})
			return false
		}
		return true
	})
	return done && c.Err() == nil
}

// poll reads run id every pollEvery until it ends (or the page stops following it).
func (p *Page) poll(c context.Context, id string, update liveUpdate) {
	update(func(ctx app.Context, l *liveRun) { l.polling = true })
	for {
		select {
		case <-c.Done():
			return
		case <-time.After(pollEvery):
		}
		r, err := client.Default.Run(c, id)
		if c.Err() != nil {
			return
		}
		update(func(ctx app.Context, l *liveRun) {
			l.err = err
			if err == nil {
				l.run = r
				l.setReport(r)
			}
		})
		if client.StatusIs(err, 404) {
			return
		}
		if err == nil && !api.Active(r.Status) {
			update(func(ctx app.Context, l *liveRun) { p.loadRuns(ctx) })
			return
		}
	}
}

// settle reads the ended run's record for its report, and refreshes the list of runs.
func (p *Page) settle(c context.Context, id string, update liveUpdate) {
	r, err := client.Default.Run(c, id)
	if c.Err() != nil {
		return
	}
	update(func(ctx app.Context, l *liveRun) {
		if err == nil {
			l.run = r
			l.setReport(r)
		}
		p.loadRuns(ctx)
	})
}

// setReport takes the score and interval of a completed run's report.
func (l *liveRun) setReport(r api.Run) {
	if rep := r.DecodeReport(); rep != nil {
		l.score, l.ci = rep.BenchmarkScore, rep.Confidence
		if l.run.Summary == nil {
			s := rep.Summary
			l.run.Summary = &s
		}
	}
}

package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// Event stream limits. A client is sent progress at most every progressEvery; one that
// reads more slowly than examples complete keeps at most maxPending example events
// waiting, the older ones folded into one "skipped" event, so a slow client never holds
// up a run nor makes the server hold a run's worth of events for it.
const (
	progressEvery = 200 * time.Millisecond
	maxPending    = 256
	heartbeat     = 15 * time.Second
	followEvery   = time.Second // how often the stream of another process's run reads the store
)

// The events of a run's stream are api's: api.Progress (also a run's live progress),
// api.Example, api.Skipped and api.Done.

// doneOf describes a stored run of workspace dir as a done event.
func doneOf(run store.Run, dir string) api.Done {
	d := api.Done{Status: string(run.Status), Summary: (*api.Summary)(run.Summary), Error: wireError(inWorkspace(run.Error, dir))}
	if len(run.Report) > 0 {
		var rep struct {
			Score *float64 `json:"benchmark_score"`
		}
		if json.Unmarshal(run.Report, &rep) == nil {
			d.BenchmarkScore = rep.Score
		}
	}
	return d
}

// wireError is a run's error as the API sends it.
func wireError(e *diag.Diagnostic) *api.RunError {
	if e == nil {
		return nil
	}
	d := wireDiagnostic(*e)
	return &d
}

// wireDiagnostic is a diagnostic as the API sends it.
func wireDiagnostic(d diag.Diagnostic) api.Diagnostic {
	return api.Diagnostic{File: d.File, Phase: d.Phase, Code: string(d.Code), Path: d.Path, Message: d.Message,
		Line: d.Line, Column: d.Column, Suggestion: d.Suggestion}
}

// inWorkspace shows the file of a run's error relative to workspace dir: the server's
// own paths are no business of its clients.
func inWorkspace(e *diag.Diagnostic, dir string) *diag.Diagnostic {
	if e == nil || !filepath.IsAbs(e.File) {
		return e
	}
	rel, err := filepath.Rel(dir, e.File)
	if err != nil || !filepath.IsLocal(rel) {
		rel = filepath.Base(e.File)
	}
	out := *e
	out.File = filepath.ToSlash(rel)
	return &out
}

// broker fans one run's events out to its subscribers. Publishing never blocks: it only
// appends to each subscriber's bounded queue and wakes it.
type broker struct {
	mu       sync.Mutex
	progress api.Progress
	seq      uint64 // counts progress updates (a change of what the run waits for is one)
	reported bool   // the run reported progress in this execution
	final    *api.Done
	subs     []*subscriber
}

type subscriber struct {
	wake     chan struct{} // holds one wake-up at most
	examples []api.Example
	skipped  *api.Skipped
}

// batch is what a subscriber has to send.
type batch struct {
	skipped  *api.Skipped
	examples []api.Example
	progress api.Progress
	seq      uint64
	final    *api.Done
}

func newBroker(initial api.Progress) *broker { return &broker{progress: initial} }

func (b *broker) subscribe() *subscriber {
	s := &subscriber{wake: make(chan struct{}, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, s)
	return s
}

func (b *broker) unsubscribe(s *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = slices.DeleteFunc(b.subs, func(x *subscriber) bool { return x == s })
}

// example publishes a completed example. The engine reports examples in index order, so
// what a subscriber drops is always the run of indices just before what it keeps.
func (b *broker) example(e api.Example) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		if len(s.examples) == maxPending {
			drop := s.examples[:maxPending/2] // half at once: a stalled client costs O(1) per event
			if s.skipped == nil {
				s.skipped = &api.Skipped{From: drop[0].Index}
			}
			s.skipped.To = drop[len(drop)-1].Index
			s.skipped.Count = s.skipped.To - s.skipped.From + 1
			s.examples = append(s.examples[:0], s.examples[maxPending/2:]...)
		}
		s.examples = append(s.examples, e)
		s.notify()
	}
}

// setProgress publishes the run's progress; subscribers send the latest when their turn comes.
func (b *broker) setProgress(p api.Progress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p.Waiting = b.progress.Waiting // setWaiting's to change
	b.progress, b.reported = p, true
	b.seq++
	for _, s := range b.subs {
		s.notify()
	}
}

// setWaiting publishes what the run waits for (nil: nothing) when it changed, as progress,
// with the run's total as the store knows it (0: unknown) while the engine has reported
// none.
func (b *broker) setWaiting(w *api.Waiting, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.reported && total > 0 && b.progress.Total != total {
		b.progress.Total = total
	} else if reflect.DeepEqual(w, b.progress.Waiting) {
		return
	}
	b.progress.Waiting = w
	b.seq++
	for _, s := range b.subs {
		s.notify()
	}
}

// snapshot is the latest progress, and whether the run reported any in this execution.
func (b *broker) snapshot() (api.Progress, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.progress, b.reported
}

// finish publishes the end of the run.
func (b *broker) finish(d api.Done) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.final = &d
	for _, s := range b.subs {
		s.notify()
	}
}

// take hands over what s has to send.
func (b *broker) take(s *subscriber) batch {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := batch{skipped: s.skipped, examples: slices.Clone(s.examples), progress: b.progress, seq: b.seq, final: b.final}
	s.skipped, s.examples = nil, s.examples[:0]
	return out
}

func (s *subscriber) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// runEvents streams a run's events (Server-Sent Events): "progress" at once and then at
// most every progressEvery, "example" for each completed example ("skipped" for those a
// slow client missed), and "done" last. A finished run gets its "done" event at once; a
// run another live process executes (a `benchy run`) is followed in the store (follow); a
// run whose process is gone is marked interrupted (settled) and gets its "done".
func (s *Server) runEvents(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	j := s.runs.get(id)
	var sub *subscriber
	if j != nil {
		sub = j.events.subscribe()
		defer j.events.unsubscribe(sub)
	}
	run, err := s.st.Peek(id)
	if err != nil {
		return storeError(err)
	}
	run = s.settled(run)
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{}) // a stream lasts as long as the run
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if j == nil && (run.Status == store.Queued || run.Status == store.Running) {
		s.follow(w, r, rc, run)
		return nil
	}
	if j == nil || (run.Status != store.Queued && run.Status != store.Running) {
		sendEvent(w, "done", doneOf(run, s.dir))
		rc.Flush()
		return nil
	}
	s.stream(w, r, rc, j, sub)
	return nil
}

// stream sends the events of job j, which this server executes, to subscriber sub.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, j *job, sub *subscriber) {

	var lastSeq uint64
	var lastSent time.Time
	first, armed := true, false
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	ping := time.NewTicker(heartbeat)
	defer ping.Stop()
	for {
		bt := j.events.take(sub)
		if bt.skipped != nil {
			sendEvent(w, "skipped", bt.skipped)
		}
		for _, e := range bt.examples {
			sendEvent(w, "example", e)
		}
		if bt.final != nil {
			if bt.seq != lastSeq {
				sendEvent(w, "progress", bt.progress)
			}
			sendEvent(w, "done", bt.final)
			rc.Flush()
			return
		}
		if first || bt.seq != lastSeq {
			if wait := progressEvery - time.Since(lastSent); first || wait <= 0 {
				sendEvent(w, "progress", bt.progress)
				first, lastSeq, lastSent = false, bt.seq, time.Now()
			} else if !armed {
				timer.Reset(wait)
				armed = true
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-sub.wake:
		case <-timer.C:
			armed = false
		case <-ping.C:
			io.WriteString(w, ": ping\n\n")
		case <-r.Context().Done():
			return
		case <-s.runs.stopped:
			return
		}
	}
}

// follow streams a run that another process executes: this server has none of its events,
// so it reads the run's row from the store every followEvery and sends "progress" (done,
// total and the counts of the stored results) when done moved, and "done" once the run has
// ended, or its process is gone (it is then marked interrupted). Counting costs some 130 ms
// a million results, so a large run is counted at most once every 20 times what the last
// count took (its summary may then lag done by a few seconds): a stream costs a few
// percent of a core at most, and holds no more than the run's row.
func (s *Server) follow(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, run store.Run) {
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	ping := time.NewTicker(heartbeat)
	defer ping.Stop()
	last := -1
	var waiting *api.Waiting // what the run waits for, as its batches in the store say
	var sum engine.Summary
	var counted time.Time
	var cost time.Duration
	for {
		if run.Status != store.Queued && run.Status != store.Running {
			sendEvent(w, "done", doneOf(run, s.dir))
			rc.Flush()
			return
		}
		wait := s.waiting(run, nil)
		if run.Done != last || !reflect.DeepEqual(wait, waiting) {
			if sum.Examples != run.Done && time.Since(counted) >= 20*cost {
				began := time.Now()
				if c, err := s.st.Counts(run.ID); err == nil {
					sum = c
				}
				counted, cost = time.Now(), time.Since(began)
			}
			sendEvent(w, "progress", api.Progress{Done: run.Done, Total: run.Total, Summary: api.Summary(sum), Waiting: wait})
			last, waiting = run.Done, wait
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-tick.C:
		case <-ping.C:
			io.WriteString(w, ": ping\n\n")
			continue
		case <-r.Context().Done():
			return
		case <-s.runs.stopped:
			return
		}
		next, err := s.st.Peek(run.ID)
		if err != nil {
			return
		}
		run = s.settled(next)
	}
}

// sendEvent writes one event; a write error shows at the next flush.
func sendEvent(w io.Writer, name string, v any) {
	data, err := json.Marshal(v)
	if err != nil { // never: events are api's plain types
		data = []byte(`{"error":"internal error"}`)
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
}

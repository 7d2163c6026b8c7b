package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	ws "github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/store"
)

// Why a run's context ends (a user's cancel is workspace.ErrCancelled).
var (
	errShutdown    = errors.New("the server is shutting down")
	errStoreWrite  = errors.New("storing results failed")
	errClosing     = errors.New("the server is shutting down and takes no more runs")
	errNotExecuted = errors.New("this server is not executing the run")
	errQueueFull   = fmt.Errorf("%d runs are waiting to start, the most this server queues", MaxQueued)
)

// MaxQueued is how many runs may wait for a free slot beyond the --max-runs executing: a
// queued run holds its benchmark in memory and its row in the store, so an unbounded queue
// is unbounded memory and disk (300 queued runs of a 0.9 MB benchmark: 567 MB of memory,
// 273 MB of store). One more is refused with 429 until a run starts.
const MaxQueued = 32

// job is one execution of a run: a new run, or a resumed one.
type job struct {
	id     string
	plan   *ws.Plan
	opts   ws.Options // Concurrency, Limit
	resume bool       // reuse the results the store has
	total  int        // the total the store knows, for a resumed run

	ctx    context.Context
	cancel context.CancelCauseFunc
	events *broker
	stop   chan struct{} // engine.Options.Stop: closed by shutdown, under manager.mu
	done   chan struct{} // closed when the run's store record is final for this execution

	started bool // guarded by manager.mu: taken off the queue
	// engineStarted says the engine validated the dataset: a batch run's batches are done.
	engineStarted atomic.Bool
}

func newJob(plan *ws.Plan, opts ws.Options) *job {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &job{plan: plan, opts: opts, ctx: ctx, cancel: cancel, stop: make(chan struct{}),
		events: newBroker(api.Progress{}), done: make(chan struct{})}
}

// manager runs at most max runs at once; at most MaxQueued others wait in a queue, first in
// first out.
type manager struct {
	st  *store.Store
	dir string // the workspace
	max int
	log io.Writer

	mu      sync.Mutex
	active  map[string]*job // queued or running in this server
	queue   []*job
	running int
	closing bool

	wg      sync.WaitGroup // executing jobs
	stopped chan struct{}  // closed when shutdown is over
}

func newManager(st *store.Store, dir string, max int, log io.Writer) *manager {
	return &manager{st: st, dir: dir, max: max, log: log, active: map[string]*job{}, stopped: make(chan struct{})}
}

// enqueue records a run with record (which returns its id: a new run, or a resumed one
// moved back to queued) and queues it. Recording under the lock keeps a shutdown from
// missing a run, and a stream from seeing it queued in the store but not here.
func (m *manager) enqueue(j *job, record func() (string, error)) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing {
		return "", errClosing
	}
	if len(m.queue) >= MaxQueued {
		return "", errQueueFull
	}
	id, err := record()
	if err != nil {
		return "", err
	}
	j.id = id
	m.active[id] = j
	m.queue = append(m.queue, j)
	m.schedule()
	return id, nil
}

// full reports whether a run would be refused for the queue being full, as a cheap check
// before a request does any work; enqueue decides.
func (m *manager) full() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queue) >= MaxQueued
}

// fits reports whether n runs queued at once would all be taken: the free slots start
// some, the queue holds the rest. A cheap check before a request does any work, as full
// is; enqueueAll decides.
func (m *manager) fits(n int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.room() >= n
}

// room is how many runs may be queued now. Call it with mu held.
func (m *manager) room() int {
	free := 0
	if !m.closing {
		free = max(0, m.max-m.running)
	}
	return MaxQueued - len(m.queue) + free
}

// enqueueAll is enqueue for several jobs (POST /api/runs with systems): all of them are
// recorded and queued, or none, under one hold of the lock, so that another request
// cannot take the room between them. A record that fails takes the runs recorded before
// it out of the queue as cancelled, before any starts.
func (m *manager) enqueueAll(jobs []*job, record func(i int) (string, error)) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing {
		return nil, errClosing
	}
	if m.room() < len(jobs) {
		return nil, errQueueFull
	}
	ids := make([]string, len(jobs))
	for i := range jobs {
		id, err := record(i)
		if err != nil {
			for _, done := range ids[:i] {
				m.st.SetStatus(done, store.Cancelled) // best effort: the store just failed
			}
			return nil, err
		}
		ids[i] = id
	}
	for i, j := range jobs {
		j.id = ids[i]
		m.active[j.id] = j
		m.queue = append(m.queue, j)
	}
	m.schedule()
	return ids, nil
}

// schedule starts queued runs while there are free slots. Call it with mu held.
func (m *manager) schedule() {
	for !m.closing && m.running < m.max && len(m.queue) > 0 {
		j := m.queue[0]
		m.queue = m.queue[1:]
		j.started = true
		m.running++
		m.wg.Add(1)
		go m.execute(j)
	}
}

// get returns the job of run id, if this server is executing or queuing it.
func (m *manager) get(id string) *job {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.active[id]
}

// cancel stops run id: a queued run at once, a running one through its context.
func (m *manager) cancel(id string) error {
	m.mu.Lock()
	j := m.active[id]
	switch {
	case j == nil:
		m.mu.Unlock()
		return errNotExecuted
	case !j.started:
		defer m.mu.Unlock()
		m.queue = deleteJob(m.queue, j)
		return m.settleQueued(j, store.Cancelled)
	}
	m.mu.Unlock()
	j.cancel(ws.ErrCancelled)
	return nil
}

// settleQueued ends a job that never started. Call it with mu held.
func (m *manager) settleQueued(j *job, status store.Status) error {
	err := m.st.SetStatus(j.id, status)
	d := api.Done{Status: string(status)}
	if run, gerr := m.st.GetRun(j.id); gerr == nil {
		d = doneOf(run, m.dir)
	}
	j.events.finish(d)
	delete(m.active, j.id)
	close(j.done)
	j.cancel(nil) // release the context
	return err
}

func deleteJob(list []*job, j *job) []*job {
	for i, x := range list {
		if x == j {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// execute runs a job and records how it ended. The final status is written under mu, with
// the job leaving active: whoever sees the run finished in the store no longer finds it
// here, so it cannot be cancelled twice nor streamed as if it were going.
func (m *manager) execute(j *job) {
	defer m.wg.Done()
	end := m.run(j)
	m.mu.Lock()
	if err := end(); err != nil {
		fmt.Fprintf(m.log, "benchy: run %s: recording its end: %v\n", j.id, err)
	}
	if m.active[j.id] == j {
		delete(m.active, j.id)
	}
	m.running--
	m.schedule()
	m.mu.Unlock()
	d := api.Done{Status: string(store.Interrupted)}
	if run, err := m.st.GetRun(j.id); err == nil {
		d = doneOf(run, m.dir)
	} else {
		fmt.Fprintf(m.log, "benchy: run %s: %v\n", j.id, err)
	}
	j.events.finish(d)
	close(j.done)
	j.cancel(nil) // release the context
}

// run executes a job with the run service `benchy run` uses (workspace.Execute), storing
// each result as it comes, and returns what records the run's end, by the one rule of
// workspace.Ending: completed with its report, aborted, cancelled by a user, or
// interrupted (a shutdown, or results that could not be stored: resuming evaluates what is
// missing). A shutdown stops the engine (engine.Options.Stop): the examples started finish
// and are stored, and the run is interrupted unless they were its last.
func (m *manager) run(j *job) (end func() error) {
	logf := func(format string, args ...any) {
		fmt.Fprintf(m.log, "benchy: run %s: %s\n", j.id, fmt.Sprintf(format, args...))
	}
	record := func(e ws.End) func() error {
		return func() error { return e.Record(m.st, j.id) }
	}
	if cause := context.Cause(j.ctx); cause != nil { // ended before it started
		return record(ws.Ending(j.ctx, nil, cause, nil))
	}
	select {
	case <-j.stop: // the server is shutting down: resume starts it
		return record(ws.Ending(j.ctx, nil, engine.ErrStopped, nil))
	default:
	}
	if err := m.st.MarkRunning(j.id, j.total); err != nil {
		logf("cannot start: %v", err)
		return record(ws.Ending(j.ctx, nil, err, err))
	}
	opts := j.opts
	opts.Stop = j.stop
	if j.resume {
		opts.Prior = m.st.Prior(j.id).Get
	}
	evaluated := 0
	watched := make(chan struct{})
	defer close(watched)
	go m.watch(j, watched)
	e := ws.Execute(j.ctx, j.plan, opts, ws.Record{Store: m.st, ID: j.id}, ws.Observer{
		Result: func(res engine.ExampleResult, reused bool) {
			if !reused {
				evaluated++
			}
			j.events.example(api.Example{Index: res.Index, Status: string(res.Status), Score: res.Score})
		},
		Progress: func(p engine.Progress) {
			rate := 0.0
			if s := p.Elapsed.Seconds(); s > 0 {
				rate = float64(evaluated) / s
			}
			j.events.setProgress(api.Progress{Done: p.Done, Total: p.Total, Summary: api.Summary(p.Summary), Rate: rate})
		},
		Validated: func(v engine.Validated) {
			j.engineStarted.Store(true)
			if _, ok := j.events.snapshot(); !ok { // a resumed run has its progress already
				j.events.setProgress(api.Progress{Total: v.Total})
			}
		},
		StoreFailed: func(err error) { j.cancel(fmt.Errorf("%w: %v", errStoreWrite, err)) },
		Warn:        func(err error) { logf("%v", err) },
	})
	switch {
	case e.StoreErr != nil:
		logf("interrupted: %v", e.StoreErr)
	case e.Status == store.Interrupted && !errors.Is(e.Err, engine.ErrStopped) && !errors.Is(context.Cause(j.ctx), errShutdown):
		logf("interrupted: %v", e.Err)
	}
	return record(e)
}

// shutdown stops taking runs and ends those of this server: queued ones at once, running
// ones through engine.Options.Stop (the examples started finish and are stored), and what
// is still going at ctx's end through its context. A second call waits for the first.
func (m *manager) shutdown(ctx context.Context) error {
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		<-m.stopped
		return nil
	}
	m.closing = true
	var errs []error
	for _, j := range m.queue {
		errs = append(errs, m.settleQueued(j, store.Interrupted))
	}
	m.queue = nil
	running := make([]*job, 0, len(m.active))
	for _, j := range m.active {
		running = append(running, j)
		close(j.stop) // once: a job is active in one manager, which shuts down once
	}
	m.mu.Unlock()

	var cut atomic.Bool
	var wg sync.WaitGroup
	for _, j := range running {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-j.done:
			case <-ctx.Done():
				select {
				case <-j.done:
				default:
					cut.Store(true)
				}
				j.cancel(errShutdown)
			}
		}()
	}
	wg.Wait()
	m.wg.Wait()
	close(m.stopped)
	if cut.Load() {
		errs = append(errs, fmt.Errorf("runs cut short: %w", context.Cause(ctx)))
	}
	return errors.Join(errs...)
}

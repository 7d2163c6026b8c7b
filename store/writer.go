package store

import (
	"errors"
	"sync"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// Batching bounds: a batch commits when it holds batchSize results or its oldest result has
// waited flushEvery, whichever comes first. One commit per 1,000 results keeps storage far
// faster than any AI-system; 100 ms bounds what a crash can lose of what the engine reported.
const (
	batchSize  = 1000
	flushEvery = 100 * time.Millisecond
)

// ErrClosed is returned by a Writer used after Close.
var ErrClosed = errors.New("results writer closed")

// Writer stores the example results of one run in batched transactions, and counts them in
// runs.done in the same transactions. Add, Flush and Close are meant for one goroutine; a
// timer flushes a batch that waits too long.
//
// A full batch is committed in the background while Add goes on buffering the next: a
// commit waits for its fsync (synchronous=FULL), and Add runs on the engine's writing loop,
// which stalled for it, and the workers behind it once the run's window filled
// (TestAddDoesNotWaitForCommit: 1,500 results added in 57 ms while a commit waits on the
// database's lock, where Add waited for it). Commits stay one at a time and in order; a
// background commit's error is reported by the next call, its rows kept for the next try;
// Flush and Close wait for every commit. When commits fall behind by maxBuffered results,
// Add waits for them, so memory stays bounded.
//
// Results are write-once: adding an index the run already has keeps the stored result, so
// a resumed run may add every result again.
type Writer struct {
	s     *Store
	runID string

	lines engine.LineEncoder // each result's JSON, as the results stream has it

	enums   []labelledEnum // Labels' enums
	counted []bool         // which of them the run's cells are counted of; nil before the first commit; commit guards it

	commit sync.Mutex // held while rows are committed: one batch at a time, in order

	mu      sync.Mutex // guards what follows, shared with the timer and the background commit
	rows    []row
	timer   *time.Timer
	err     error // of a commit no caller waited for, for the next call to report
	closed  bool
	pending bool // a background commit is started
}

// maxBuffered is how many results Add buffers while commits are behind before it waits.
const maxBuffered = 4 * batchSize

type row struct {
	idx          int
	status       string
	score        any // nil or float64
	contribution float64
	latency      any // nil or the model call's milliseconds
	result       string
	code         any   // nil or the error's code
	example      any   // nil or the dataset row (engine.ExampleResult.Row)
	wrong        []int // a valid result's dimensions that scored 0
	request      any   // nil or the rendered request
	labels       []label
}

// ResultWriter returns a writer that stores the results of run id.
func (s *Store) ResultWriter(id string, opts ...WriterOption) *Writer {
	w := &Writer{s: s, runID: id, rows: make([]row, 0, batchSize)}
	for _, o := range opts {
		o(w)
	}
	return w
}

// Add buffers one result, starting the batch's commit when it is full.
func (w *Writer) Add(res engine.ExampleResult) error {
	r, err := w.rowOf(&res)
	if err != nil {
		return err
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return ErrClosed
	}
	w.rows = append(w.rows, r)
	n := len(w.rows)
	err = w.takeErr()
	switch {
	case n >= maxBuffered:
		w.mu.Unlock()
		if ferr := w.flush(); ferr != nil {
			return ferr
		}
		return err
	case n >= batchSize && !w.pending:
		w.pending = true
		go w.background()
	case n < batchSize && w.timer == nil:
		w.timer = time.AfterFunc(flushEvery, w.timed)
	}
	w.mu.Unlock()
	return err
}

// background commits full batches until fewer than a batch are buffered.
func (w *Writer) background() {
	w.commit.Lock()
	defer w.commit.Unlock()
	for {
		w.mu.Lock()
		if w.closed || len(w.rows) < batchSize {
			w.pending = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		if err := w.commitRows(); err != nil {
			w.mu.Lock()
			w.err, w.pending = err, false
			w.mu.Unlock()
			return
		}
	}
}

// rowOf is res as the row Add stores.
func (w *Writer) rowOf(res *engine.ExampleResult) (row, error) {
	line, err := w.lines.Line(res)
	if err != nil {
		return row{}, err
	}
	r := row{idx: res.Index, status: string(res.Status), contribution: res.Contribution, result: string(line)}
	if res.Score != nil {
		r.score = *res.Score
	}
	if res.Usage != nil {
		r.latency = res.Usage.LatencyMS
	}
	if res.Error != nil {
		r.code = string(res.Error.Code)
	}
	if len(res.Row) > 0 {
		r.example = string(res.Row)
	}
	if res.Request != "" {
		r.request = res.Request
	}
	r.labels = labelsOf(w.enums, res)
	if res.Status == engine.StatusValid {
		for d, fs := range res.FieldScores {
			if fs.Score == 0 {
				r.wrong = append(r.wrong, d)
			}
		}
	}
	return r, nil
}

// Flush commits what is buffered, after any commit under way.
func (w *Writer) Flush() error {
	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return ErrClosed
	}
	return w.flush()
}

// Close flushes and retires the writer.
func (w *Writer) Close() error {
	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return nil
	}
	err := w.flush()
	w.mu.Lock()
	w.closed = true
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.mu.Unlock()
	return err
}

func (w *Writer) timed() {
	w.mu.Lock()
	w.timer = nil
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return
	}
	w.commit.Lock()
	err := w.commitRows()
	w.commit.Unlock()
	if err != nil {
		w.mu.Lock()
		w.err = err
		w.mu.Unlock()
	}
}

// takeErr returns, once, the error of a commit no caller waited for. w.mu is held.
func (w *Writer) takeErr() error {
	err := w.err
	w.err = nil
	return err
}

// flush commits everything buffered, once the commit under way is done: its error, or nil
// when all is stored (an earlier commit's error is then past).
func (w *Writer) flush() error {
	w.commit.Lock()
	defer w.commit.Unlock()
	err := w.commitRows()
	w.mu.Lock()
	w.err = nil
	w.mu.Unlock()
	return err
}

// commitRows commits the buffered rows; w.commit is held, w.mu is not. On failure they go
// back in front of what was buffered since, for the next try.
func (w *Writer) commitRows() error {
	w.mu.Lock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	batch := w.rows
	w.rows = make([]row, 0, batchSize)
	w.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := w.s.insert(w.runID, batch, w); err != nil {
		w.mu.Lock()
		w.rows = append(batch, w.rows...)
		w.mu.Unlock()
		return err
	}
	return nil
}

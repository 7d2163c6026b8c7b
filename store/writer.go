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
// Results are write-once: adding an index the run already has keeps the stored result, so
// a resumed run may add every result again.
type Writer struct {
	s     *Store
	runID string

	lines engine.LineEncoder // each result's JSON, as the results stream has it

	enums   []labelledEnum // Labels' enums
	counted []bool         // which of them the run's cells are counted of; nil before the first commit

	mu     sync.Mutex // guards what follows, shared with the timer
	rows   []row
	timer  *time.Timer
	err    error // of a timed flush, for the next call to report
	closed bool
}

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

// Add buffers one result, committing the batch when it is full.
func (w *Writer) Add(res engine.ExampleResult) error {
	r, err := w.rowOf(&res)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	w.rows = append(w.rows, r)
	if len(w.rows) >= batchSize {
		return w.flushLocked()
	}
	if w.timer == nil {
		w.timer = time.AfterFunc(flushEvery, w.timed)
	}
	return w.takeErr()
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

// Flush commits what is buffered.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	return w.flushLocked()
}

// Close flushes and retires the writer.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	err := w.flushLocked()
	w.closed = true
	return err
}

func (w *Writer) timed() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.timer = nil
	if !w.closed {
		w.err = w.flushLocked()
	}
}

// takeErr returns, once, the error of a timed flush.
func (w *Writer) takeErr() error {
	err := w.err
	w.err = nil
	return err
}

// flushLocked commits the buffered rows. On failure they stay buffered for the next try.
func (w *Writer) flushLocked() error {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.err = nil
	if len(w.rows) == 0 {
		return nil
	}
	if err := w.s.insert(w.runID, w.rows, w); err != nil {
		return err
	}
	clear(w.rows) // drop the strings
	w.rows = w.rows[:0]
	return nil
}

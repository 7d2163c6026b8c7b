package store

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
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

	buf bytes.Buffer
	enc *json.Encoder

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
}

// ResultWriter returns a writer that stores the results of run id.
func (s *Store) ResultWriter(id string) *Writer {
	w := &Writer{s: s, runID: id, rows: make([]row, 0, batchSize)}
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false) // as the engine's results stream
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
	w.buf.Reset()
	if err := w.enc.Encode(res); err != nil {
		return row{}, err
	}
	r := row{idx: res.Index, status: string(res.Status), contribution: res.Contribution,
		result: string(bytes.TrimSuffix(w.buf.Bytes(), []byte{'\n'}))}
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
	if err := w.s.insert(w.runID, w.rows); err != nil {
		return err
	}
	clear(w.rows) // drop the strings
	w.rows = w.rows[:0]
	return nil
}

// insertChunk is how many rows one INSERT statement carries: fewer statements to step
// through the driver, within SQLite's limit of 32,766 parameters.
const insertChunk = 100

// insertSQL returns an INSERT of n rows.
func insertSQL(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO results (run_id, idx, status, score, contribution, latency_ms, result, error_code, example) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?)")
	}
	b.WriteString(" ON CONFLICT DO NOTHING")
	return b.String()
}

var insertFull = insertSQL(insertChunk)

// insert stores rows in one transaction and adds the new ones to runs.done.
func (s *Store) insert(runID string, rows []row) error {
	tx, err := s.w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	args := make([]any, 0, 9*insertChunk)
	added := int64(0)
	var wrong []any // run_id, dim, idx of the rows inserted
	for len(rows) > 0 {
		n := min(len(rows), insertChunk)
		args = args[:0]
		for _, r := range rows[:n] {
			args = append(args, runID, r.idx, r.status, r.score, r.contribution, r.latency, r.result, r.code, r.example)
		}
		var res sql.Result
		if n == insertChunk {
			res, err = tx.Stmt(s.ins).Exec(args...)
		} else {
			res, err = tx.Exec(insertSQL(n), args...)
		}
		if err != nil {
			return err
		}
		k, _ := res.RowsAffected()
		added += k
		if k == int64(n) { // all new: their wrong dimensions are the ones just added
			for _, r := range rows[:n] {
				for _, d := range r.wrong {
					wrong = append(wrong, runID, d, r.idx)
				}
			}
		} else if err := wrongFromStored(tx, runID, rows[:n]); err != nil {
			// Some were stored before (a resume adding them again): the stored results
			// stand, so their wrong dimensions are read from what is stored.
			return err
		}
		rows = rows[n:]
	}
	if err := insertWrong(tx, wrong); err != nil {
		return err
	}
	if _, err := tx.Exec(`UPDATE runs SET done = done + ? WHERE id = ?`, added, runID); err != nil {
		return err
	}
	return tx.Commit()
}

// wrongChunk is how many result_wrong rows one INSERT carries (3 parameters each).
const wrongChunk = 300

// insertWrong stores the (run_id, dim, idx) triples of args in result_wrong.
func insertWrong(tx *sql.Tx, args []any) error {
	for len(args) > 0 {
		n := min(len(args)/3, wrongChunk)
		q := "INSERT OR IGNORE INTO result_wrong (run_id, dim, idx) VALUES " +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", n), ", ")
		if _, err := tx.Exec(q, args[:3*n]...); err != nil {
			return err
		}
		args = args[3*n:]
	}
	return nil
}

// wrongFromStored fills result_wrong for the indices of rows from their stored results.
func wrongFromStored(tx *sql.Tx, runID string, rows []row) error {
	lo, hi := rows[0].idx, rows[0].idx
	for _, r := range rows {
		lo, hi = min(lo, r.idx), max(hi, r.idx)
	}
	_, err := tx.Exec(`INSERT OR IGNORE INTO result_wrong (run_id, dim, idx)
		SELECT r.run_id, f.key, r.idx FROM results r, json_each(r.result, '$.field_scores') f
		WHERE r.run_id = ? AND r.idx BETWEEN ? AND ? AND r.status = 'valid' AND f.value ->> '$.score' = 0`, runID, lo, hi)
	return err
}

package store

import (
	"database/sql"
	"encoding/json"
	"strings"
)

// insertChunk is how many rows one INSERT statement carries: fewer statements to step
// through the driver, within SQLite's limit of 32,766 parameters.
const insertChunk = 100

// insertColumns is how many parameters a row of insertSQL takes.
const insertColumns = 10

// insertSQL returns an INSERT of n rows.
func insertSQL(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO results (run_id, idx, status, score, contribution, latency_ms, result, error_code, example, request) VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
	}
	b.WriteString(" ON CONFLICT DO NOTHING")
	return b.String()
}

var insertFull = insertSQL(insertChunk)

// insert stores the rows of w (a Writer's, or one the benchmarks fill) in one transaction
// with what they add to result_wrong, result_counts and runs.done. Only rows whose index
// the run has not stored count: a resume adding stored results again keeps them and their
// counts as they are.
func (s *Store) insert(runID string, rows []row, w *Writer) error {
	tx, err := s.w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	counted := w.counted
	if counted == nil {
		if counted, err = startLabels(tx, runID, w.enums); err != nil {
			return err
		}
	}
	if rows, err = fresh(tx, runID, rows); err != nil {
		return err
	}
	args := make([]any, 0, insertColumns*insertChunk)
	var wrong []any                // run_id, dim, idx of the rows inserted
	t, added := tally{}, len(rows) // in the write transaction, no one else adds them
	for k := range rows {
		r := &rows[k]
		for _, d := range r.wrong {
			wrong = append(wrong, runID, d, r.idx)
		}
		t.count(r, w.enums, counted)
	}
	for len(rows) > 0 {
		n := min(len(rows), insertChunk)
		args = args[:0]
		for _, r := range rows[:n] {
			args = append(args, runID, r.idx, r.status, r.score, r.contribution, r.latency, r.result, r.code, r.example, r.request)
		}
		if n == insertChunk {
			_, err = tx.Stmt(s.ins).Exec(args...)
		} else {
			_, err = tx.Exec(insertSQL(n), args...)
		}
		if err != nil {
			return err
		}
		rows = rows[n:]
	}
	if err := insertWrong(tx, wrong); err != nil {
		return err
	}
	if err := t.store(tx, runID); err != nil {
		return err
	}
	if _, err := tx.Exec(`UPDATE runs SET done = done + ? WHERE id = ?`, added, runID); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	w.counted = counted
	return nil
}

// fresh is rows without those whose index run id has stored, or that an earlier row of
// rows has: the ones the insert adds. A new run's batch costs one seek of the primary key.
func fresh(tx *sql.Tx, runID string, rows []row) ([]row, error) {
	if len(rows) == 0 {
		return rows, nil
	}
	lo, hi := rows[0].idx, rows[0].idx
	for _, r := range rows {
		lo, hi = min(lo, r.idx), max(hi, r.idx)
	}
	var q *sql.Rows
	var err error
	if hi-lo < 8*len(rows) { // a range of the index: batches come about in order
		q, err = tx.Query(`SELECT idx FROM results WHERE run_id = ? AND idx BETWEEN ? AND ?`, runID, lo, hi)
	} else { // scattered (a resume's few missing examples): seek each
		idx := make([]int, len(rows))
		for k, r := range rows {
			idx[k] = r.idx
		}
		list, _ := json.Marshal(idx)
		q, err = tx.Query(`SELECT idx FROM results WHERE run_id = ? AND idx IN (SELECT value FROM json_each(?))`, runID, string(list))
	}
	if err != nil {
		return nil, err
	}
	seen := make(map[int]bool, len(rows))
	for q.Next() {
		var i int
		if err := q.Scan(&i); err != nil {
			q.Close()
			return nil, err
		}
		seen[i] = true
	}
	if err := closeRows(q); err != nil {
		return nil, err
	}
	var out []row
	copying := false
	for k, r := range rows {
		if seen[r.idx] {
			if !copying { // the first one left out: copy the rest
				out, copying = append(make([]row, 0, len(rows)), rows[:k]...), true
			}
			continue
		}
		seen[r.idx] = true
		if copying {
			out = append(out, r)
		}
	}
	if !copying {
		return rows, nil
	}
	return out, nil
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

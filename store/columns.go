package store

import (
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/benchy-eval/benchy/engine"
)

// Outcome is what a leaderboard needs of one stored result: its columns, without the
// result's JSON.
type Outcome struct {
	Index        int
	Status       engine.Status
	Contribution float64
	LatencyMS    float64
	HasLatency   bool // whether the result recorded a model call's latency
}

// Outcomes calls fn with the outcome of each stored result of run id, in index order. It
// reads the result columns alone (no JSON decode): a leaderboard of ten runs of 100,000
// examples reads a million of them.
func (s *Store) Outcomes(id string, fn func(Outcome) error) error {
	rows, err := s.r.Query(`SELECT idx, status, contribution, latency_ms FROM results WHERE run_id = ? ORDER BY idx`, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	var status sql.RawBytes
	var latency sql.NullFloat64
	var o Outcome
	for rows.Next() {
		if err := rows.Scan(&o.Index, &status, &o.Contribution, &latency); err != nil {
			return err
		}
		o.Status = statusOf(status)
		o.LatencyMS, o.HasLatency = latency.Float64, latency.Valid
		if err := fn(o); err != nil {
			return err
		}
	}
	return rows.Err()
}

// statusOf is the engine's status spelled by b, without allocating for the three known.
func statusOf(b []byte) engine.Status {
	for _, s := range []engine.Status{engine.StatusValid, engine.StatusInvalidOutput, engine.StatusExecutionError} {
		if string(b) == string(s) {
			return s
		}
	}
	return engine.Status(b)
}

// ResultsAt returns the stored JSON of the results of run id at the indices given
// (those the run has), by index: one page of an example grid, in one query per 500.
func (s *Store) ResultsAt(id string, indices []int) (map[int]json.RawMessage, error) {
	out := make(map[int]json.RawMessage, len(indices))
	for len(indices) > 0 {
		n := min(len(indices), 500)
		args := make([]any, 0, n+1)
		args = append(args, id)
		for _, i := range indices[:n] {
			args = append(args, i)
		}
		rows, err := s.r.Query(`SELECT idx, result FROM results WHERE run_id = ? AND idx IN (`+
			strings.TrimSuffix(strings.Repeat("?, ", n), ", ")+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var idx int
			var body []byte
			if err := rows.Scan(&idx, &body); err != nil {
				rows.Close()
				return nil, err
			}
			out[idx] = body
		}
		if err := closeRows(rows); err != nil {
			return nil, err
		}
		indices = indices[n:]
	}
	return out, nil
}

// closeRows closes rows, returning the first error of the reading or the closing.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

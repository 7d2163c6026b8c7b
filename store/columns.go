package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"

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

// outcomesQuery reads the result columns of one run: the index and the status in one
// integer (idx*4 + a status code, statusCodes' order), so that the driver hands over
// three numbers a row, no text.
const outcomesQuery = `SELECT idx * 4 + CASE status WHEN 'valid' THEN 0 WHEN 'invalid_output' THEN 1
	WHEN 'execution_error' THEN 2 ELSE 3 END, contribution, latency_ms FROM results WHERE run_id = ? ORDER BY idx`

// statusCodes are the statuses of outcomesQuery's codes; 3 is any other ("").
var statusCodes = [4]engine.Status{engine.StatusValid, engine.StatusInvalidOutput, engine.StatusExecutionError, ""}

// Outcomes calls fn with the outcome of each stored result of run id, in index order. It
// reads the result columns alone (no JSON decode): a leaderboard of ten runs of 100,000
// examples reads a million of them. It steps the driver's rows itself, beside
// database/sql, and has SQLite fold the status into the index: of a run's 100,000 rows,
// Scan of the four columns took 155 ms, the driver's values of them 89 ms of CPU, of the
// three numbers 63 ms (a board of 10 such runs is to be read in a second, on 2 cores).
// A status other than the engine's three reads as "". TestOutcomes holds it to the
// results' JSON.
//
// A completed run's sealed outcomes (sealed.go) are read instead when it has them.
func (s *Store) Outcomes(id string, fn func(Outcome) error) error {
	if ok, err := s.sealed(id, fn); ok {
		return err
	}
	return s.rows(id, fn)
}

// rows is Outcomes from the results table.
func (s *Store) rows(id string, fn func(Outcome) error) error {
	ctx := context.Background()
	conn, err := s.r.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		q, ok := dc.(driver.QueryerContext)
		if !ok {
			return fmt.Errorf("store: the SQLite driver's connection is a %T, not a QueryerContext", dc)
		}
		rows, err := q.QueryContext(ctx, outcomesQuery, []driver.NamedValue{{Ordinal: 1, Value: id}})
		if err != nil {
			return err
		}
		defer rows.Close()
		dest := make([]driver.Value, 3)
		for {
			switch err := rows.Next(dest); {
			case err == io.EOF:
				return nil
			case err != nil:
				return err
			}
			o, err := outcomeOf(dest)
			if err == nil {
				err = fn(o)
			}
			if err != nil {
				return err
			}
		}
	})
}

// outcomeOf reads a row of outcomesQuery as the driver gives it.
func outcomeOf(v []driver.Value) (Outcome, error) {
	var o Outcome
	key, ok := v[0].(int64)
	if !ok {
		return o, fmt.Errorf("store: a result's index is a %T", v[0])
	}
	o.Index, o.Status = int(key>>2), statusCodes[key&3]
	var err error
	if o.Contribution, ok, err = number(v[1]); err != nil || !ok {
		return o, fmt.Errorf("store: result %d's contribution is a %T", o.Index, v[1])
	}
	if o.LatencyMS, o.HasLatency, err = number(v[2]); err != nil {
		return o, fmt.Errorf("store: result %d's latency is a %T", o.Index, v[2])
	}
	return o, nil
}

// number is a REAL column's value (SQLite may hand back a whole number as an integer),
// and whether it is not NULL.
func number(v driver.Value) (float64, bool, error) {
	switch x := v.(type) {
	case float64:
		return x, true, nil
	case int64:
		return float64(x), true, nil
	case nil:
		return 0, false, nil
	}
	return 0, false, fmt.Errorf("%T", v)
}

// closeRows closes rows, returning the first error of the reading or the closing.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

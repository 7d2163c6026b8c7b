package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// What a leaderboard reads of the runs table: the latest completed full run of each
// AI-system of one benchmark and dataset, and the datasets the benchmark's runs took,
// selected in SQL over the runs_by_benchmark_hash index. A board once listed every
// completed run of its benchmark and decoded each report: 2.5 s a request at 50,000 runs,
// and beyond 100,000 the older systems dropped off. These read the few runs a board shows.

// systemKey is the identity a board has one row per: the system's hash, or for a run
// without one (none since migration 3 backfilled them) the run itself.
const systemKey = `CASE system_hash WHEN '' THEN 'run:' || id ELSE system_hash END`

// Leaders returns, of the completed runs of benchmark hash benchmarkHash on dataset
// digest, the latest full run (Full, here in SQL) of each AI-system, latest finished
// first (the later id of two finished together).
func (s *Store) Leaders(benchmarkHash, digest string) ([]Run, error) {
	// finished_at has a fixed width (timeFormat): the greatest finished_at || id is the
	// latest finished, then the later id.
	rows, err := s.r.Query(`SELECT `+runColumns+` FROM runs WHERE id IN (
		SELECT substr(max(finished_at || id), ?) FROM runs
		WHERE benchmark_hash = ? AND dataset_digest = ? AND status = 'completed' AND finished_at IS NOT NULL
			AND (instr(options, '"limit"') = 0 OR coalesce(json_extract(options, '$.limit'), 0) = 0
				OR json_extract(options, '$.limit') > coalesce(json_extract(summary, '$.examples'), 0))
		GROUP BY `+systemKey+`)
		ORDER BY finished_at DESC, id DESC`, len(timeFormat)+1, benchmarkHash, digest)
	if err != nil {
		return nil, err
	}
	var out []Run
	for rows.Next() {
		var r Run
		if err := scanRun(rows, &r); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	return out, closeRows(rows)
}

// Full says run r took the whole dataset: no --limit, or one above the examples it
// evaluated (a larger limit took them all). It is the rule Leaders applies in SQL, for
// callers that hold the run: a run that is not Full is partial, the first N examples.
func Full(r Run) bool {
	examples := 0
	if r.Summary != nil {
		examples = r.Summary.Examples
	}
	return r.Options.Limit == 0 || r.Options.Limit > examples
}

// CoverDataset records that run id's limit covers its whole dataset (the dataset has no
// more examples than it): the run took them all, so it is a full run, ranked and shown as
// one, and its limit is dropped. A limit of exactly the dataset's size counted as partial
// (Full needs a limit above the examples evaluated, not knowing the dataset's size).
func (s *Store) CoverDataset(id string) error {
	res, err := s.w.Exec(`UPDATE runs SET options = json_remove(options, '$.limit') WHERE id = ?`, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	return fmt.Errorf("run %s: %w", id, ErrNotFound)
}

// DatasetCount is a dataset the completed runs of a benchmark took, and how many
// AI-systems took it.
type DatasetCount struct {
	Digest  string
	Systems int
}

// Datasets lists the datasets the completed runs of benchmark hash benchmarkHash took,
// the newest run's first, and counts the completed runs that recorded none.
func (s *Store) Datasets(benchmarkHash string) ([]DatasetCount, int, error) {
	rows, err := s.r.Query(`SELECT dataset_digest, count(DISTINCT `+systemKey+`), count(*), max(id) AS newest
		FROM runs WHERE benchmark_hash = ? AND status = 'completed'
		GROUP BY dataset_digest ORDER BY newest DESC`, benchmarkHash)
	if err != nil {
		return nil, 0, err
	}
	out, unrecorded := []DatasetCount{}, 0
	for rows.Next() {
		var d DatasetCount
		var n int
		var newest string
		if err := rows.Scan(&d.Digest, &d.Systems, &n, &newest); err != nil {
			rows.Close()
			return nil, 0, err
		}
		if d.Digest == "" {
			unrecorded = n
			continue
		}
		out = append(out, d)
	}
	return out, unrecorded, closeRows(rows)
}

// CompletedRuns counts the completed runs of benchmark hash benchmarkHash and names the
// greatest id among them, from the index alone. A completed run stays completed and runs
// are never deleted, so the count grows with every run that completes; with the id (ids
// are random past their millisecond) the two name one state of one store: what a cache
// of Leaders and Datasets is valid for.
func (s *Store) CompletedRuns(benchmarkHash string) (n int, newest string, err error) {
	err = s.r.QueryRow(`SELECT count(*), coalesce(max(id), '') FROM runs WHERE benchmark_hash = ? AND status = 'completed'`,
		benchmarkHash).Scan(&n, &newest)
	return n, newest, err
}

// Cells reads the results of run id at indices for the example grid, as pages show them
// (Shown): SQLite cuts each prediction and error, so that a page of long ones (an
// adapter's line may be 64 MiB, an extra_field error's key in its path and message as
// long) never holds them whole: only one result's text at a time is, inside SQLite.
func (s *Store) Cells(id string, indices []int) (map[int]Shown, error) {
	out := make(map[int]Shown, len(indices))
	for len(indices) > 0 {
		n := min(len(indices), 500)
		args := []any{id}
		for _, i := range indices[:n] {
			args = append(args, i)
		}
		rows, err := s.r.Query(`SELECT `+shownColumns+` FROM results WHERE run_id = ? AND idx IN (`+
			strings.TrimSuffix(strings.Repeat("?, ", n), ", ")+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			sh, err := scanShown(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out[sh.Index] = sh
		}
		if err := closeRows(rows); err != nil {
			return nil, err
		}
		indices = indices[n:]
	}
	return out, nil
}

// rawOr is the JSON text v, or def when it is NULL (a member the result lacks).
func rawOr(v sql.NullString, def string) json.RawMessage {
	if !v.Valid || v.String == "" {
		return json.RawMessage(def)
	}
	return json.RawMessage(v.String)
}

package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// ResultFilter selects a run's results, as api.Filter does for the results explorer; the
// zero ResultFilter selects all of them, in index order. The conditions combine with AND.
type ResultFilter struct {
	Status    engine.Status
	Imperfect bool     // contribution below 1 (a score below 1, or no score)
	Wrong     []string // a dimension's path: valid examples whose field scored 0
	Code      string   // examples whose error has this code
	// Text is a substring of the prediction's JSON text, the error message, or the dataset
	// row's input or expected output (their JSON text, keys included; rows are recorded
	// since migration 5). Case folds for ASCII letters only (SQLite's lower()): "INVOICE"
	// finds "invoice", "É" does not find "é". A needle with a quote, a backslash or a
	// control character is also sought as JSON escapes it.
	Text    string
	Cell    *Cell       // a confusion cell
	Score   *ScoreRange // valid results whose score is in the range: a bar of the histogram
	ByScore bool        // contribution ascending, then index (api.SortScore); else index order
}

// ScoreRange selects valid results whose score s has Min ≤ s < Max, or s ≤ 1 when Max is
// 1; Min and Max both 1 is exactly 1. The histogram's bin [0.4, 0.5) is {0.4, 0.5}, its
// perfect bar {1, 1}.
type ScoreRange struct {
	Min, Max float64
	// Open leaves Max out even when it is 1: a range with Imperfect (contribution below
	// 1), the histogram's bin [0.9, 1), which planOf makes so.
	Open bool
}

// cond is the range as a condition on a valid result's contribution (its score).
func (r ScoreRange) cond() (string, []any) {
	switch {
	case r.Min == 1 && !r.Open:
		return "r.contribution = 1", nil
	case r.Max == 1 && !r.Open:
		return "r.contribution >= ? AND r.contribution <= 1", []any{r.Min}
	}
	return "r.contribution >= ? AND r.contribution < ?", []any{r.Min, r.Max}
}

// walksIndex reports whether the range is walked in index order by the contribution
// index: exactly 1, where (contribution, idx) is idx order.
func (r ScoreRange) walksIndex() bool { return r.Min == 1 && !r.Open }

// Cell is one cell of an enum dimension's confusion matrix: valid examples whose dataset
// row expects Expected at Path and whose prediction has Predicted there.
type Cell struct {
	Path      []string
	Expected  string
	Predicted string
}

// IsZero reports whether f selects every result in index order.
func (f ResultFilter) IsZero() bool {
	return f.Status == "" && !f.Imperfect && len(f.Wrong) == 0 && f.Code == "" && f.Text == "" && f.Cell == nil && f.Score == nil && !f.ByScore
}

// ErrUnknownDimension is wrapped by the error for a Wrong or Cell path that names no
// scoring dimension of the run, or one that cannot be a JSON path.
var ErrUnknownDimension = errors.New("no such scoring dimension")

// scanBudget is how many rows one call reads past the ones it keeps when a condition is
// not the index it walks (a text search, a confusion cell, a second condition): it then
// returns what it found with the next page's start, and says so (Page.Scanned). 30,000
// rows keep a page of a 1,000,000-result run within 200 ms (BenchmarkPages).
var scanBudget = 30_000 // a variable for the tests

// scanTime bounds a page's scan in time as well, on a loaded machine: a text search reads
// some 16 µs a row (JSON of the prediction and the row, folded), so 30,000 rows could take
// half a second when other work shares the cores.
var scanTime = 120 * time.Millisecond

// plan is a filter as SQL: the index it walks (from, where, order), and what each row
// of it must also meet (residual, args after the walk's).
type plan struct {
	from     string // FROM clause, with the results table as r
	where    string // the walk's conditions, after run_id
	args     []any
	order    string
	residual []string
	rargs    []any
	byScore  bool        // the walk seeks on (contribution, idx)
	counted  bool        // the filter is the walk alone: count(*) of it is the filter's count
	score    *ScoreRange // counted: the filter is this range (countRange)
}

// planOf turns f into the walk over one index and residual conditions. The walk is the
// most selective condition an index serves: a wrong dimension (result_wrong), an error
// code, a status, imperfect, or every result; sort by score walks (contribution, idx)
// unless the walk only holds results without a score (an error code, a status other
// than valid), whose contributions are all 0, so that index order is score order.
func (s *Store) planOf(id string, f ResultFilter) (plan, error) {
	if f.Score != nil && f.Imperfect { // a valid result below 1: the range open at 1
		r := *f.Score
		r.Open, f.Score, f.Imperfect = true, &r, false
	}
	p := plan{from: "results r", order: "r.idx"}
	walked := ""
	switch {
	case f.Score != nil && (f.ByScore || f.Score.walksIndex()):
		// The range seeks (run_id, contribution, idx): its rows in score order, which for
		// exactly 1 is index order. Other conditions are residual.
		p.from, p.order, p.byScore = "results r INDEXED BY results_by_contribution", "r.contribution, r.idx", true
		p.where, p.args = f.Score.cond()
		walked = "range"
	case len(f.Wrong) > 0:
		dim, err := s.dimension(id, f.Wrong)
		if err != nil {
			return p, err
		}
		// CROSS JOIN keeps result_wrong the outer loop: SQLite walked results first.
		p.from = "result_wrong w CROSS JOIN results r ON r.run_id = w.run_id AND r.idx = w.idx"
		p.where, p.args, p.order, walked = "w.dim = ?", []any{dim}, "w.idx", "wrong"
	case f.Code != "":
		p.from = "results r INDEXED BY results_by_code"
		p.where, p.args, walked = "r.error_code = ?", []any{f.Code}, "code"
	case f.Status != "":
		p.from = "results r INDEXED BY results_by_status"
		p.where, p.args, walked = "r.status = ?", []any{string(f.Status)}, "status"
	case f.Imperfect:
		p.from = "results r INDEXED BY results_imperfect"
		p.where, walked = "r.contribution < 1", "imperfect"
	}
	scoreless := walked == "code" || (walked == "status" && f.Status != engine.StatusValid)
	if f.ByScore && !scoreless && walked != "range" {
		p.byScore = true
		p.from, p.order = "results r INDEXED BY results_by_contribution", "r.contribution, r.idx"
		if walked != "" { // the walk's condition becomes a residual one
			p.residual, p.rargs = append(p.residual, residualOf(walked, f)), append(p.rargs, p.args...)
			if walked == "wrong" {
				p.residual[0] = "EXISTS (SELECT 1 FROM result_wrong w WHERE w.run_id = r.run_id AND w.dim = ? AND w.idx = r.idx)"
			}
			p.where, p.args = "", nil
		}
		walked = "score"
	}
	add := func(cond string, args ...any) {
		p.residual = append(p.residual, cond)
		p.rargs = append(p.rargs, args...)
	}
	if len(f.Wrong) > 0 && walked == "range" {
		dim, err := s.dimension(id, f.Wrong)
		if err != nil {
			return p, err
		}
		add("EXISTS (SELECT 1 FROM result_wrong w WHERE w.run_id = r.run_id AND w.dim = ? AND w.idx = r.idx)", dim)
	}
	if r := f.Score; r != nil {
		cond, args := r.cond()
		if walked == "range" {
			cond, args = "", nil // the walk's own condition
		}
		if r.Min == 0 { // a non-valid result's contribution is 0 too
			cond = strings.TrimPrefix(cond+" AND r.status = 'valid'", " AND ")
		}
		if cond != "" {
			add(cond, args...)
		}
	}
	if f.Code != "" && walked != "code" {
		add("r.error_code = ?", f.Code)
	}
	if f.Status != "" && walked != "status" {
		add("r.status = ?", string(f.Status))
	}
	if f.Imperfect && walked != "imperfect" {
		add("r.contribution < 1")
	}
	if f.Text != "" {
		cond, args := textCondition(f.Text)
		add(cond, args...)
	}
	if c := f.Cell; c != nil {
		path, err := jsonPath(c.Path)
		if err != nil {
			return p, err
		}
		add("r.status = 'valid' AND r.example ->> ? = ? AND r.result ->> ? = ?",
			"$.expected"+path, c.Expected, "$.prediction"+path, c.Predicted)
	}
	p.counted = len(p.residual) == 0 && !p.byScore
	if f.Score != nil { // counted by the contribution index when the range is the filter
		p.score = f.Score
		p.counted = !f.Imperfect && len(f.Wrong) == 0 && f.Code == "" && f.Text == "" && f.Cell == nil &&
			(f.Status == "" || f.Status == engine.StatusValid)
	}
	return p, nil
}

// residualOf is the condition a walk stands for, as a residual one (its args are the walk's).
func residualOf(walked string, f ResultFilter) string {
	switch walked {
	case "code":
		return "r.error_code = ?"
	case "status":
		return "r.status = ?"
	case "imperfect":
		return "r.contribution < 1"
	}
	return "" // wrong: the caller writes it
}

// textCondition is the text search's condition: the needle, folded, in any of the four
// values, folded. The needle is also sought as JSON writes it when that differs (a quote
// or a backslash in it), since the values searched are JSON text.
func textCondition(text string) (string, []any) {
	needles := []string{strings.ToLower(text)}
	if esc, _ := json.Marshal(text); string(esc[1:len(esc)-1]) != text {
		needles = append(needles, strings.ToLower(string(esc[1:len(esc)-1])))
	}
	var conds []string
	var args []any
	for _, n := range needles {
		for _, v := range []string{"r.result -> '$.prediction'", "r.result ->> '$.error.message'", "r.example"} {
			conds = append(conds, "instr(lower("+v+"), ?) > 0")
			args = append(args, n)
		}
	}
	return "(" + strings.Join(conds, " OR ") + ")", args
}

// jsonPath is a dimension's path as a SQLite JSON path's tail: ."a"."b".
func jsonPath(path []string) (string, error) {
	var b strings.Builder
	for _, k := range path {
		if strings.ContainsAny(k, "\"\\") || k == "" {
			return "", fmt.Errorf("the path %q: %w", path, ErrUnknownDimension)
		}
		b.WriteString(`."` + k + `"`)
	}
	if len(path) == 0 {
		return "", fmt.Errorf("an empty path: %w", ErrUnknownDimension)
	}
	return b.String(), nil
}

// dimension is the index, in field_scores (declaration order), of the dimension at path
// in run id, read from one valid result (every valid result has the same dimensions). A
// run without valid results has none wrong: -1, which no row of result_wrong has.
func (s *Store) dimension(id string, path []string) (int, error) {
	var fields sql.NullString
	err := s.r.QueryRow(`SELECT result -> '$.field_scores' FROM results INDEXED BY results_by_status
		WHERE run_id = ? AND status = 'valid' LIMIT 1`, id).Scan(&fields)
	if errors.Is(err, sql.ErrNoRows) {
		return -1, nil
	}
	if err != nil {
		return 0, err
	}
	var fs []engine.FieldScore
	if err := json.Unmarshal([]byte(fields.String), &fs); err != nil {
		return 0, err
	}
	for d, f := range fs {
		if slicesEqual(f.Path, path) {
			return d, nil
		}
	}
	return 0, fmt.Errorf("%q: %w", strings.Join(path, "."), ErrUnknownDimension)
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// walk yields the indexes of run id that f selects, in its order, after index after
// (First: from the start): fn returns false to stop. It reads at most budget rows that
// miss (0: no bound) and reports whether it stopped there, with the last index it read.
func (s *Store) walk(id string, p plan, after, budget int, fn func(idx int) bool) (last int, exhausted bool, err error) {
	return s.walkDir(id, p, after, budget, false, fn)
}

// walkDir is walk, backwards (before index after) with back.
func (s *Store) walkDir(id string, p plan, after, budget int, back bool, fn func(idx int) bool) (last int, exhausted bool, err error) {
	cmpOp, dir := " > ", ""
	if back {
		cmpOp, dir = " < ", " DESC"
	}
	q := "SELECT r.idx, r.contribution"
	if len(p.residual) > 0 {
		q += ", (" + strings.Join(p.residual, ") AND (") + ")"
	} else {
		q += ", 1"
	}
	q += " FROM " + p.from + " WHERE " + strings.SplitN(p.order, ".", 2)[0] + ".run_id = ?"
	args := append([]any{}, p.rargs...)
	args = append(args, id)
	if p.where != "" {
		q += " AND " + p.where
		args = append(args, p.args...)
	}
	if after != First {
		if p.byScore {
			var c float64
			switch err := s.r.QueryRow(`SELECT contribution FROM results WHERE run_id = ? AND idx = ?`, id, after).Scan(&c); {
			case errors.Is(err, sql.ErrNoRows):
				return 0, false, fmt.Errorf("after %d: no such result", after)
			case err != nil:
				return 0, false, err
			}
			q += " AND (r.contribution, r.idx)" + cmpOp + "(?, ?)"
			args = append(args, c, after)
		} else {
			q += " AND " + strings.SplitN(p.order, ",", 2)[0] + cmpOp + "?"
			args = append(args, after)
		}
	}
	order := p.order
	if back {
		order = strings.ReplaceAll(order, ",", dir+",") + dir
	}
	q += " ORDER BY " + order
	rows, err := s.r.Query(q, args...)
	if err != nil {
		return 0, false, err
	}
	defer rows.Close()
	last, misses, started := First, 0, time.Now()
	for rows.Next() {
		var idx int
		var c float64
		var hit sql.NullBool
		if err := rows.Scan(&idx, &c, &hit); err != nil {
			return 0, false, err
		}
		last = idx
		if !hit.Bool {
			if misses++; budget > 0 && (misses >= budget || misses%256 == 0 && time.Since(started) > scanTime) {
				return last, true, rows.Err()
			}
			continue
		}
		if !fn(idx) {
			return last, false, rows.Err()
		}
	}
	return last, false, rows.Err()
}

// count is how many results of run id p selects, when an index counts them (p.counted).
func (s *Store) count(id string, p plan) (int, error) {
	var n int
	if p.score != nil {
		return s.countRange(id, *p.score)
	}
	if p.where == "" { // every result: the run's count of them, kept with each insert
		err := s.r.QueryRow(`SELECT done FROM runs WHERE id = ?`, id).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		}
		return n, err
	}
	from := p.from
	if strings.HasPrefix(from, "result_wrong w") {
		from = "result_wrong w" // the count needs no result
	}
	q := "SELECT count(*) FROM " + from + " WHERE " + strings.SplitN(p.order, ".", 2)[0] + ".run_id = ?"
	args := []any{id}
	if p.where != "" {
		q += " AND " + p.where
		args = append(args, p.args...)
	}
	err := s.r.QueryRow(q, args...).Scan(&n)
	return n, err
}

// countRange is how many valid results of run id have a score in r, from the
// contribution index: the results in the range, less the results that are not valid when
// the range starts at 0 (their contribution is 0), counted by the status index.
func (s *Store) countRange(id string, r ScoreRange) (int, error) {
	cond, args := r.cond()
	var n int
	err := s.r.QueryRow("SELECT count(*) FROM results r INDEXED BY results_by_contribution WHERE r.run_id = ? AND "+cond,
		append([]any{id}, args...)...).Scan(&n)
	if err != nil || r.Min > 0 {
		return n, err
	}
	var bad int
	err = s.r.QueryRow(`SELECT count(*) FROM results INDEXED BY results_by_status WHERE run_id = ? AND status IN (?, ?)`,
		id, string(engine.StatusInvalidOutput), string(engine.StatusExecutionError)).Scan(&bad)
	return n - bad, err
}

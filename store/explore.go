package store

import (
	"cmp"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// Detail is one example in full for the example view: its result and dataset row, each
// value up to api.MaxDetail bytes (Clipped past it), and its neighbours under a filter.
type Detail struct {
	Shown
	// Prev and Next are the indexes of the results before and after this one under the
	// filter, in its order; -1 at an end, and when scanBudget rows were read without
	// finding one (a rare filter far away: the page list still reaches it).
	Prev, Next int
}

// Detail returns example idx of run id with its neighbours under f, and whether the run
// has that result.
func (s *Store) Detail(id string, idx int, f ResultFilter) (Detail, bool, error) {
	rows, err := s.r.Query(`SELECT `+shownColumnsAt(api.MaxDetail)+` FROM results WHERE run_id = ? AND idx = ?`, id, idx)
	if err != nil {
		return Detail{}, false, err
	}
	var d Detail
	found := rows.Next()
	if found {
		d.Shown, err = scanShownAt(rows, api.MaxDetail)
	}
	if err := errors.Join(err, closeRows(rows)); err != nil || !found {
		return Detail{}, false, err
	}
	p, err := s.planOf(id, f)
	if err != nil {
		return Detail{}, false, err
	}
	for _, side := range []struct {
		back bool
		into *int
	}{{true, &d.Prev}, {false, &d.Next}} {
		*side.into = -1
		if _, _, err := s.walkDir(id, p, idx, scanBudget, side.back, func(i int) bool {
			*side.into = i
			return false
		}); err != nil {
			return Detail{}, false, err
		}
	}
	return d, true, nil
}

// Enum is an enum dimension of the program's output, for its confusion matrix: its path
// and its values in declaration order (the IR's).
type Enum struct {
	Path   []string
	Values []string
}

// Charts counts what the results page draws for run id: statuses, the histogram of valid
// scores, each dimension's accuracy, errors by code, and a confusion matrix of each
// dimension of enums (expected from the dataset row at the dimension's path, predicted
// from the prediction, over valid examples; a value outside the enum is left out; a run
// stored before rows were recorded has empty matrices). Everything but the matrices is
// read from indexes; the matrices read every valid result (BenchmarkCharts).
func (s *Store) Charts(id string, enums []Enum) (api.Charts, error) {
	c := api.Charts{Histogram: make([]int, 11), Dimensions: []api.Dimension{}, Codes: []api.CodeCount{}, Confusion: []api.Confusion{}}
	rows, err := s.r.Query(`SELECT status, count(*) FROM results INDEXED BY results_by_status WHERE run_id = ? GROUP BY status`, id)
	if err != nil {
		return c, err
	}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			rows.Close()
			return c, err
		}
		c.Summary.Examples += n
		switch engine.Status(st) {
		case engine.StatusValid:
			c.Summary.Valid = n
		case engine.StatusInvalidOutput:
			c.Summary.InvalidOutputs = n
		case engine.StatusExecutionError:
			c.Summary.ExecutionErrors = n
		}
	}
	if err := closeRows(rows); err != nil {
		return c, err
	}
	// A valid result's contribution is its score and every other's is 0: the histogram
	// counts contributions from their index and takes the others out of the first bin.
	rows, err = s.r.Query(`SELECT CASE WHEN contribution >= 1 THEN 10 WHEN contribution <= 0 THEN 0
		ELSE min(9, CAST(contribution * 10 AS INTEGER)) END, count(*)
		FROM results INDEXED BY results_by_contribution WHERE run_id = ? GROUP BY 1`, id)
	if err != nil {
		return c, err
	}
	for rows.Next() {
		var bin, n int
		if err := rows.Scan(&bin, &n); err != nil {
			rows.Close()
			return c, err
		}
		c.Histogram[bin] += n
	}
	if err := closeRows(rows); err != nil {
		return c, err
	}
	c.Histogram[0] -= c.Summary.Examples - c.Summary.Valid
	if err := s.dimensionCharts(id, &c); err != nil {
		return c, err
	}
	if c.Codes, err = s.codes(id); err != nil {
		return c, err
	}
	for _, e := range enums {
		m, err := s.confusion(id, e)
		if err != nil {
			return c, err
		}
		c.Confusion = append(c.Confusion, m)
	}
	return c, nil
}

// dimensionCharts fills each dimension's accuracy: valid results less those wrong in it.
func (s *Store) dimensionCharts(id string, c *api.Charts) error {
	var fields sql.NullString
	err := s.r.QueryRow(`SELECT result -> '$.field_scores' FROM results INDEXED BY results_by_status
		WHERE run_id = ? AND status = 'valid' LIMIT 1`, id).Scan(&fields)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // no valid result: no dimension to show (the report has them, with null accuracy)
	}
	if err != nil {
		return err
	}
	var fs []engine.FieldScore
	if err := json.Unmarshal([]byte(fields.String), &fs); err != nil {
		return err
	}
	wrong := make([]int, len(fs))
	rows, err := s.r.Query(`SELECT dim, count(*) FROM result_wrong WHERE run_id = ? GROUP BY dim`, id)
	if err != nil {
		return err
	}
	for rows.Next() {
		var d, n int
		if err := rows.Scan(&d, &n); err != nil {
			rows.Close()
			return err
		}
		if d >= 0 && d < len(wrong) {
			wrong[d] = n
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	for d, f := range fs {
		dim := api.Dimension{Path: f.Path, Weight: f.Weight, Correct: c.Summary.Valid - wrong[d], Valid: c.Summary.Valid}
		acc := float64(dim.Correct) / float64(dim.Valid)
		dim.Accuracy = &acc
		c.Dimensions = append(c.Dimensions, dim)
	}
	return nil
}

// codes counts run id's errors by code from the code index, most frequent first (then by
// code), each with the status and message of its first example.
func (s *Store) codes(id string) ([]api.CodeCount, error) {
	rows, err := s.r.Query(`SELECT error_code, count(*), min(idx) FROM results INDEXED BY results_by_code
		WHERE run_id = ? AND error_code IS NOT NULL GROUP BY error_code`, id)
	if err != nil {
		return nil, err
	}
	out := []api.CodeCount{}
	var first []int
	for rows.Next() {
		var cc api.CodeCount
		var i int
		if err := rows.Scan(&cc.Code, &cc.Count, &i); err != nil {
			rows.Close()
			return nil, err
		}
		out, first = append(out, cc), append(first, i)
	}
	if err := closeRows(rows); err != nil {
		return nil, err
	}
	for k := range out {
		var msg sql.NullString
		if err := s.r.QueryRow(`SELECT status, substr(result ->> '$.error.message', 1, ?) FROM results WHERE run_id = ? AND idx = ?`,
			api.MaxDetail, id, first[k]).Scan(&out[k].Status, &msg); err != nil {
			return nil, err
		}
		out[k].Message = msg.String
	}
	slices.SortStableFunc(out, func(a, b api.CodeCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Code, b.Code))
	})
	return out, nil
}

// confusion counts the valid results of run id by expected and predicted value of e.
func (s *Store) confusion(id string, e Enum) (api.Confusion, error) {
	m := api.Confusion{Path: e.Path, Values: e.Values, Cells: make([][]int, len(e.Values))}
	for i := range m.Cells {
		m.Cells[i] = make([]int, len(e.Values))
	}
	path, err := jsonPath(e.Path)
	if err != nil {
		return m, err
	}
	at := make(map[string]int, len(e.Values))
	for i, v := range e.Values {
		at[v] = i
	}
	rows, err := s.r.Query(`SELECT example ->> ?, result ->> ?, count(*) FROM results INDEXED BY results_by_status
		WHERE run_id = ? AND status = 'valid' AND example IS NOT NULL GROUP BY 1, 2`, "$.expected"+path, "$.prediction"+path, id)
	if err != nil {
		return m, err
	}
	for rows.Next() {
		var exp, pred sql.NullString
		var n int
		if err := rows.Scan(&exp, &pred, &n); err != nil {
			rows.Close()
			return m, err
		}
		i, ok1 := at[exp.String]
		j, ok2 := at[pred.String]
		if exp.Valid && pred.Valid && ok1 && ok2 {
			m.Cells[i][j] += n
		}
	}
	return m, closeRows(rows)
}

// TopError is the most frequent execution error of run id (its code, the message of its
// first example, how many examples had it), for the run's health; the zero CodeCount
// when there is none. It reads the code index.
func (s *Store) TopError(id string) (api.CodeCount, error) {
	codes, err := s.codes(id)
	if err != nil {
		return api.CodeCount{}, err
	}
	for _, c := range codes { // most frequent first; a code is of one status
		if c.Status == string(engine.StatusExecutionError) {
			return c, nil
		}
	}
	return api.CodeCount{}, nil
}

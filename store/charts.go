package store

import (
	"cmp"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// Charts counts what the results page draws for run id: statuses, the histogram of valid
// scores, each dimension's accuracy, errors by code, and a confusion matrix of each
// dimension of enums (expected from the dataset row at the dimension's path, predicted
// from the prediction, over valid examples; a value outside the enum is left out; a run
// stored before rows were recorded has empty matrices), sparse and folded to its most
// frequent members (api.FoldCells): never members squared. It reads the run's counts
// (counts.go), kept as its results are stored, and one result per error code for its
// message; a matrix whose cells were not counted (a run stored before migration 6) is
// read from each valid result's JSON.
//
// A matrix's counted cells are read as they are folded (foldCells), never held: its
// memory is a count a member and 21×21 cells however many distinct cells the run has.
// 100,000 examples over 10 enums of 4,000 members (a million cells) took the server from
// 60 to 319 MB for one view, when every cell was read into a map first.
func (s *Store) Charts(id string, enums []Enum) (api.Charts, error) {
	c := api.Charts{Histogram: make([]int, 11), Dimensions: []api.Dimension{}, Codes: []api.CodeCount{}, Confusion: []api.Confusion{}}
	tx, err := s.r.Begin() // one snapshot: the matrices count the results the counts do
	if err != nil {
		return c, err
	}
	defer tx.Rollback()
	counts, err := countsIn(tx, id)
	if err != nil {
		return c, err
	}
	var wrong map[int]int
	labelled := map[string]bool{}
	for _, k := range counts {
		switch k.kind {
		case countStatus:
			c.Summary.Examples += k.n
			switch engine.Status(k.a) {
			case engine.StatusValid:
				c.Summary.Valid = k.n
			case engine.StatusInvalidOutput:
				c.Summary.InvalidOutputs = k.n
			case engine.StatusExecutionError:
				c.Summary.ExecutionErrors = k.n
			}
		case countBin:
			if b, err := strconv.Atoi(k.a); err == nil && b >= 0 && b < len(c.Histogram) {
				c.Histogram[b] += k.n
			}
		case countWrong:
			if d, err := strconv.Atoi(k.a); err == nil {
				if wrong == nil {
					wrong = map[int]int{}
				}
				wrong[d] += k.n
			}
		case countLabelled:
			labelled[k.a] = true
		}
	}
	var uncounted []Enum
	for _, e := range enums {
		key, _ := json.Marshal(e.Path)
		if !labelled[string(key)] {
			uncounted = append(uncounted, e)
			continue
		}
		m, err := foldCells(tx, id, string(key), e)
		if err != nil {
			return c, err
		}
		c.Confusion = append(c.Confusion, m)
	}
	if err := tx.Rollback(); err != nil {
		return c, err
	}
	if err := s.dimensionCharts(id, wrong, &c); err != nil {
		return c, err
	}
	if c.Codes, err = s.codesOf(id, counts); err != nil {
		return c, err
	}
	if len(uncounted) > 0 {
		ms, err := s.matricesOfJSON(id, uncounted)
		if err != nil {
			return c, err
		}
		for _, m := range ms {
			c.Confusion = append(c.Confusion, api.FoldConfusion(m.Path, m.Values, m.cells))
		}
		// In the order of enums: the counted ones were put first.
		slices.SortStableFunc(c.Confusion, func(a, b api.Confusion) int {
			return cmp.Compare(indexOfPath(enums, a.Path), indexOfPath(enums, b.Path))
		})
	}
	return c, nil
}

// foldCells is the matrix of enum e (key, its path as result_counts keys it) of run id
// from its counted cells, read in tx as api.FoldCells folds them: twice, a row at a time,
// each value looked up without a copy.
func foldCells(tx *sql.Tx, id, key string, e Enum) (api.Confusion, error) {
	at := make(map[string]int, len(e.Values))
	for i, v := range e.Values {
		if _, dup := at[v]; !dup {
			at[v] = i
		}
	}
	index := func(v []byte) int {
		if i, ok := at[string(v)]; ok {
			return i
		}
		return -1 // no member: left out
	}
	return api.FoldCells(e.Path, e.Values, func(cell func(exp, pred, n int)) error {
		rows, err := tx.Query(`SELECT b, c, n FROM result_counts WHERE run_id = ? AND kind = ? AND a = ?`, id, countCell, key)
		if err != nil {
			return err
		}
		var exp, pred sql.RawBytes
		var n int
		for rows.Next() {
			if err := rows.Scan(&exp, &pred, &n); err != nil {
				rows.Close()
				return err
			}
			cell(index(exp), index(pred), n)
		}
		return closeRows(rows)
	})
}

// indexOfPath is the index of the enum at path in enums.
func indexOfPath(enums []Enum, path []string) int {
	return slices.IndexFunc(enums, func(e Enum) bool { return slices.Equal(e.Path, path) })
}

// stored is a row of result_counts.
type stored struct {
	kind, a, b, c string
	n, first      int
}

// counts are run id's rows of result_counts but its confusion cells (foldCells reads
// those), some dozens: a status, bin, wrong dimension and error code each, and a mark a
// counted enum.
func (s *Store) counts(id string) ([]stored, error) { return countsIn(s.r, id) }

// countsIn is counts read through q (a *sql.DB or a *sql.Tx).
func countsIn(q interface {
	Query(string, ...any) (*sql.Rows, error)
}, id string) ([]stored, error) {
	rows, err := q.Query(`SELECT kind, a, b, c, n, first FROM result_counts WHERE run_id = ? AND kind IN (?, ?, ?, ?, ?)`,
		id, countStatus, countBin, countWrong, countCode, countLabelled)
	if err != nil {
		return nil, err
	}
	var out []stored
	for rows.Next() {
		var k stored
		if err := rows.Scan(&k.kind, &k.a, &k.b, &k.c, &k.n, &k.first); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, k)
	}
	return out, closeRows(rows)
}

// dimensionCharts fills each dimension's accuracy: valid results less those wrong in it.
func (s *Store) dimensionCharts(id string, wrong map[int]int, c *api.Charts) error {
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
	for d, f := range fs {
		dim := api.Dimension{Path: f.Path, Weight: f.Weight, Correct: c.Summary.Valid - wrong[d], Valid: c.Summary.Valid}
		acc := float64(dim.Correct) / float64(dim.Valid)
		dim.Accuracy = &acc
		c.Dimensions = append(c.Dimensions, dim)
	}
	return nil
}

// codesOf are run id's errors by code, most frequent first (then by code), each with the
// status and message of its first example.
func (s *Store) codesOf(id string, counts []stored) ([]api.CodeCount, error) {
	out := []api.CodeCount{}
	for _, k := range counts {
		if k.kind != countCode {
			continue
		}
		cc := api.CodeCount{Code: k.a, Count: k.n}
		var msg sql.NullString
		if err := s.r.QueryRow(`SELECT status, substr(result ->> '$.error.message', 1, ?) FROM results WHERE run_id = ? AND idx = ?`,
			api.MaxDetail, id, k.first).Scan(&cc.Status, &msg); err != nil {
			return nil, err
		}
		cc.Message = msg.String
		out = append(out, cc)
	}
	slices.SortStableFunc(out, func(a, b api.CodeCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Code, b.Code))
	})
	return out, nil
}

// TopError is the most frequent execution error of run id (its code, the message of its
// first example, how many examples had it), for the run's health; the zero CodeCount
// when there is none. It reads the run's counts.
func (s *Store) TopError(id string) (api.CodeCount, error) {
	counts, err := s.counts(id)
	if err != nil {
		return api.CodeCount{}, err
	}
	codes, err := s.codesOf(id, counts)
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

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
// frequent members (api.FoldConfusion): never members squared. It reads the run's counts
// (counts.go), kept as its results are stored, and one result per error code for its
// message; a matrix whose cells were not counted (a run stored before migration 6) is
// read from each valid result's JSON.
func (s *Store) Charts(id string, enums []Enum) (api.Charts, error) {
	c := api.Charts{Histogram: make([]int, 11), Dimensions: []api.Dimension{}, Codes: []api.CodeCount{}, Confusion: []api.Confusion{}}
	counts, err := s.counts(id)
	if err != nil {
		return c, err
	}
	var wrong map[int]int
	cells := map[string]map[[2]string]int{}
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
			if cells[k.a] == nil {
				cells[k.a] = map[[2]string]int{}
			}
		case countCell:
			if cells[k.a] == nil {
				cells[k.a] = map[[2]string]int{}
			}
			cells[k.a][[2]string{k.b, k.c}] += k.n
		}
	}
	if err := s.dimensionCharts(id, wrong, &c); err != nil {
		return c, err
	}
	if c.Codes, err = s.codesOf(id, counts); err != nil {
		return c, err
	}
	labelled := map[string]bool{}
	for _, k := range counts {
		if k.kind == countLabelled {
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
		c.Confusion = append(c.Confusion, api.FoldConfusion(e.Path, e.Values, cells[string(key)]))
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

// indexOfPath is the index of the enum at path in enums.
func indexOfPath(enums []Enum, path []string) int {
	return slices.IndexFunc(enums, func(e Enum) bool { return slices.Equal(e.Path, path) })
}

// stored is a row of result_counts.
type stored struct {
	kind, a, b, c string
	n, first      int
}

// counts are run id's rows of result_counts.
func (s *Store) counts(id string) ([]stored, error) {
	rows, err := s.r.Query(`SELECT kind, a, b, c, n, first FROM result_counts WHERE run_id = ?`, id)
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

package store

import (
	"database/sql"
	"encoding/json"
)

// matrix is an enum's confusion cells that occur, by [expected, predicted] member: sparse,
// as the store keeps them (an enum of 8,000 members made dense is 64 million cells).
type matrix struct {
	Enum
	cells map[[2]string]int
}

// matricesOfJSON are the confusion matrices of enums for run id read from its results'
// JSON: those of a run whose cells were not counted as it was stored (before migration 6,
// or by a writer without Labels). It reads every valid result, 8–17 s for 800,000 of
// them, so it keeps what it counted as the run's cells (keepCells): the next view reads
// them, and a resume's writer goes on counting.
func (s *Store) matricesOfJSON(id string, enums []Enum) ([]matrix, error) {
	tx, err := s.r.Begin() // one snapshot: the matrices are of the results done counts
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var done int
	if err := tx.QueryRow(`SELECT done FROM runs WHERE id = ?`, id).Scan(&done); err != nil {
		return nil, err
	}
	var out []matrix
	for _, e := range enums {
		m, err := confusionOfJSON(tx, id, e)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if err := tx.Rollback(); err != nil {
		return nil, err
	}
	return out, s.keepCells(id, done, out)
}

// keepCells stores matrices as run id's counted cells and marks their enums counted, when
// done is still its count of results: results are only ever added, each counted in done,
// so an unchanged done is the set of results the matrices were read from. Else a result
// came since (a running run), and the next view reads them again.
func (s *Store) keepCells(id string, done int, matrices []matrix) error {
	tx, err := s.w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var now int
	if err := tx.QueryRow(`SELECT done FROM runs WHERE id = ?`, id).Scan(&now); err != nil || now != done {
		return err
	}
	t := tally{}
	for _, m := range matrices {
		key, _ := json.Marshal(m.Path)
		// Cells a writer counted before its mark was dropped (a writer without Labels came)
		// are stale: the matrix replaces them.
		if _, err := tx.Exec(`DELETE FROM result_counts WHERE run_id = ? AND kind = ? AND a = ?`, id, countCell, string(key)); err != nil {
			return err
		}
		t[countKey{kind: countLabelled, a: string(key)}] = &[2]int{0, 0}
		for k, n := range m.cells {
			if n > 0 {
				t[countKey{kind: countCell, a: string(key), b: k[0], c: k[1]}] = &[2]int{n, 0}
			}
		}
	}
	if err := t.store(tx, id); err != nil {
		return err
	}
	return tx.Commit()
}

// confusionOfJSON counts the valid results of run id by expected and predicted value of
// e from each one's JSON, in tx's snapshot.
func confusionOfJSON(tx *sql.Tx, id string, e Enum) (matrix, error) {
	m := matrix{Enum: e, cells: map[[2]string]int{}}
	path, err := jsonPath(e.Path)
	if err != nil {
		return m, err
	}
	at := make(map[string]bool, len(e.Values))
	for _, v := range e.Values {
		at[v] = true
	}
	rows, err := tx.Query(`SELECT example ->> ?, result ->> ?, count(*) FROM results INDEXED BY results_by_status
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
		if exp.Valid && pred.Valid && at[exp.String] && at[pred.String] {
			m.cells[[2]string{exp.String, pred.String}] += n
		}
	}
	return m, closeRows(rows)
}

package store

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"iter"

	"github.com/benchy-eval/benchy/engine"
)

// Indices is a set of example indices, one bit each: a million fit in 125 KB.
type Indices struct {
	words []uint64
	n     int
}

// Has reports whether i is in the set.
func (x *Indices) Has(i int) bool {
	w := i >> 6
	return i >= 0 && w < len(x.words) && x.words[w]&(1<<(i&63)) != 0
}

// Len is the number of indices in the set.
func (x *Indices) Len() int { return x.n }

func (x *Indices) add(i int) {
	w := i >> 6
	if w >= len(x.words) {
		x.words = append(x.words, make([]uint64, w+1-len(x.words))...)
	}
	if x.words[w]&(1<<(i&63)) == 0 {
		x.words[w] |= 1 << (i & 63)
		x.n++
	}
}

// Missing returns, in order, the indices below total that are not in the set: what a
// resumed run still has to evaluate.
func (x *Indices) Missing(total int) []int {
	var out []int
	for i := range total {
		if !x.Has(i) {
			out = append(out, i)
		}
	}
	return out
}

// RecordedSet returns the set of example indices of run id that have a stored result.
func (s *Store) RecordedSet(id string) (*Indices, error) {
	rows, err := s.r.Query(`SELECT idx FROM results WHERE run_id = ? ORDER BY idx`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	x := &Indices{}
	for rows.Next() {
		var i int
		if err := rows.Scan(&i); err != nil {
			return nil, err
		}
		x.add(i)
	}
	return x, rows.Err()
}

// Result returns the stored result of example idx of run id, and whether there is one.
func (s *Store) Result(id string, idx int) (engine.ExampleResult, bool, error) {
	var res engine.ExampleResult
	var body []byte
	err := s.r.QueryRow(`SELECT result FROM results WHERE run_id = ? AND idx = ?`, id, idx).Scan(&body)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return res, false, nil
	case err != nil:
		return res, false, err
	}
	return res, true, decodeResult(body, &res)
}

// Stored yields the stored results of run id in index order, from one snapshot: a resume
// that replays a large run reads them in one pass rather than one query per index. Stop
// early by breaking out of the loop; an error is yielded last.
func (s *Store) Stored(id string) iter.Seq2[engine.ExampleResult, error] {
	return func(yield func(engine.ExampleResult, error) bool) {
		rows, err := s.r.Query(`SELECT result FROM results WHERE run_id = ? ORDER BY idx`, id)
		if err != nil {
			yield(engine.ExampleResult{}, err)
			return
		}
		defer rows.Close()
		var body sql.RawBytes
		for rows.Next() {
			var res engine.ExampleResult
			err := rows.Scan(&body)
			if err == nil {
				err = decodeResult(body, &res)
			}
			if !yield(res, err) || err != nil {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(engine.ExampleResult{}, err)
		}
	}
}

// decodeResult reads a stored result as the engine wrote it, numbers in predictions kept
// as json.Number so that they encode again to the same text.
func decodeResult(body []byte, res *engine.ExampleResult) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	return dec.Decode(res)
}

// First is the After of the first page.
const First = -1

// PageQuery selects a page of a run's results: those after index After (First for the
// start), with status Status if it is set, at most Limit (default 100, at most 10,000),
// and when MaxBytes is set no more than fit in it (Shown.Bytes; one at least).
type PageQuery struct {
	Status   engine.Status
	After    int
	Limit    int
	MaxBytes int
}

// Page is a page of results, in index order, each as pages show it.
type Page struct {
	Results []Shown
	Next    int // the After of the next page; -1 when this is the last
}

// Page returns the results of run id that q selects (none for an unknown run). It seeks an index with the last index
// of the previous page (keyset pagination), so every page costs the same, however deep.
func (s *Store) Page(id string, q PageQuery) (Page, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, 10_000)
	var rows *sql.Rows
	var err error
	if q.Status != "" {
		rows, err = s.r.Query(`SELECT `+shownColumns+` FROM results WHERE run_id = ? AND status = ? AND idx > ?
			ORDER BY idx LIMIT ?`, id, string(q.Status), q.After, limit+1)
	} else {
		rows, err = s.r.Query(`SELECT `+shownColumns+` FROM results WHERE run_id = ? AND idx > ?
			ORDER BY idx LIMIT ?`, id, q.After, limit+1)
	}
	if err != nil {
		return Page{}, err
	}
	defer rows.Close()
	p := Page{Results: []Shown{}, Next: -1}
	total := 0
	for rows.Next() {
		if len(p.Results) == limit {
			p.Next = p.Results[limit-1].Index
			break
		}
		sh, err := scanShown(rows)
		if err != nil {
			return Page{}, err
		}
		if total += sh.Bytes(); q.MaxBytes > 0 && total > q.MaxBytes && len(p.Results) > 0 {
			p.Next = p.Results[len(p.Results)-1].Index
			break
		}
		p.Results = append(p.Results, sh)
	}
	return p, rows.Err()
}

// AllShown yields the results of run id in index order as pages show them (Shown), from
// one snapshot: a comparison reads both runs whole but keeps only a bounded start of each
// prediction it lists. Stop early by breaking out of the loop; an error is yielded last.
func (s *Store) AllShown(id string) iter.Seq2[Shown, error] {
	return func(yield func(Shown, error) bool) {
		rows, err := s.r.Query(`SELECT `+shownColumns+` FROM results WHERE run_id = ? ORDER BY idx`, id)
		if err != nil {
			yield(Shown{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			sh, err := scanShown(rows)
			if !yield(sh, err) || err != nil {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(Shown{}, err)
		}
	}
}

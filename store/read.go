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

// PageQuery selects a page of a run's results: those Filter selects after index After
// (First for the start; under sort by score, after that result's place in that order), at
// most Limit (default 100, at most 10,000), and when MaxBytes is set no more than fit in
// it (Shown.Bytes; one at least). Status is Filter.Status, for callers written before
// Filter: either may be set.
type PageQuery struct {
	Filter   ResultFilter
	Status   engine.Status
	After    int
	Limit    int
	MaxBytes int
}

// Page is a page of results, in the filter's order, each as pages show it.
type Page struct {
	Results []Shown
	Next    int // the After of the next page; -1 when this is the last
	// Total is how many results the filter selects, when an index counts them: every
	// filter of one condition (status, imperfect, a wrong dimension, an error code, or
	// none) in index order; nil for a text search, a confusion cell, several conditions
	// or sort by score.
	Total *int
	// Scanned says the page stopped at the scan budget (scanBudget rows that did not
	// match) before it was full: the results up to Next were searched; ask from Next for
	// more. Next is then never -1.
	Scanned bool
}

// Page returns the results of run id that q selects (none for an unknown run). It seeks an
// index with the last index of the previous page (keyset pagination), so every page costs
// the same, however deep; a filter that an index does not serve reads a bounded number of
// rows per page (Page.Scanned).
func (s *Store) Page(id string, q PageQuery) (Page, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, 10_000)
	f := q.Filter
	if f.Status == "" {
		f.Status = q.Status
	}
	p, err := s.planOf(id, f)
	if err != nil {
		return Page{}, err
	}
	var hits []int
	last, exhausted, err := s.walk(id, p, q.After, scanBudget, func(idx int) bool {
		hits = append(hits, idx)
		return len(hits) <= limit
	})
	if err != nil {
		return Page{}, err
	}
	page := Page{Results: []Shown{}, Next: -1}
	switch {
	case len(hits) > limit:
		hits = hits[:limit]
		page.Next = hits[limit-1]
	case exhausted:
		page.Next, page.Scanned = last, true
	}
	cells, err := s.Cells(id, hits)
	if err != nil {
		return Page{}, err
	}
	total := 0
	for _, idx := range hits {
		sh, ok := cells[idx]
		if !ok {
			continue // not there a moment ago: a result is never deleted but with its run
		}
		if total += sh.Bytes(); q.MaxBytes > 0 && total > q.MaxBytes && len(page.Results) > 0 {
			page.Next, page.Scanned = page.Results[len(page.Results)-1].Index, false
			break
		}
		page.Results = append(page.Results, sh)
	}
	if p.counted {
		n, err := s.count(id, p)
		if err != nil {
			return Page{}, err
		}
		page.Total = &n
	}
	return page, nil
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

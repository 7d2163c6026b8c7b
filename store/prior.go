package store

import (
	"database/sql"

	"github.com/benchy-eval/benchy/engine"
)

// priorChunk is how many stored results Prior reads at a time.
const priorChunk = 1000

// Prior serves the stored results of a run to a resumed run, for engine.Options.Prior:
//
//	p := st.Prior(id)
//	rep, err := engine.Run(ctx, b, factory, engine.Options{Prior: p.Get, ...})
//	if p.Err() != nil { ... }
//
// The engine asks for indices in increasing order, so Prior reads ahead in short ordered
// queries of priorChunk results instead of one query per index; it never holds a read open
// between calls, which would keep the WAL from being recycled while the run writes.
type Prior struct {
	s     *Store
	id    string
	buf   []engine.ExampleResult // stored results from index `from` on, in order
	pos   int
	from  int  // the first index buf covers
	end   bool // nothing is stored beyond buf
	last  int  // the last index asked for
	bytes sql.RawBytes
	err   error
}

// Prior returns a reader of the stored results of run id.
func (s *Store) Prior(id string) *Prior {
	return &Prior{s: s, id: id, last: -1}
}

// Get returns the stored result of example i, if there is one. A read error counts as no
// result, so the example is evaluated again; Err reports it.
func (p *Prior) Get(i int) (engine.ExampleResult, bool) {
	if i <= p.last || i < p.from { // out of order: look it up on its own
		res, ok, err := p.s.Result(p.id, i)
		if err != nil && p.err == nil {
			p.err = err
		}
		return res, ok && err == nil
	}
	p.last = i
	for {
		for p.pos < len(p.buf) && p.buf[p.pos].Index < i {
			p.pos++
		}
		if p.pos < len(p.buf) {
			if r := p.buf[p.pos]; r.Index == i {
				return r, true
			}
			return engine.ExampleResult{}, false
		}
		if p.end || p.err != nil {
			return engine.ExampleResult{}, false
		}
		p.err = p.fill(i)
	}
}

// Err is the first read error Get met.
func (p *Prior) Err() error { return p.err }

// fill reads the stored results from index i on.
func (p *Prior) fill(i int) error {
	clear(p.buf)
	p.buf, p.pos, p.from = p.buf[:0], 0, i
	rows, err := p.s.r.Query(`SELECT result FROM results WHERE run_id = ? AND idx >= ? ORDER BY idx LIMIT ?`,
		p.id, i, priorChunk)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(&p.bytes); err != nil {
			return err
		}
		var res engine.ExampleResult
		if err := decodeResult(p.bytes, &res); err != nil {
			return err
		}
		p.buf = append(p.buf, res)
	}
	p.end = len(p.buf) < priorChunk
	return rows.Err()
}

package leaderboard

import (
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// GridQuery selects a page of a board's examples: those Filter keeps (api.FilterDisagree,
// api.FilterAllWrong, or "" for all) where some system has Status (if set), after index
// After (store.First for the start), at most Limit of them (50 unless set).
type GridQuery struct {
	Filter string
	Status engine.Status
	After  int
	Limit  int
}

// Selection is a page of a board's examples: the board, its entries' runs (its order),
// the page's indices, how many examples match over every page, and the After of the next
// page (-1 on the last).
type Selection struct {
	Board   api.Leaderboard
	Runs    []store.Run
	Indices []int
	Matched int
	Next    int
}

// Select picks a page of the examples of the board of benchmarkHash on digest (as Build),
// from the cached outcomes alone: only the page's results need reading afterwards.
func (c *Cache) Select(st *store.Store, benchmarkHash, digest string, q GridQuery) (Selection, error) {
	b, err := c.board(st, benchmarkHash, digest)
	if err != nil {
		return Selection{}, err
	}
	sel := Selection{Board: b.Leaderboard, Runs: b.runs, Indices: []int{}, Next: -1}
	if q.Limit <= 0 {
		q.Limit = 50
	}
	n := 0
	for _, o := range b.outcomes {
		n = max(n, len(o.status))
	}
	want := otherStatus + 1 // no status asked
	if q.Status != "" {
		want = code(q.Status)
	}
	for i := range n {
		if !keeps(b.outcomes, i, q.Filter, want) {
			continue
		}
		sel.Matched++
		if i <= q.After {
			continue
		}
		if len(sel.Indices) < q.Limit {
			sel.Indices = append(sel.Indices, i)
		} else if sel.Next == -1 {
			sel.Next = sel.Indices[len(sel.Indices)-1]
		}
	}
	return sel, nil
}

// keeps says whether example i passes the filter and the status wanted (otherStatus+1:
// any), over the systems that have it.
func keeps(os []*outcomes, i int, filter string, want uint8) bool {
	var first *outcomes
	differ, right, has := false, false, want > otherStatus
	for _, o := range os {
		if i >= len(o.status) {
			continue
		}
		if first == nil {
			first = o
		} else if o.status[i] != first.status[i] || o.contribution[i] != first.contribution[i] {
			differ = true
		}
		right = right || o.contribution[i] == 1
		has = has || o.status[i] == want
	}
	switch filter {
	case api.FilterDisagree:
		return differ && has
	case api.FilterAllWrong:
		return first != nil && !right && has
	}
	return has
}

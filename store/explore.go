package store

import (
	"database/sql"
	"errors"

	"github.com/benchy-eval/benchy/api"
)

// Detail is one example in full for the example view: its result and dataset row, each
// value up to api.MaxDetail bytes (Clipped past it), and its neighbours under a filter.
type Detail struct {
	Shown
	// Prev and Next are the indexes of the results before and after this one under the
	// filter, in its order; -1 at an end, and when scanBudget rows were read without
	// finding one (a rare filter far away: the page list still reaches it).
	Prev, Next int
	// Request is the request the example sent to a model, as rendered and bounded by the
	// engine (engine.MaxRequest), "" when none was recorded. Only a detail reads it.
	Request string
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
	var req sql.NullString
	if err := s.r.QueryRow(`SELECT request FROM results WHERE run_id = ? AND idx = ?`, id, idx).Scan(&req); err != nil {
		return Detail{}, false, err
	}
	d.Request = req.String
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

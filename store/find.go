package store

import (
	"errors"
	"fmt"
	"strings"
)

// ErrAmbiguous is wrapped by FindRun's error for a part of an id that several runs share.
var ErrAmbiguous = errors.New("names several runs")

// MinFind is the shortest start or end of an id FindRun takes: the web app shows ids by
// their last ten characters, and six is the fewest that still name a run among thousands.
const MinFind = 6

// tooShort is FindRun's error for a part of an id shorter than MinFind: it says how much
// to give rather than "no such run", and is ErrNotFound still.
type tooShort struct{ id string }

func (e tooShort) Error() string {
	return fmt.Sprintf("run %s: give at least %d characters of the run's id", e.id, MinFind)
}

func (tooShort) Unwrap() error { return ErrNotFound }

// FindRun returns the id of the run named by id, or by a start or an end of its id at least
// six characters long (case aside): the web app shows ids by their ends ("…K1KP6G9XVT"), and
// people copy either end. A part several runs share, as a start of one and an end of
// another too, is ErrAmbiguous, naming up to three of them; none is ErrNotFound, and so is
// a part too short, with a message that says so. Spaces around id (copied from a table)
// do not count.
func (s *Store) FindRun(id string) (string, error) {
	id = strings.TrimSpace(id)
	part := strings.ToUpper(strings.TrimPrefix(id, "…"))
	var exact int
	if err := s.r.QueryRow(`SELECT count(*) FROM runs WHERE id = ?`, id).Scan(&exact); err != nil {
		return "", err
	}
	if exact == 1 {
		return id, nil
	}
	if len(part) < MinFind {
		return "", tooShort{id}
	}
	if strings.IndexFunc(part, func(r rune) bool { return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z') }) >= 0 {
		return "", fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	rows, err := s.r.Query(`SELECT id FROM runs WHERE id LIKE ? OR id LIKE ? ORDER BY id DESC LIMIT 4`, part+"%", "%"+part)
	if err != nil {
		return "", err
	}
	var ids []string
	for rows.Next() {
		var x string
		if err := rows.Scan(&x); err != nil {
			rows.Close()
			return "", err
		}
		ids = append(ids, x)
	}
	if err := closeRows(rows); err != nil {
		return "", err
	}
	switch len(ids) {
	case 0:
		return "", fmt.Errorf("run %s: %w", id, ErrNotFound)
	case 1:
		return ids[0], nil
	}
	more := ""
	if len(ids) > 3 {
		ids, more = ids[:3], ", ..."
	}
	return "", fmt.Errorf("run %s: %w (%s%s): give more of its id", id, ErrAmbiguous, strings.Join(ids, ", "), more)
}

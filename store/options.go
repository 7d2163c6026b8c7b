package store

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Resumed is the options a resume of a run stored with o goes on with when it asks for a
// budget of maxCost US dollars and maxTokens tokens (0: keep the stored one). A budget is
// the whole run's (engine.Budget counts what the earlier part spent), so a resume may
// raise a limit but not lower it: a smaller one would stop the run again before its next
// request. A limit on a side the run had none on is taken: it bounds what is left to
// spend (and a run benchy run stored before it kept its budget has none on record). The
// CLI's --resume and the server's resume share this rule.
func (o Options) Resumed(maxCost float64, maxTokens int) (Options, error) {
	switch {
	case maxCost > 0 && maxCost < o.MaxCost:
		return o, fmt.Errorf("max_cost %s is below the run's budget of %s: a resume only raises a budget", dollars(maxCost), dollars(o.MaxCost))
	case maxTokens > 0 && maxTokens < o.MaxTokens:
		return o, fmt.Errorf("max_tokens %d is below the run's budget of %d: a resume only raises a budget", maxTokens, o.MaxTokens)
	}
	if maxCost > 0 {
		o.MaxCost = maxCost
	}
	if maxTokens > 0 {
		o.MaxTokens = maxTokens
	}
	return o, nil
}

// dollars is an amount as given: $0.05, not $0.050000.
func dollars(c float64) string { return "$" + strconv.FormatFloat(c, 'f', -1, 64) }

// SetOptions records the options a resume of run id goes on with (a raised budget, say:
// Resumed), so that a later resume keeps them. Only a cancelled or interrupted run's may
// change: a run going on keeps what it started with.
func (s *Store) SetOptions(id string, o Options) error {
	body, _ := json.Marshal(o)
	r, err := s.w.Exec(`UPDATE runs SET options = ? WHERE id = ? AND status IN (?, ?)`, string(body), id, Cancelled, Interrupted)
	if err != nil {
		return err
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return fmt.Errorf("run %s is not cancelled or interrupted: its options stay: %w", id, ErrTransition)
	}
	return nil
}

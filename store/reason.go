package store

// CancelFor ends run id cancelled for reason (engine.ReasonBudget: its budget would have
// been passed), which Run.Reason then says: a user did not cancel it, and resuming it
// with a larger budget goes on. Resuming (MarkRunning) clears the reason.
func (s *Store) CancelFor(id, reason string) error {
	return s.transition(id, Cancelled, "finished_at = ?, reason = ?", s.timestamp(), reason)
}

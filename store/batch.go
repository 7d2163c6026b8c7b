package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// The provider batches of a run whose provider has batch: true (migration 8): each batch
// submitted, with the provider's state and what the run service needs to go on with it
// (its examples, its files: provider.BatchDetail, as JSON), and each example's reply once
// its batch ended. A restarted server or a resumed benchy run finds them here and polls
// the batches rather than sending their requests again; a page shows a run waiting on
// them from here too.

// Batch is one provider batch of a run.
type Batch struct {
	ID       string
	Provider string // the runtime file's name of the provider
	Kind     string // its protocol: openai, anthropic
	State    string // the provider's status (provider.BatchInfo.State)
	Requests int
	Detail   []byte // JSON (provider.BatchDetail)
	// CreatedAt is when it was submitted, PolledAt when its state was last asked ("":
	// never), as the store writes times.
	CreatedAt, PolledAt string
}

// AddBatch records batch b of run run, as it was submitted.
func (s *Store) AddBatch(run string, b Batch) error {
	if b.Detail == nil {
		b.Detail = []byte("{}")
	}
	_, err := s.w.Exec(`INSERT INTO batches (run_id, id, provider, kind, state, requests, detail, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, run, b.ID, b.Provider, b.Kind, b.State, b.Requests, string(b.Detail), s.timestamp())
	return err
}

// UpdateBatch records what a poll of batch id of run run said: its state and detail.
func (s *Store) UpdateBatch(run, id, state string, detail []byte) error {
	r, err := s.w.Exec(`UPDATE batches SET state = ?, detail = ?, polled_at = ? WHERE run_id = ? AND id = ?`,
		state, string(detail), s.timestamp(), run, id)
	if err != nil {
		return err
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return fmt.Errorf("run %s has no batch %s", run, id)
	}
	return nil
}

// Batches lists the batches of run run in the order they were submitted.
func (s *Store) Batches(run string) ([]Batch, error) {
	rows, err := s.r.Query(`SELECT id, provider, kind, state, requests, detail, created_at, coalesce(polled_at, '')
		FROM batches WHERE run_id = ? ORDER BY created_at, rowid`, run)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Batch
	for rows.Next() {
		var b Batch
		var detail string
		if err := rows.Scan(&b.ID, &b.Provider, &b.Kind, &b.State, &b.Requests, &detail, &b.CreatedAt, &b.PolledAt); err != nil {
			return nil, err
		}
		b.Detail = []byte(detail)
		out = append(out, b)
	}
	return out, rows.Err()
}

// BatchReply is one example's result in an ended batch: the provider's reply body, or
// (Reply nil) the message of the failure it was.
type BatchReply struct {
	Index int
	Reply []byte
	Error string
}

// PutBatchReplies records replies of batch batch of run run, in one transaction; an
// example already recorded takes the new one.
func (s *Store) PutBatchReplies(run, batch string, replies []BatchReply) error {
	tx, err := s.w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st, err := tx.Prepare(`INSERT OR REPLACE INTO batch_replies (run_id, idx, batch_id, reply, error) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, r := range replies {
		var reply, msg any
		if r.Reply != nil {
			reply = r.Reply
		} else {
			msg = r.Error
		}
		if _, err := st.Exec(run, r.Index, batch, reply, msg); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// BatchReply returns example index's reply in the batches of run run: the reply body, or
// the message of its failure; ok is false when none is recorded.
func (s *Store) BatchReply(run string, index int) (reply []byte, message string, ok bool, err error) {
	var msg sql.NullString
	err = s.r.QueryRow(`SELECT reply, error FROM batch_replies WHERE run_id = ? AND idx = ?`, run, index).Scan(&reply, &msg)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, err
	}
	return reply, msg.String, true, nil
}

// BatchReplied calls fn with the index of every example of run run whose reply is
// recorded, in order.
func (s *Store) BatchReplied(run string, fn func(index int)) error {
	rows, err := s.r.Query(`SELECT idx FROM batch_replies WHERE run_id = ? ORDER BY idx`, run)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		if err := rows.Scan(&i); err != nil {
			return err
		}
		fn(i)
	}
	return rows.Err()
}

// Replies is the batch replies of run run, for the adapters of a batch run
// (provider.BatchReplies).
func (s *Store) Replies(run string) *Replies { return &Replies{s: s, run: run} }

// Replies answers provider.BatchReplies from the store.
type Replies struct {
	s   *Store
	run string
}

// BatchReply is Store.BatchReply of the run.
func (r *Replies) BatchReply(index int) ([]byte, string, bool, error) {
	return r.s.BatchReply(r.run, index)
}

package store

import (
	"fmt"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// A run whose owner died (a `benchy run` killed with -9 while a server is up) stays queued
// or running in the store until someone looks: MarkInterrupted at a start, or Settle when a
// server is asked about that one run. Owner tells a live owner's run from a dead one's.

// RunOwner is who executes a queued or running run.
type RunOwner struct {
	PID       int
	Host      string
	Heartbeat time.Time // its last heartbeat; zero when none is recorded
	Mine      bool      // this Store executes it
	Stale     bool      // the owner is gone (see stale): the run can be marked interrupted
}

// String names the owner for a message: "process 4242 on build-1 (its last heartbeat 3s ago)".
func (o RunOwner) String() string {
	if o.PID == 0 && o.Host == "" {
		return "no process (none is recorded)"
	}
	what := fmt.Sprintf("process %d on %s", o.PID, o.Host)
	if !o.Heartbeat.IsZero() {
		what += fmt.Sprintf(" (its last heartbeat %s ago)", time.Since(o.Heartbeat).Round(time.Second))
	}
	return what
}

// Owner returns the owner of run id, and whether the run is queued or running (a run of
// any other status has no owner).
func (s *Store) Owner(id string) (RunOwner, bool, error) {
	status, o, err := ownerRow(s.r, id)
	if err != nil {
		return RunOwner{}, false, err
	}
	if status != Queued && status != Running {
		return RunOwner{}, false, nil
	}
	return s.ownerOf(o), true, nil
}

func (s *Store) ownerOf(o runOwner) RunOwner {
	ro := RunOwner{PID: int(o.pid.Int64), Host: o.host.String, Mine: o.token.Valid && o.token.String == s.me.token, Stale: s.stale(o)}
	if t, err := time.Parse(time.RFC3339Nano, o.beat.String); err == nil {
		ro.Heartbeat = t
	}
	return ro
}

// Settle marks run id interrupted if it is queued or running and its owner is stale (its
// process gone from this host, its heartbeat stopped, or none recorded), as MarkInterrupted
// does for every such run, and reports whether it did. A run that this Store or another
// live process executes is left as it is.
func (s *Store) Settle(id string) (bool, error) {
	tx, err := s.w.Begin()
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	status, o, err := ownerRow(tx, id)
	if err != nil {
		return false, err
	}
	if (status != Queued && status != Running) || !s.stale(o) {
		return false, nil
	}
	if _, err := tx.Exec(`UPDATE runs SET status = 'interrupted', `+disown+` WHERE id = ?`, id); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// Counts is the summary of the results stored so far for run id: what a run executed by
// another process has done, which its row records only when it finishes. It counts the
// results index by status: some 130 ms a million results.
func (s *Store) Counts(id string) (engine.Summary, error) {
	rows, err := s.r.Query(`SELECT status, count(*) FROM results WHERE run_id = ? GROUP BY status`, id)
	if err != nil {
		return engine.Summary{}, err
	}
	defer rows.Close()
	var sum engine.Summary
	for rows.Next() {
		var status string
		var n int
		if err := rows.Scan(&status, &n); err != nil {
			return engine.Summary{}, err
		}
		sum.Examples += n
		switch engine.Status(status) {
		case engine.StatusValid:
			sum.Valid += n
		case engine.StatusInvalidOutput:
			sum.InvalidOutputs += n
		case engine.StatusExecutionError:
			sum.ExecutionErrors += n
		}
	}
	return sum, rows.Err()
}

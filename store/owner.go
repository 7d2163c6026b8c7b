package store

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// A run that is queued or running belongs to the process executing it: its row names the
// owner (process id, host name and a token drawn when the Store was opened) and carries a
// heartbeat the owner refreshes every heartbeatEvery. Only a stale run, whose owner is gone
// from this host or has not beaten for staleAfter, is marked interrupted by another process
// starting, or resumed by one: a `benchy serve` started during a `benchy run` leaves the
// CLI's run alone.

// Heartbeat timing: a variable so that tests can run it faster.
var heartbeatEvery = 5 * time.Second

// staleAfter is how long a run's heartbeat may lag before its owner counts as gone.
func staleAfter() time.Duration { return 3 * heartbeatEvery }

// owner identifies one Store as the executor of runs.
type owner struct {
	pid   int
	host  string
	token string
}

func newOwner() owner {
	var b [16]byte
	rand.Read(b[:])
	host, _ := os.Hostname()
	return owner{pid: os.Getpid(), host: host, token: hex.EncodeToString(b[:])}
}

// heartbeat is the goroutine that refreshes the runs a Store owns. It starts with the first
// run the Store takes, so that a Store only read from never writes.
type heartbeat struct {
	mu      sync.Mutex
	quit    chan struct{}
	exited  chan struct{}
	started bool
	stopped bool
}

// own starts the heartbeat, once.
func (s *Store) own() {
	h := &s.beat
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.started || h.stopped {
		return
	}
	h.started = true
	h.quit, h.exited = make(chan struct{}), make(chan struct{})
	go s.beating(h.quit, h.exited)
}

func (s *Store) beating(quit, exited chan struct{}) {
	defer close(exited)
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-quit:
			return
		case <-t.C:
			// A failed beat (the database busy past busy_timeout) is retried at the next tick;
			// three missed ones make the runs look stale, which is what they then are.
			s.w.Exec(`UPDATE runs SET heartbeat_at = ? WHERE owner_token = ? AND status IN ('queued', 'running')`,
				beatTime(time.Now()), s.me.token)
		}
	}
}

// stop ends the heartbeat, if it had started.
func (h *heartbeat) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return
	}
	h.stopped = true
	if h.started {
		close(h.quit)
		<-h.exited
	}
}

// release gives up the runs this Store still owns, when it closes.
func (s *Store) release() error {
	if !s.beat.started {
		return nil
	}
	_, err := s.w.Exec(`UPDATE runs SET `+disown+` WHERE owner_token = ?`, s.me.token)
	return err
}

// Ownership in SQL: claim sets this Store as the owner (its arguments: claimArgs), disown
// clears the owner of a run that has stopped.
const (
	claim  = "owner_pid = ?, owner_host = ?, owner_token = ?, heartbeat_at = ?"
	disown = "owner_pid = NULL, owner_host = NULL, owner_token = NULL, heartbeat_at = NULL"
	// claimable: no other live owner, judged by the heartbeat (args: token, stale cutoff).
	claimable = "(owner_token IS NULL OR owner_token = ? OR heartbeat_at IS NULL OR heartbeat_at < ?)"
	// mine: the run has no owner or this Store is it (args: token).
	mine = "(owner_token IS NULL OR owner_token = ?)"
)

func (s *Store) claimArgs() []any {
	return []any{s.me.pid, s.me.host, s.me.token, beatTime(time.Now())}
}

// cutoff is the heartbeat time before which an owner counts as gone.
func (s *Store) cutoff() string { return beatTime(time.Now().Add(-staleAfter())) }

// beatTime formats a heartbeat. Heartbeats follow the wall clock, not Store.now, which
// dates what a run shows.
func beatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

// runOwner is the owner columns of a run, as stored.
type runOwner struct {
	pid   sql.NullInt64
	host  sql.NullString
	token sql.NullString
	beat  sql.NullString
}

// stale reports whether a queued or running run's owner has stopped executing it: none is
// recorded (the Store closed, or a benchy before owners), its heartbeat is missing or older
// than staleAfter, or its process is gone from this host.
func (s *Store) stale(o runOwner) bool {
	switch {
	case !o.token.Valid:
		return true
	case o.token.String == s.me.token:
		return false
	case !o.beat.Valid || o.beat.String < s.cutoff():
		return true
	case o.host.Valid && o.host.String == s.me.host && o.pid.Valid:
		return !processAlive(int(o.pid.Int64))
	}
	return false
}

// rowQuerier is a *sql.DB or a *sql.Tx.
type rowQuerier interface {
	QueryRow(query string, args ...any) *sql.Row
}

// ownerRow reads the status and the owner of run id, ErrNotFound when there is none.
func ownerRow(q rowQuerier, id string) (Status, runOwner, error) {
	var status string
	var o runOwner
	err := q.QueryRow(`SELECT status, owner_pid, owner_host, owner_token, heartbeat_at FROM runs WHERE id = ?`, id).
		Scan(&status, &o.pid, &o.host, &o.token, &o.beat)
	if errors.Is(err, sql.ErrNoRows) {
		err = fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	return Status(status), o, err
}

// MarkInterrupted marks every stale run (queued or running, whose owner is gone: see stale)
// as interrupted, and says how many there were. Runs that a live process executes, a
// `benchy run` beside a starting server say, are left alone. Call it at startup, before
// this process starts runs.
func (s *Store) MarkInterrupted() (int, error) {
	tx, err := s.w.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	rows, err := tx.Query(`SELECT id, owner_pid, owner_host, owner_token, heartbeat_at FROM runs WHERE status IN ('queued', 'running')`)
	if err != nil {
		return 0, err
	}
	var ids []string
	for rows.Next() {
		var id string
		var o runOwner
		if err := rows.Scan(&id, &o.pid, &o.host, &o.token, &o.beat); err != nil {
			rows.Close()
			return 0, err
		}
		if s.stale(o) {
			ids = append(ids, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	for _, id := range ids {
		if _, err := tx.Exec(`UPDATE runs SET status = 'interrupted', `+disown+` WHERE id = ?`, id); err != nil {
			return 0, err
		}
	}
	return len(ids), tx.Commit()
}

// refusal explains why a transition of run id did not apply: no such run, a status that
// does not allow it, or another live owner.
func (s *Store) refusal(id string, to Status, allowed []Status) error {
	cur, o, err := ownerRow(s.w, id)
	if err != nil {
		return err
	}
	for _, st := range allowed {
		if cur == st && o.token.Valid && o.token.String != s.me.token {
			return fmt.Errorf("run %s is %s, executed by %s, not by this process: %w", id, cur, s.ownerOf(o), ErrTransition)
		}
	}
	return fmt.Errorf("run %s is %s, cannot become %s: %w", id, cur, to, ErrTransition)
}

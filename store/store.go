package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is an open run store. Its methods are safe for concurrent use.
//
// Writes go through one connection, so that writers in this process queue in Go rather than
// spin on SQLite's lock; reads use a pool of read-only connections that WAL lets run beside
// the writer. Other processes (a CLI run in the same workspace) wait on busy_timeout.
type Store struct {
	w   *sql.DB   // one connection, BEGIN IMMEDIATE
	r   *sql.DB   // read-only pool
	ins *sql.Stmt // insertFull, prepared once
	hit *sql.Stmt // the response cache's lookup (cache.go), prepared once on the read pool
	now func() time.Time

	me   owner     // this Store, as the owner of the runs it executes
	beat heartbeat // keeps the runs it owns fresh while they are queued or running
}

// ErrNotFound is returned for a run that does not exist.
var ErrNotFound = errors.New("no such run")

// pragmas apply to every connection. busy_timeout covers another process holding the write
// lock; synchronous=FULL makes every commit durable: in WAL mode SQLite fsyncs the log at
// each commit, so a commit that returned survives a power loss, not only a crash.
const pragmas = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)"

// Dir and File place a workspace's run store: WORKSPACE/.benchy/benchy.db, shared by
// `benchy run` and `benchy serve`.
const (
	Dir  = ".benchy"
	File = "benchy.db"
)

// Path is the run store of a workspace.
func Path(workspace string) string { return filepath.Join(workspace, Dir, File) }

// Open opens the store at path, creating the file and its directory if needed, and brings
// the schema up to date.
func Open(path string) (*Store, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("store path %q: '?' and '#' are not allowed", path)
	}
	// Two openers of a new store (benchy run --parallel-systems, a CLI beside the server)
	// meet on its first writes: turning WAL on and the first migration take the write lock
	// outside busy_timeout's reach, and the second is refused SQLITE_BUSY at once. It waits
	// and tries again, as busy_timeout would have.
	deadline := time.Now().Add(10 * time.Second)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		s, err := openOnce(path)
		if err == nil || !busy(err) || time.Now().After(deadline) {
			return s, err
		}
		time.Sleep(wait)
	}
}

// busy says err is SQLite's "database is locked".
func busy(err error) bool {
	return strings.Contains(err.Error(), "SQLITE_BUSY") || strings.Contains(err.Error(), "database is locked")
}

func openOnce(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	// A plain path, not a file: URI: the driver splits the options off at '?' and SQLite
	// reads the path as is, with no percent-decoding. page_size counts only for a new file
	// and must come before WAL, which the _journal_mode key applies after every _pragma:
	// 16 KB pages store results some 15% faster than 4 KB ones (fewer, larger WAL writes).
	w, err := sql.Open("sqlite", path+"?_pragma=page_size(16384)&_journal_mode=WAL&"+pragmas+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	if err := migrate(w, migrations, backfills); err != nil {
		w.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	ins, err := w.Prepare(insertFull)
	if err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", path+"?"+pragmas+"&_pragma=query_only(1)&_txlock=deferred")
	if err != nil {
		w.Close()
		return nil, err
	}
	n := max(4, runtime.NumCPU())
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	r.SetConnMaxLifetime(0)
	if err := r.Ping(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	hit, err := r.Prepare(cacheGet)
	if err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return &Store{w: w, r: r, ins: ins, hit: hit, now: time.Now, me: newOwner()}, nil
}

// Close closes the store. Writers still open lose what they had not flushed. The runs this
// Store still has queued or running are given up, so that the next MarkInterrupted finds
// them stale at once.
func (s *Store) Close() error {
	s.beat.stop()
	return errors.Join(s.release(), s.ins.Close(), s.hit.Close(), s.r.Close(), s.w.Close())
}

// timeFormat has a fixed width, so stored times sort as text.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

func (s *Store) timestamp() string { return s.now().UTC().Format(timeFormat) }

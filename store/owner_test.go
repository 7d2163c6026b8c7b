package store

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestHardeningStoreCommitsDurable: a commit is fsynced before it returns (synchronous=FULL
// in WAL mode), on the writer and the readers alike.
func TestHardeningStoreCommitsDurable(t *testing.T) {
	s, _ := open(t)
	for _, p := range []struct {
		name string
		q    func(string) (string, error)
	}{
		{"writer", func(q string) (v string, err error) { err = s.w.QueryRow(q).Scan(&v); return }},
		{"reader", func(q string) (v string, err error) { err = s.r.QueryRow(q).Scan(&v); return }},
	} {
		if got, err := p.q("PRAGMA synchronous"); err != nil || got != "2" {
			t.Errorf("%s: PRAGMA synchronous = %s, %v; want 2 (FULL)", p.name, got, err)
		}
		if got, err := p.q("PRAGMA journal_mode"); err != nil || got != "wal" {
			t.Errorf("%s: PRAGMA journal_mode = %s, %v; want wal", p.name, got, err)
		}
	}
}

// TestHardeningLiveRunNotInterrupted: a run that another live Store executes (a `benchy
// run` beside a starting server) is neither marked interrupted nor taken over; it becomes
// stale when its owner's process is gone from this host, when its heartbeat stops for
// 15 s, or when its Store closes.
func TestHardeningLiveRunNotInterrupted(t *testing.T) {
	defer func(d time.Duration) { heartbeatEvery = d }(heartbeatEvery)
	heartbeatEvery = 50 * time.Millisecond

	cli, path := open(t)
	live := create(t, cli, "b.yaml")
	if err := cli.MarkRunning(live.ID, 10); err != nil {
		t.Fatal(err)
	}
	queued := create(t, cli, "b.yaml")

	server, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	if n, err := server.MarkInterrupted(); n != 0 || err != nil {
		t.Fatalf("MarkInterrupted beside a live owner: %d, %v; want 0", n, err)
	}
	for _, id := range []string{live.ID, queued.ID} {
		if got, _ := server.GetRun(id); got.Status != Running && got.Status != Queued {
			t.Errorf("%s: %s after another process started", id, got.Status)
		}
	}
	// Not this Store's run: it may neither take it nor end it.
	if err := server.MarkRunning(queued.ID, 10); !errors.Is(err, ErrTransition) || !strings.Contains(err.Error(), "executed by process") {
		t.Errorf("taking a live run: %v, want a refusal naming its owner", err)
	}
	if err := server.SetStatus(live.ID, Interrupted); !errors.Is(err, ErrTransition) {
		t.Errorf("ending another process's run: %v, want ErrTransition", err)
	}

	// The heartbeat moves.
	beat := func(id string) string {
		var b string
		server.r.QueryRow(`SELECT coalesce(heartbeat_at, '') FROM runs WHERE id = ?`, id).Scan(&b)
		return b
	}
	first := beat(live.ID)
	time.Sleep(4 * heartbeatEvery)
	if next := beat(live.ID); next <= first {
		t.Errorf("heartbeat %q did not advance from %q", next, first)
	}

	// An owner process gone from this host is stale at once, heartbeat or not.
	if _, err := cli.w.Exec(`UPDATE runs SET owner_pid = ?, owner_token = 'gone' WHERE id = ?`, testkit.DeadPID(t), live.ID); err != nil {
		t.Fatal(err)
	}
	if n, err := server.MarkInterrupted(); n != 1 || err != nil {
		t.Fatalf("MarkInterrupted of a dead owner's run: %d, %v; want 1", n, err)
	}
	// Another host's owner is judged by its heartbeat alone.
	other := create(t, cli, "b.yaml")
	fresh := beatTime(time.Now())
	old := beatTime(time.Now().Add(-time.Hour))
	for _, beat := range []string{fresh, old} {
		if _, err := cli.w.Exec(`UPDATE runs SET owner_host = 'elsewhere', owner_pid = 1, owner_token = 'remote', heartbeat_at = ? WHERE id = ?`, beat, other.ID); err != nil {
			t.Fatal(err)
		}
		n, err := server.MarkInterrupted()
		if want := map[string]int{fresh: 0, old: 1}[beat]; n != want || err != nil {
			t.Errorf("another host's run, heartbeat %s: MarkInterrupted %d, %v; want %d", beat, n, err, want)
		}
	}
	// A Store that closes gives up its runs.
	cli.Close()
	if n, err := server.MarkInterrupted(); n != 1 || err != nil {
		t.Fatalf("MarkInterrupted after the owner closed: %d, %v; want 1 (the queued run)", n, err)
	}
	// An interrupted run is this Store's to resume.
	if err := server.SetStatus(queued.ID, Queued); err != nil {
		t.Errorf("resuming a stale run: %v", err)
	}
}

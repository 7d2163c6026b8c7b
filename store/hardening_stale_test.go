package store

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestHardeningSettleStale (issue 11 hardening, a killed CLI run stuck as running): Settle
// marks one run interrupted when its owner is gone (the process dead, no owner, or a
// heartbeat too old), and leaves alone a run that this Store or another live one executes,
// and one that is not queued or running. Owner names the owner and says which it is;
// Counts sums the stored results by status; Peek reads a run without its IR.
func TestHardeningSettleStale(t *testing.T) {
	server, path := open(t)
	cli, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	live := create(t, cli, "b.yaml")
	if err := cli.MarkRunning(live.ID, 10); err != nil {
		t.Fatal(err)
	}
	mine := create(t, server, "b.yaml")
	dead := create(t, cli, "b.yaml")
	if _, err := cli.w.Exec(`UPDATE runs SET owner_pid = ?, owner_token = 'killed' WHERE id = ?`, testkit.DeadPID(t), dead.ID); err != nil {
		t.Fatal(err)
	}
	done := create(t, server, "b.yaml")
	if err := server.SetStatus(done.ID, Cancelled); err != nil {
		t.Fatal(err)
	}

	host, _ := os.Hostname()
	for _, tt := range []struct {
		id          string
		active      bool
		mine, stale bool
	}{
		{live.ID, true, false, false},
		{mine.ID, true, true, false},
		{dead.ID, true, false, true},
		{done.ID, false, false, false},
	} {
		o, active, err := server.Owner(tt.id)
		if err != nil || active != tt.active || o.Mine != tt.mine || o.Stale != tt.stale {
			t.Errorf("Owner(%s): %+v, active %v, %v; want active %v, mine %v, stale %v", tt.id, o, active, err, tt.active, tt.mine, tt.stale)
		}
		if tt.active && !strings.Contains(o.String(), "on "+host) {
			t.Errorf("Owner(%s) = %q, want the process and host", tt.id, o)
		}
		settled, err := server.Settle(tt.id)
		if err != nil || settled != tt.stale {
			t.Errorf("Settle(%s): %v, %v; want %v", tt.id, settled, err, tt.stale)
		}
	}
	for id, want := range map[string]Status{live.ID: Running, mine.ID: Queued, dead.ID: Interrupted, done.ID: Cancelled} {
		if r, err := server.Peek(id); err != nil || r.Status != want || len(r.IR) != 0 {
			t.Errorf("Peek(%s): %s with %d bytes of IR, %v; want %s without IR", id, r.Status, len(r.IR), err, want)
		}
	}
	if err := server.SetStatus(dead.ID, Queued); err != nil {
		t.Errorf("resuming the settled run: %v", err)
	}
	if _, err := server.Settle("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Settle of no run: %v", err)
	}

	w := cli.ResultWriter(live.ID)
	for i := range 60 {
		w.Add(example(i))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := summaryOf(60)
	if got, err := server.Counts(live.ID); err != nil || got != want {
		t.Errorf("Counts: %+v, %v; want %+v", got, err, want)
	}
}

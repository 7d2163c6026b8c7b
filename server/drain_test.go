package server

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestDrain: a graceful shutdown stops the engine (engine.Options.Stop) at concurrency 4
// with four examples in flight: the four finish and are stored, no other starts, the run
// is interrupted without an error logged, and a resume on the next server asks only for
// the rest and completes it with a clean run's results.
func TestDrain(t *testing.T) {
	dir := runWorkspace(t, slow{gate: true, from: 2})
	var log lockedBuffer
	s, srv := serve(t, Config{Workspace: dir, Log: &log})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 4}`)
	waitRun(t, srv, id, "2 done", func(v api.Run) bool { return v.Done == 2 })
	for len(calls(t, dir)) < 6 { // examples 2-5 are in flight, held by the gate
		time.Sleep(2 * time.Millisecond)
	}
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done <- s.Shutdown(ctx)
	}()
	for !s.runs.isClosing() {
		time.Sleep(2 * time.Millisecond)
	}
	openGate(t, dir) // the four answer and free their workers: none may take example 6
	if err := <-done; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if v := getRun(t, srv, id); v.Status != api.Interrupted || v.Done != 6 {
		t.Errorf("after shutdown: %s, %d done", v.Status, v.Done)
	}
	if got := results(t, srv, id, "", 100); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("stored %v, want the examples started before the shutdown", got)
	}
	if got := slices.Sorted(slices.Values(calls(t, dir))); !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("the AI-system was asked for %v", got)
	}
	if strings.Contains(log.String(), "interrupted") {
		t.Errorf("a drained run logged an error:\n%s", log.String())
	}
	srv.Close()
	s.Close()

	_, srv2 := serve(t, Config{Workspace: dir})
	before := len(calls(t, dir))
	decode(t, srv2, "POST", "/api/runs/"+id+"/resume", "{}", http.StatusAccepted, nil)
	if v := waitRun(t, srv2, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil }); v.Status != api.Completed || v.Done != slowExamples {
		t.Fatalf("resumed: %s, %d done", v.Status, v.Done)
	}
	if asked := slices.Sorted(slices.Values(calls(t, dir)[before:])); !slices.Equal(asked, []int{6, 7, 8, 9, 10, 11}) {
		t.Errorf("the resumed run asked for %v", asked)
	}
	clean := startRun(t, srv2, `{"benchmark": "slow/benchmark.yaml", "concurrency": 4}`)
	waitStatus(t, srv2, clean, store.Completed)
	_, resumed := export(t, srv2, id, "jsonl")
	_, fresh := export(t, srv2, clean, "jsonl")
	if resumed == "" || resumed != fresh {
		t.Errorf("the resumed results differ from a clean run's:\n%s\n---\n%s", resumed, fresh)
	}
}

// TestDrainIdle: with nothing in flight, a shutdown is over at once, not at its deadline.
func TestDrainIdle(t *testing.T) {
	dir := runWorkspace(t, slow{})
	s, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 4}`)
	waitStatus(t, srv, id, store.Completed)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("an idle shutdown took %v", d)
	}
	if v := getRun(t, srv, id); v.Status != api.Completed {
		t.Errorf("a finished run became %s", v.Status)
	}
}

// lockedBuffer is a bytes.Buffer safe for the server's concurrent log writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

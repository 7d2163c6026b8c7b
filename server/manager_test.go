package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// TestMaxRuns: with two slots, a third and fourth run wait in order until a slot frees;
// cancelling a queued run takes it out of the queue at once.
func TestMaxRuns(t *testing.T) {
	dir := runWorkspace(t, slow{gate: true}) // every example waits for the gate
	_, srv := serve(t, Config{Workspace: dir, MaxRuns: 2})
	body := `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`
	ids := []string{startRun(t, srv, body), startRun(t, srv, body), startRun(t, srv, body), startRun(t, srv, body), startRun(t, srv, body)}
	waitStatus(t, srv, ids[0], store.Running)
	waitStatus(t, srv, ids[1], store.Running)
	for _, id := range ids[2:] {
		if v := getRun(t, srv, id); v.Status != api.Queued || v.StartedAt != nil {
			t.Fatalf("run %s is %s with both slots taken", id, v.Status)
		}
	}
	decode(t, srv, "POST", "/api/runs/"+ids[4]+"/cancel", "{}", http.StatusAccepted, nil)
	if v := getRun(t, srv, ids[4]); v.Status != api.Cancelled || v.FinishedAt == nil {
		t.Fatalf("a cancelled queued run is %s", v.Status)
	}

	decode(t, srv, "POST", "/api/runs/"+ids[0]+"/cancel", "{}", http.StatusAccepted, nil)
	waitStatus(t, srv, ids[0], store.Cancelled)
	waitStatus(t, srv, ids[2], store.Running) // first in, first out
	if v := getRun(t, srv, ids[3]); v.Status != api.Queued {
		t.Fatalf("the fourth run is %s with both slots taken", v.Status)
	}
	openGate(t, dir)
	for _, id := range ids[1:4] {
		if v := waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil }); v.Status != api.Completed || v.Done != slowExamples {
			t.Errorf("run %s: %s, %d done", id, v.Status, v.Done)
		}
	}
	if v := getRun(t, srv, ids[4]); v.Status != api.Cancelled {
		t.Errorf("the cancelled queued run ran: %s", v.Status)
	}
}

// TestShutdownDrains: a graceful shutdown stops the engine (engine.Options.Stop) with
// every worker busy, at concurrency 1 and 4: the examples in flight finish and are stored,
// no other starts, new runs and resumes are refused, and the run is interrupted without an
// error logged. A resume on the next server asks only for the rest and completes it with a
// clean run's results.
func TestShutdownDrains(t *testing.T) {
	for _, c := range []struct{ concurrency, from int }{
		{1, 3}, // example 3 in flight
		{4, 2}, // examples 2-5 in flight
	} {
		t.Run(fmt.Sprintf("concurrency %d", c.concurrency), func(t *testing.T) {
			dir := runWorkspace(t, slow{gate: true, from: c.from})
			var log testkit.Buffer
			s, srv := serve(t, Config{Workspace: dir, Log: &log})
			body := fmt.Sprintf(`{"benchmark": "slow/benchmark.yaml", "concurrency": %d}`, c.concurrency)
			id := startRun(t, srv, body)
			waitRun(t, srv, id, fmt.Sprintf("%d done", c.from), func(v api.Run) bool { return v.Done == c.from })
			started := c.from + c.concurrency
			for len(calls(t, dir)) < started { // the gate holds the examples in flight
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
			if r := call(t, srv, "POST", "/api/runs", `{"benchmark": "benchmark.yaml"}`); r.status != http.StatusServiceUnavailable || !strings.Contains(r.body, "shutting_down") {
				t.Errorf("a run during shutdown: %d %s", r.status, r.body)
			}
			openGate(t, dir) // the examples in flight answer and free their workers: none may take another
			if err := <-done; err != nil {
				t.Fatalf("Shutdown: %v", err)
			}
			want := span(0, started)
			if v := getRun(t, srv, id); v.Status != api.Interrupted || v.Done != started {
				t.Errorf("after shutdown: %s, %d done", v.Status, v.Done)
			}
			if got := results(t, srv, id, "", 100); !slices.Equal(got, want) {
				t.Errorf("stored %v, want the examples started before the shutdown", got)
			}
			if got := slices.Sorted(slices.Values(calls(t, dir))); !slices.Equal(got, want) {
				t.Errorf("the AI-system was asked for %v", got)
			}
			if strings.Contains(log.String(), "interrupted") {
				t.Errorf("a drained run logged an error:\n%s", log.String())
			}
			if r := call(t, srv, "POST", "/api/runs/"+id+"/resume", "{}"); r.status != http.StatusServiceUnavailable {
				t.Errorf("resume after shutdown: %d %s", r.status, r.body)
			}
			if err := s.Shutdown(context.Background()); err != nil {
				t.Errorf("a second Shutdown: %v", err)
			}
			srv.Close()
			s.Close()

			_, srv2 := serve(t, Config{Workspace: dir})
			before := len(calls(t, dir))
			decode(t, srv2, "POST", "/api/runs/"+id+"/resume", "{}", http.StatusAccepted, nil)
			if v := waitRun(t, srv2, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil }); v.Status != api.Completed || v.Done != slowExamples {
				t.Fatalf("resumed: %s, %d done", v.Status, v.Done)
			}
			if asked := slices.Sorted(slices.Values(calls(t, dir)[before:])); !slices.Equal(asked, span(started, slowExamples)) {
				t.Errorf("the resumed run asked for %v", asked)
			}
			clean := startRun(t, srv2, body)
			waitStatus(t, srv2, clean, store.Completed)
			_, resumed := export(t, srv2, id, "jsonl")
			_, fresh := export(t, srv2, clean, "jsonl")
			if resumed == "" || resumed != fresh {
				t.Errorf("the resumed results differ from a clean run's:\n%s\n---\n%s", resumed, fresh)
			}
		})
	}
}

// TestShutdownIdle: with nothing in flight, a shutdown is over at once, not at its deadline.
func TestShutdownIdle(t *testing.T) {
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

// TestShutdownDeadline: examples still going at the deadline are cut short, the run
// interrupted with what was stored.
func TestShutdownDeadline(t *testing.T) {
	dir := runWorkspace(t, slow{gate: true, from: 2})
	s, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 2}`)
	waitRun(t, srv, id, "2 done", func(v api.Run) bool { return v.Done == 2 })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown past its deadline: %v", err)
	}
	if v := getRun(t, srv, id); v.Status != api.Interrupted || v.Done != 2 {
		t.Errorf("after shutdown: %s, %d done", v.Status, v.Done)
	}
	if got := results(t, srv, id, "", 100); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("stored %v", got)
	}
}

// TestRestart: runs outlive their server. A finished run is still there; one that was
// running when the server closed, or when its process died, is interrupted and resumes.
func TestRestart(t *testing.T) {
	dir := runWorkspace(t, slow{gate: true, from: 4})
	s1, srv1 := serve(t, Config{Workspace: dir})
	done := startRun(t, srv1, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv1, done, store.Completed)
	running := startRun(t, srv1, `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`)
	waitRun(t, srv1, running, "4 done", func(v api.Run) bool { return v.Done == 4 })
	srv1.Close()
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}

	// A server killed in the middle of a run leaves it running in the store.
	st, err := store.Open(filepath.Join(dir, ".benchy", "benchy.db"))
	if err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "slow", "benchmark.yaml"))
	canonical, hash, _ := compiler.CompileCanonical(src)
	crashed, err := st.CreateRun(store.RunSpec{Benchmark: "slow/benchmark.yaml", IR: canonical, IRHash: hash, AISystem: map[string]string{}, Binding: "slow-system"})
	if err == nil {
		err = st.MarkRunning(crashed.ID, slowExamples)
	}
	if err := errors.Join(err, st.Close()); err != nil {
		t.Fatal(err)
	}

	_, srv2 := serve(t, Config{Workspace: dir})
	var list struct{ Runs []api.Run }
	decode(t, srv2, "GET", "/api/runs", "", http.StatusOK, &list)
	status := map[string]store.Status{}
	for _, v := range list.Runs {
		status[v.ID] = store.Status(v.Status)
	}
	want := map[string]store.Status{done: store.Completed, running: store.Interrupted, crashed.ID: store.Interrupted}
	if len(status) != 3 || status[done] != want[done] || status[running] != want[running] || status[crashed.ID] != want[crashed.ID] {
		t.Fatalf("after restart: %v, want %v", status, want)
	}
	if v := getRun(t, srv2, done); v.Summary == nil || v.Summary.Valid != 6 || len(v.Report) == 0 {
		t.Errorf("the finished run lost its report: %+v", v.Summary)
	}
	if got := results(t, srv2, running, "", 100); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("the interrupted run kept %v", got)
	}
	before := len(calls(t, dir))
	openGate(t, dir)
	decode(t, srv2, "POST", "/api/runs/"+running+"/resume", "{}", http.StatusAccepted, nil)
	if v := waitRun(t, srv2, running, "finished", func(v api.Run) bool { return v.FinishedAt != nil }); v.Status != api.Completed || v.Done != slowExamples {
		t.Errorf("resumed after restart: %s, %d done", v.Status, v.Done)
	}
	if asked := slices.Sorted(slices.Values(calls(t, dir)[before:])); !slices.Equal(asked, []int{4, 5, 6, 7, 8, 9, 10, 11}) {
		t.Errorf("the resumed run asked for %v", asked)
	}
}

// span is the indices lo to hi-1.
func span(lo, hi int) []int {
	s := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

// isClosing reports whether shutdown has begun: runs are draining.
func (m *manager) isClosing() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closing
}

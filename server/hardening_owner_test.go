package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// otherRun records a run of slow/benchmark.yaml in workspace dir through st, a Store of
// its own (another process's, as a `benchy run` beside the server has), running with
// done results stored.
func otherRun(t *testing.T, st *store.Store, dir string, done int) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "slow", "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := compiler.Compile(src)
	canonical, _ := ir.Marshal(b)
	run, err := st.CreateRun(store.RunSpec{Benchmark: "slow/benchmark.yaml", IR: canonical, IRHash: ir.Hash(canonical),
		AISystem: b.AISystem, Binding: "slow-system", Options: store.Options{Concurrency: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.MarkRunning(run.ID, slowExamples); err != nil {
		t.Fatal(err)
	}
	addResults(t, st, run.ID, 0, done)
	return run.ID
}

// addResults stores results from to to-1 of run id, as the slow adapter answers them.
func addResults(t *testing.T, st *store.Store, id string, from, to int) {
	t.Helper()
	w := st.ResultWriter(id)
	for i := from; i < to; i++ {
		score := 1.0
		if err := w.Add(engine.ExampleResult{Index: i, Status: engine.StatusValid, Score: &score, Contribution: 1,
			Prediction: map[string]any{"number": "x", "total": 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// killOwner makes run id's owner a process that is gone, as `kill -9` of a `benchy run`
// leaves it: its pid, host and heartbeat stay, nothing beats any more.
func killOwner(t *testing.T, dir, id string) {
	t.Helper()
	db := openDB(t, dir)
	if _, err := db.Exec(`UPDATE runs SET owner_pid = ?, owner_token = 'killed' WHERE id = ?`, testkit.DeadPID(t), id); err != nil {
		t.Fatal(err)
	}
}

// firstEvent opens run id's event stream and returns its first event, or fails after 5 s.
func firstEvent(t *testing.T, srv *httptest.Server, id string) (sseEvent, func() (sseEvent, bool), func()) {
	t.Helper()
	next, closeStream := events(t, srv, id)
	got := make(chan sseEvent, 1)
	go func() { e, _ := next(); got <- e }()
	select {
	case e := <-got:
		return e, next, closeStream
	case <-time.After(5 * time.Second):
		closeStream()
		t.Fatalf("run %s: no event in 5 s", id)
	}
	return sseEvent{}, nil, nil
}

// TestHardeningStaleRunResumable (issue 11 hardening, a killed CLI run stuck as running):
// a run whose owner process is gone is seen as interrupted by GET /api/runs/{id} and the
// listing, resumed by POST /resume (evaluating only what is missing), refused by POST
// /cancel with a message that says it is interrupted now, and its event stream ends with
// "done" interrupted, without a restart of the server.
func TestHardeningStaleRunResumable(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	cli := storeBeside(t, dir)
	viaGet, viaResume, viaCancel, viaEvents, viaList := otherRun(t, cli, dir, 5), otherRun(t, cli, dir, 5),
		otherRun(t, cli, dir, 0), otherRun(t, cli, dir, 0), otherRun(t, cli, dir, 0)
	for _, id := range []string{viaGet, viaResume, viaCancel, viaEvents, viaList} {
		killOwner(t, dir, id)
	}

	if v := getRun(t, srv, viaGet); v.Status != api.Interrupted || v.Done != 5 {
		t.Errorf("GET of a run whose process is gone: %s with %d done, want interrupted with 5", v.Status, v.Done)
	}
	decode(t, srv, "POST", "/api/runs/"+viaResume+"/resume", "{}", http.StatusAccepted, nil)
	if v := waitStatus(t, srv, viaResume, store.Completed); v.Done != slowExamples {
		t.Errorf("the resumed run: %d done, want %d", v.Done, slowExamples)
	}
	if got := calls(t, dir); !slices.Equal(got, []int{5, 6, 7, 8, 9, 10, 11}) {
		t.Errorf("the resumed run asked for %v, want only 5-11", got)
	}

	r := call(t, srv, "POST", "/api/runs/"+viaCancel+"/cancel", "{}")
	if r.status != http.StatusConflict || !strings.Contains(r.body, "not_running") || !strings.Contains(r.body, "interrupted now") {
		t.Errorf("cancel of a run whose process is gone: %d %s", r.status, r.body)
	}
	if v := getRun(t, srv, viaCancel); v.Status != api.Interrupted {
		t.Errorf("after the cancel: %s", v.Status)
	}

	e, _, closeStream := firstEvent(t, srv, viaEvents)
	defer closeStream()
	var d api.Done
	json.Unmarshal([]byte(e.data), &d)
	if e.name != "done" || d.Status != api.Interrupted {
		t.Errorf("events of a run whose process is gone: %s %s, want done interrupted", e.name, e.data)
	}
	var list struct{ Runs []api.Run }
	decode(t, srv, "GET", "/api/runs", "", http.StatusOK, &list)
	if i := slices.IndexFunc(list.Runs, func(v api.Run) bool { return v.ID == viaList }); i < 0 || list.Runs[i].Status != api.Interrupted {
		t.Errorf("the listing shows a run whose process is gone as %+v", list.Runs)
	}
}

// TestHardeningOtherProcessRun (issue 11 hardening, a live CLI run the server misreports):
// a run another live process executes is neither cancelled nor resumed here, each refusal
// naming that process ("process N on HOST"), never "is running: only a queued or running
// run can be cancelled"; its event stream follows the store, sending progress as results
// are stored, and "done" once the other process finishes it.
func TestHardeningOtherProcessRun(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	cli := storeBeside(t, dir)
	id := otherRun(t, cli, dir, 2)
	host, _ := os.Hostname()
	owner := fmt.Sprintf("process %d on %s", os.Getpid(), host)

	r := call(t, srv, "POST", "/api/runs/"+id+"/cancel", "{}")
	if r.status != http.StatusConflict || !strings.Contains(r.body, `"other_process"`) || !strings.Contains(r.body, owner) || strings.Contains(r.body, "only a queued") {
		t.Errorf("cancel of another process's run: %d %s, want 409 other_process naming %s", r.status, r.body, owner)
	}
	r = call(t, srv, "POST", "/api/runs/"+id+"/resume", "{}")
	if r.status != http.StatusConflict || !strings.Contains(r.body, "not_resumable") || !strings.Contains(r.body, "running in "+owner) {
		t.Errorf("resume of another process's run: %d %s, want 409 naming %s", r.status, r.body, owner)
	}
	if v := getRun(t, srv, id); v.Status != api.Running {
		t.Errorf("another live process's run shows %s", v.Status)
	}

	began := time.Now()
	e, next, closeStream := firstEvent(t, srv, id)
	defer closeStream()
	var p api.Progress
	json.Unmarshal([]byte(e.data), &p)
	if e.name != "progress" || p.Done != 2 || p.Total != slowExamples || p.Summary.Valid != 2 {
		t.Fatalf("first event of another process's run: %s %s, want progress with 2 of %d done", e.name, e.data, slowExamples)
	}
	addResults(t, cli, id, 2, 7)
	for p.Done != 7 {
		e, ok := next()
		if !ok || e.name != "progress" {
			t.Fatalf("while the other process stores results: %s %s (%v)", e.name, e.data, ok)
		}
		json.Unmarshal([]byte(e.data), &p)
	}
	t.Logf("progress of 7 done %v after the stream opened", time.Since(began).Round(time.Millisecond))
	addResults(t, cli, id, 7, slowExamples)
	if err := cli.Finish(id, &engine.Report{Summary: engine.Summary{Examples: slowExamples, Valid: slowExamples}, BenchmarkScore: 1}); err != nil {
		t.Fatal(err)
	}
	finished := time.Now()
	if d := untilDone(t, next); d.Status != api.Completed || d.BenchmarkScore == nil || *d.BenchmarkScore != 1 {
		t.Errorf("done: %+v", d)
	}
	if took := time.Since(finished); took > 3*time.Second {
		t.Errorf("done came %v after the other process finished, want within about followEvery", took)
	}
}

// TestHardeningKilledCLIRun (issue 11 hardening, the same with a real `benchy run`): while
// the CLI runs, the server names its process in a refused cancel and follows its progress;
// once it is killed with -9, the open event stream ends with "done" interrupted within
// about a second, and a resume here evaluates only the examples it had not stored.
func TestHardeningKilledCLIRun(t *testing.T) {
	bin := benchyBinary(t)
	dir := runWorkspace(t, slow{gate: true, from: 4}) // answers 0-3, then waits
	_, srv := serve(t, Config{Workspace: dir})
	cmd := exec.Command(bin, "run", "--concurrency", "1", "-o", filepath.Join(dir, "out.json"), filepath.Join(dir, "slow", "benchmark.yaml"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var id string
	waitFor(t, "the CLI run stored 4 results", func() bool {
		var list struct{ Runs []api.Run }
		decode(t, srv, "GET", "/api/runs", "", http.StatusOK, &list)
		if len(list.Runs) == 1 && list.Runs[0].Done == 4 {
			id = list.Runs[0].ID
			return true
		}
		return false
	})
	if v := getRun(t, srv, id); v.Status != api.Running {
		t.Fatalf("the live CLI run shows %s\n%s", v.Status, stderr.String())
	}
	r := call(t, srv, "POST", "/api/runs/"+id+"/cancel", "{}")
	if r.status != http.StatusConflict || !strings.Contains(r.body, fmt.Sprintf("process %d on", cmd.Process.Pid)) {
		t.Errorf("cancel of the CLI's run: %d %s, want 409 naming process %d", r.status, r.body, cmd.Process.Pid)
	}
	e, next, closeStream := firstEvent(t, srv, id)
	defer closeStream()
	if e.name != "progress" {
		t.Fatalf("first event of the CLI's run: %s %s, want progress", e.name, e.data)
	}

	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	killed := time.Now()
	if d := untilDone(t, next); d.Status != api.Interrupted {
		t.Errorf("done of the killed CLI's run: %+v", d)
	}
	took := time.Since(killed)
	t.Logf("done interrupted %v after the CLI was killed", took.Round(time.Millisecond))
	if took > 3*time.Second {
		t.Errorf("the stream saw the kill after %v, want about followEvery", took)
	}
	os.Remove(filepath.Join(dir, "calls.log"))
	openGate(t, dir)
	decode(t, srv, "POST", "/api/runs/"+id+"/resume", "{}", http.StatusAccepted, nil)
	if v := waitStatus(t, srv, id, store.Completed); v.Done != slowExamples {
		t.Errorf("the resumed run: %d done", v.Done)
	}
	if got := calls(t, dir); !slices.Equal(got, []int{4, 5, 6, 7, 8, 9, 10, 11}) {
		t.Errorf("the resumed run asked for %v, want only 4-11", got)
	}
}

package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	ws "github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// bigSlowYAML is the slow benchmark with 10 enums of 4,000 long values (an enum has at
// most 4,096 members): 0.9 MB of YAML, 1 MB of IR, which every run stores.
func bigSlowYAML() string {
	vals := make([]string, 4000)
	for i := range vals {
		vals[i] = fmt.Sprintf("value-%016d", i)
	}
	var kinds, weights strings.Builder
	for k := range 10 {
		fmt.Fprintf(&kinds, ", kind%d: {enum: [%s]}", k, strings.Join(vals, ","))
		fmt.Fprintf(&weights, ", kind%d: 1", k)
	}
	return strings.Replace(strings.Replace(strings.Replace(slowYAML, "output: {number: string, total: float}",
		"output: {number: string, total: float"+kinds.String()+"}", 1),
		"weights: {number: 1, total: 3}", "weights: {number: 1, total: 3"+weights.String()+"}", 1), "data.jsonl", "big.jsonl", 1)
}

// bigSlowData is a dataset of bigSlowYAML, as big.jsonl.
func bigSlowData() string {
	var b strings.Builder
	for i := range slowExamples {
		text := fmt.Sprintf("ex-%02d", i)
		kinds := ""
		for k := range 10 {
			kinds += fmt.Sprintf(`, "kind%d": "value-%016d"`, k, i)
		}
		fmt.Fprintf(&b, `{"input": {"text": %q}, "expected": {"number": %q, "total": %d%s}}`+"\n", text, text, len(text), kinds)
	}
	return b.String()
}

// treeSize is the bytes of the files under dir.
func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// TestHardeningRunQueueBound (issue 11 hardening, the unbounded run queue): 300 runs of a
// 0.9 MB benchmark posted to a server with one slot, its AI-system hanging: one runs,
// MaxQueued wait, and every other is refused with 429 queue_full and a Retry-After,
// recorded nowhere, so memory and the store stay bounded (before: every one was accepted,
// 47 -> 567 MB of memory, 273 MB of store). A resume is refused alike while the queue is
// full; once a queued run is cancelled, a run is taken again.
func TestHardeningRunQueueBound(t *testing.T) {
	dir := runWorkspace(t, slow{gate: true}) // the AI-system never answers
	if err := os.WriteFile(filepath.Join(dir, "slow", "big.yaml"), []byte(bigSlowYAML()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "slow", "big.jsonl"), []byte(bigSlowData()), 0o644); err != nil {
		t.Fatal(err)
	}
	s, srv := serve(t, Config{Workspace: dir, MaxRuns: 1})
	// A cancelled run to resume later.
	old := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`)
	waitStatus(t, srv, old, store.Running)
	decode(t, srv, "POST", "/api/runs/"+old+"/cancel", "{}", http.StatusAccepted, nil)
	waitStatus(t, srv, old, store.Cancelled)

	storeDir := filepath.Join(dir, store.Dir)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sizeBefore := treeSize(storeDir)
	started := time.Now()
	accepted, refused := 0, 0
	for i := range 300 {
		req, _ := http.NewRequest("POST", srv.URL+"/api/runs", strings.NewReader(`{"benchmark": "slow/big.yaml", "concurrency": 1}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e api.Error
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusAccepted:
			accepted++
		case http.StatusTooManyRequests:
			refused++
			if e.Error.Code != "queue_full" || resp.Header.Get("Retry-After") == "" {
				t.Fatalf("run %d refused with %q, Retry-After %q; want queue_full and a Retry-After", i, e.Error.Code, resp.Header.Get("Retry-After"))
			}
			if _, ok := api.Codes[e.Error.Code]; !ok {
				t.Fatalf("unregistered code %q", e.Error.Code)
			}
		default:
			t.Fatalf("run %d: %d %+v", i, resp.StatusCode, e)
		}
	}
	took := time.Since(started)
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := treeSize(storeDir) - sizeBefore
	heap := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("300 posts of a 0.9 MB benchmark in %v: %d accepted, %d refused; heap %+.1f MB, store %+.1f MB",
		took.Round(time.Millisecond), accepted, refused, float64(heap)/(1<<20), float64(grown)/(1<<20))
	if accepted != 1+MaxQueued || refused != 300-1-MaxQueued {
		t.Errorf("%d accepted and %d refused, want %d (one running, %d queued) and the rest refused", accepted, refused, 1+MaxQueued, MaxQueued)
	}
	if limit := int64(1+MaxQueued) * 3 << 20; grown > limit || heap > 2*limit {
		t.Errorf("the store grew %d MB and the heap %d MB, want at most %d and %d MB", grown>>20, heap>>20, limit>>20, 2*limit>>20)
	}
	var list struct{ Runs []api.Run }
	decode(t, srv, "GET", "/api/runs?benchmark=slow/big.yaml&limit=1000", "", http.StatusOK, &list)
	if len(list.Runs) != accepted {
		t.Errorf("%d runs stored, want the %d accepted", len(list.Runs), accepted)
	}

	// A resume waits in the same queue.
	r := call(t, srv, "POST", "/api/runs/"+old+"/resume", "{}")
	if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, "queue_full") {
		t.Errorf("a resume with the queue full: %d %s", r.status, r.body)
	}
	if v := getRun(t, srv, old); v.Status != api.Cancelled {
		t.Errorf("the refused resume left the run %s", v.Status)
	}
	// A queued run cancelled frees its place.
	var queued string
	for _, v := range list.Runs {
		if v.Status == api.Queued {
			queued = v.ID
			break
		}
	}
	decode(t, srv, "POST", "/api/runs/"+queued+"/cancel", "{}", http.StatusAccepted, nil)
	startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`)
	if !s.runs.full() {
		t.Error("the queue is not full again")
	}
}

// TestHardeningRunConcurrencyCap (issue 11 hardening, 512 adapter processes from two
// requests): a run asks for at most MaxConcurrency workers; more is refused with 400
// naming the most, before anything is recorded; the default and a stored run resumed with
// more (recorded by an older server) get MaxConcurrency.
func TestHardeningRunConcurrencyCap(t *testing.T) {
	dir := runWorkspace(t, slow{})
	var rows strings.Builder
	for i := range 100 {
		fmt.Fprintf(&rows, `{"input": {"text": "x%d"}, "expected": {"number": "x%d", "total": %d}}`+"\n", i, i, len(fmt.Sprint("x", i)))
	}
	os.MkdirAll(filepath.Join(dir, "wide"), 0o755)
	os.WriteFile(filepath.Join(dir, "wide", "benchmark.yaml"), []byte(slowYAML), 0o644)
	os.WriteFile(filepath.Join(dir, "wide", "data.jsonl"), []byte(rows.String()), 0o644)
	s, srv := serve(t, Config{Workspace: dir})

	for _, n := range []int{MaxConcurrency + 1, 256, 100000} {
		r := call(t, srv, "POST", "/api/runs", fmt.Sprintf(`{"benchmark": "wide/benchmark.yaml", "concurrency": %d}`, n))
		if r.status != http.StatusBadRequest || !strings.Contains(r.body, "bad_request") || !strings.Contains(r.body, fmt.Sprintf("to %d", MaxConcurrency)) {
			t.Errorf("concurrency %d: %d %s, want 400 naming %d", n, r.status, r.body, MaxConcurrency)
		}
	}
	var list struct{ Runs []api.Run }
	decode(t, srv, "GET", "/api/runs", "", http.StatusOK, &list)
	if len(list.Runs) != 0 {
		t.Errorf("refused runs were recorded: %d", len(list.Runs))
	}
	report := func(id string) engine.Report {
		v := waitStatus(t, srv, id, store.Completed)
		var rep engine.Report
		json.Unmarshal(v.Report, &rep)
		return rep
	}
	id := startRun(t, srv, fmt.Sprintf(`{"benchmark": "wide/benchmark.yaml", "concurrency": %d}`, MaxConcurrency))
	if rep := report(id); rep.Concurrency != MaxConcurrency {
		t.Errorf("concurrency %d ran with %d workers", MaxConcurrency, rep.Concurrency)
	}
	if w := workers(0); w != min(engine.DefaultConcurrency(), MaxConcurrency) || workers(1000) != MaxConcurrency || workers(3) != 3 {
		t.Errorf("workers: default %d, 1000 -> %d, 3 -> %d", w, workers(1000), workers(3))
	}

	// A run an older server recorded with 256 workers, interrupted: resumed with the cap.
	src, _ := os.ReadFile(filepath.Join(dir, "wide", "benchmark.yaml"))
	b, _ := compiler.Compile(src)
	canonical, _ := ir.Marshal(b)
	run, err := s.st.CreateRun(store.RunSpec{Benchmark: "wide/benchmark.yaml", IR: canonical, IRHash: ir.Hash(canonical),
		AISystem: b.AISystem, Binding: "slow-system", Options: store.Options{Concurrency: 256}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.st.SetStatus(run.ID, store.Interrupted); err != nil {
		t.Fatal(err)
	}
	decode(t, srv, "POST", "/api/runs/"+run.ID+"/resume", "{}", http.StatusAccepted, nil)
	if rep := report(run.ID); rep.Concurrency != MaxConcurrency {
		t.Errorf("a stored run of 256 workers resumed with %d", rep.Concurrency)
	}
}

// slowStart is an adapter whose factory takes its time, as a process starting on a loaded
// machine does; it counts what is made and closed.
type slowStart struct{ closed *atomic.Int64 }

func (a slowStart) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (a slowStart) Close() error { a.closed.Add(1); return nil }

// TestHardeningCancelDuringSetup (issue 11 hardening, a cancelled run that kept starting
// processes for 30 s): POST /cancel of a run still making its adapters (200 ms each, 12
// workers: 2.4 s) returns at once, no adapter is made after it, those made are closed, and
// the run is cancelled within a second.
func TestHardeningCancelDuringSetup(t *testing.T) {
	dir := runWorkspace(t, slow{})
	s, srv := serve(t, Config{Workspace: dir})
	src, _ := os.ReadFile(filepath.Join(dir, "slow", "benchmark.yaml"))
	b, _ := compiler.Compile(src)
	canonical, _ := ir.Marshal(b)
	var made, closed atomic.Int64
	factory := func() (engine.Adapter, error) {
		time.Sleep(200 * time.Millisecond)
		made.Add(1)
		return slowStart{&closed}, nil
	}
	plan := &ws.Plan{IR: b, Canonical: canonical, IRHash: ir.Hash(canonical), Factory: factory,
		Binding: "slow-system", BenchmarkDir: filepath.Join(dir, "slow"), Paths: s.paths()}
	j := newJob(plan, ws.Options{Concurrency: slowExamples})
	id, err := s.runs.enqueue(j, func() (string, error) {
		run, err := s.st.CreateRun(store.RunSpec{Benchmark: "slow/benchmark.yaml", IR: canonical, IRHash: ir.Hash(canonical),
			AISystem: b.AISystem, Binding: "slow-system", Options: store.Options{Concurrency: slowExamples}})
		return run.ID, err
	})
	if err != nil {
		t.Fatal(err)
	}
	for made.Load() < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	began := time.Now()
	decode(t, srv, "POST", "/api/runs/"+id+"/cancel", "{}", http.StatusAccepted, nil)
	answered := time.Since(began)
	waitStatus(t, srv, id, store.Cancelled)
	took := time.Since(began)
	time.Sleep(300 * time.Millisecond) // one more factory call would have ended by now
	t.Logf("cancel answered in %v, the run cancelled %v after it, %d of %d adapters made, %d closed",
		answered.Round(time.Microsecond), took.Round(time.Millisecond), made.Load(), slowExamples, closed.Load())
	if took > time.Second {
		t.Errorf("the run was cancelled %v after the cancel, want within 1 s", took)
	}
	if n := made.Load(); n > 4 {
		t.Errorf("%d adapters made, want no more after the cancel (about 3)", n)
	}
	if closed.Load() != made.Load() {
		t.Errorf("%d adapters made, %d closed", made.Load(), closed.Load())
	}
}

package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/slurmtest"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// clusterExecutor is the runtime file's executor on the one-node test cluster.
const clusterExecutor = "executors:\n  cluster:\n    kind: slurm\n    partition: debug\n    time: \"5\"\n    shards: 4\n"

// onCluster starts the one-node Slurm cluster and points this process's Slurm commands at
// it (the server runs sbatch, squeue and scancel with its own environment), its tasks
// running the benchy binary built for the test, and returns the cluster.
func onCluster(t *testing.T) *slurmtest.Cluster {
	t.Helper()
	c := slurmtest.Start(t)
	bin := benchyBinary(t)
	for _, kv := range c.Env()[len(os.Environ()):] { // SLURM_CONF and the cluster's tag, which its jobs inherit
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	oldPath, oldPoll := benchyPath, clusterPoll
	benchyPath, clusterPoll = func() (string, error) { return bin, nil }, 200*time.Millisecond
	t.Cleanup(func() { benchyPath, clusterPoll = oldPath, oldPoll })
	return c
}

// clusterWorkspace is runWorkspace with the cluster executor in its runtime file.
func clusterWorkspace(t *testing.T, cfg slow) string {
	t.Helper()
	dir := runWorkspace(t, cfg)
	rt := filepath.Join(dir, RuntimeFile)
	src, err := os.ReadFile(rt)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rt, append(src, clusterExecutor...), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// allResults is every result of run id, as the results pages give them, less usage.
func allResults(t *testing.T, srv interface{ Client() *http.Client }, url, id string) []api.Result {
	t.Helper()
	resp, err := srv.Client().Get(url + "/api/runs/" + id + "/results?limit=1000")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page struct{ Results []api.Result }
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("results of %s: %d %v", id, resp.StatusCode, err)
	}
	for i := range page.Results {
		page.Results[i].Usage = nil
	}
	return page.Results
}

// TestClusterRun runs the invoice example from the server on the real one-node Slurm
// cluster (issue 17 item 3): GET /api/bindings lists the executor by name and kind; POST
// /api/runs with executor "cluster" submits 4 shards, its event stream shows their progress
// from the journals (the cluster, the job id, examples done) and ends completed; the run's
// results equal a local run's, and the leaderboard ranks the merged run. A second run,
// its adapter held, is cancelled: scancel'd (its tasks CANCELLED in squeue) and cancelled.
func TestClusterRun(t *testing.T) {
	c := onCluster(t)
	dir := clusterWorkspace(t, slow{gate: true})
	_, srv := serve(t, Config{Workspace: dir})

	var b api.Bindings
	decode(t, srv, "GET", "/api/bindings", "", http.StatusOK, &b)
	if !reflect.DeepEqual(b.Executors, []api.Executor{{Name: "cluster", Kind: "slurm"}}) {
		t.Errorf("bindings list executors %+v", b.Executors)
	}
	if r := call(t, srv, "POST", "/api/runs", `{"benchmark": "benchmark.yaml", "executor": "nowhere"}`); r.status != http.StatusBadRequest || errorCode(t, r) != api.UnknownExecutor || !strings.Contains(r.body, "cluster") {
		t.Errorf("an unknown executor: %d %s", r.status, r.body)
	}

	local := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, local, store.Completed)

	began := time.Now()
	id := startRun(t, srv, `{"benchmark": "benchmark.yaml", "executor": "cluster"}`)
	next, closeEvents := events(t, srv, id)
	var last *api.Cluster
	progress := 0
	var done api.Done
	for done.Status == "" {
		e, ok := next()
		if !ok {
			t.Fatal("the stream ended without done")
		}
		switch e.name {
		case "progress":
			var p api.Progress
			json.Unmarshal([]byte(e.data), &p)
			if p.Cluster != nil {
				progress++
				last = p.Cluster
				if p.Total != p.Cluster.Total || p.Done != p.Cluster.Done || p.Cluster.Pending+p.Cluster.Running+p.Cluster.Complete != 4 {
					t.Errorf("progress %s", e.data)
				}
			}
		case "done":
			json.Unmarshal([]byte(e.data), &done)
		}
	}
	closeEvents()
	t.Logf("on the one-node cluster: POST /api/runs → merged run %v, %d progress events", time.Since(began).Round(time.Millisecond), progress)
	if done.Status != string(store.Completed) {
		t.Fatalf("the cluster run ended %+v\n%s", done, taskLogs(t, dir))
	}
	if last == nil || last.Executor != "cluster" || last.Kind != "slurm" || last.JobID == "" || last.Shards != 4 || last.Total == 0 {
		t.Errorf("the last progress's cluster %+v", last)
	}
	run := getRun(t, srv, id)
	if run.Status != string(store.Completed) || run.Done != run.Total || run.DatasetDigest == "" || run.Total == 0 {
		t.Errorf("the merged run %s: %d/%d, dataset %q", run.Status, run.Done, run.Total, run.DatasetDigest)
	}
	if got, want := allResults(t, srv, srv.URL, id), allResults(t, srv, srv.URL, local); !reflect.DeepEqual(got, want) {
		t.Errorf("the cluster run's results differ from the local run's:\n%+v\nwant\n%+v", got, want)
	}
	var board api.Leaderboard
	decode(t, srv, "GET", "/api/leaderboard?benchmark=benchmark.yaml", "", http.StatusOK, &board)
	if len(board.Entries) != 1 || board.Entries[0].Run != id {
		t.Errorf("the leaderboard %+v, want the merged run %s", board.Entries, id)
	}
	for task, state := range c.States(t, last.JobID) {
		if state != "COMPLETED" {
			t.Errorf("task %s %s", task, state)
		}
	}

	t.Run("bad dataset", func(t *testing.T) {
		testkit.WriteFiles(t, dir, map[string]string{"bad/benchmark.yaml": slowYAML, "bad/data.jsonl": "{not json\n"})
		id := startRun(t, srv, `{"benchmark": "bad/benchmark.yaml", "executor": "cluster"}`)
		if run := getRun(t, srv, id); run.Status != string(store.Aborted) || run.Error == nil || run.Cluster != nil {
			t.Errorf("a bad dataset on the cluster: %s, error %+v, cluster %+v; want aborted before anything is submitted", run.Status, run.Error, run.Cluster)
		}
		if _, err := os.Stat(filepath.Join(dir, clusterDir, id)); !os.IsNotExist(err) {
			t.Errorf("a job was written for a bad dataset: %v", err)
		}
	})

	t.Run("cancel", func(t *testing.T) {
		id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "executor": "cluster", "shards": 2}`)
		run := waitRun(t, srv, id, "running on the cluster", func(v api.Run) bool { return v.Cluster != nil && v.Cluster.Running > 0 })
		if run.Cluster.Shards != 2 {
			t.Errorf("shards %d, want the request's 2", run.Cluster.Shards)
		}
		decode(t, srv, "POST", "/api/runs/"+id+"/cancel", "{}", http.StatusAccepted, nil)
		waitStatus(t, srv, id, store.Cancelled)
		states := c.WaitFor(t, run.Cluster.JobID, 30*time.Second, func(s map[string]string) bool {
			for _, st := range s {
				if !slurmtest.Ended(st) {
					return false
				}
			}
			return len(s) > 0
		})
		for task, state := range states {
			if state != "CANCELLED" {
				t.Errorf("task %s %s after the cancel", task, state)
			}
		}
	})
}

// taskLogs is the output of the cluster's tasks, for a failure's message.
func taskLogs(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, clusterDir, "*", "slurm", "*.out"))
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.WriteString(f + ":\n" + string(data) + "\n")
	}
	return b.String()
}

// TestClusterRunRestart: a server stopped while its run's tasks are running leaves it to
// the next server on the workspace, which watches it again (not interrupted and lost) and
// merges it when the tasks end.
func TestClusterRunRestart(t *testing.T) {
	onCluster(t)
	dir := clusterWorkspace(t, slow{gate: true})
	first, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "executor": "cluster", "shards": 2}`)
	waitRun(t, srv, id, "running on the cluster", func(v api.Run) bool { return v.Cluster != nil && v.Cluster.Running > 0 })
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	_, srv = serve(t, Config{Workspace: dir})
	if run := getRun(t, srv, id); run.Status != string(store.Running) || run.Cluster == nil {
		t.Fatalf("after a restart the run is %s (cluster %+v), want running and watched", run.Status, run.Cluster)
	}
	openGate(t, dir)
	run := waitStatus(t, srv, id, store.Completed)
	if run.Done != slowExamples || run.Total != slowExamples {
		t.Errorf("the merged run has %d of %d results, want %d", run.Done, run.Total, slowExamples)
	}
}

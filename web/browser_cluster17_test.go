package web_test

// Browser test of a run on a cluster (issue 17): the runs page of a workspace whose runtime
// file defines a Slurm executor offers "Run on: this machine | cluster"; a run started on it
// shows its shards' progress and its Slurm job while the one-node test cluster evaluates it,
// and completes as any run, ranked on the leaderboard.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/slurmtest"
)

// TestBrowserCluster17Run picks "Run on: cluster" and sees the run on the one-node Slurm
// cluster: "on cluster cluster: N of 4 shards running, ..." with its Slurm job while the
// adapter is held, then completed, and the leaderboard's entry is that run.
func TestBrowserCluster17Run(t *testing.T) {
	requireBrowser(t)
	c := slurmtest.Start(t)
	for _, kv := range c.Env()[len(os.Environ()):] { // benchy serve, and its jobs, talk to this cluster
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	dir := invoiceWorkspace(t, t.TempDir(), true)
	hold := filepath.Join(dir, "hold")
	runtime := "bindings:\n  invoice-extractor-v7:\n    command: [sh, -c, \"while [ -e '" + hold + "' ]; do sleep 0.05; done; exec '" + filepath.Join(dir, "invoice-adapter") + "'\"]\n    timeout: 30s\n" +
		"executors:\n  cluster:\n    kind: slurm\n    partition: " + c.Partition + "\n    shards: 4\n"
	for name, text := range map[string]string{"benchy.runtime.yaml": runtime, "hold": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer os.Remove(hold)
	srv := startServer(t, dir)
	b := newBrowser(t, 90*time.Second)
	b.open(srv.URL("/runs?benchmark=benchmark.yaml"))
	panel := `(document.getElementById("live") || {innerText: ""}).innerText`
	poll[bool](b, "the Run on choice", `document.querySelector('#executor option[value="cluster"]') !== null`, 10*time.Second, "")
	if got := b.text("#executor option:checked"); got != "this machine" {
		t.Errorf("Run on %q at first, want this machine", got)
	}
	eval[bool](b, `(() => { const s = document.getElementById("executor"); s.value = "cluster"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	poll[bool](b, "the shards field", `document.getElementById("shards") !== null`, 5*time.Second, "")
	b.screenshot("runs-cluster-form")
	b.clickJS("#start")
	line := poll[string](b, "the cluster line", `(() => { const e = document.getElementById("run-cluster-text"); return e !== null && /[1-4] of 4 shards running/.test(e.textContent) && e.textContent; })()`, 30*time.Second, panel)
	if !strings.HasPrefix(line, "on cluster cluster: ") || !strings.Contains(line, "4 of 4 shards running") && !strings.Contains(line, " of 4 shards running, ") || !strings.HasSuffix(line, " examples") {
		t.Errorf("the cluster line %q", line)
	}
	job := b.text("#run-cluster-job")
	if !strings.HasPrefix(job, "Slurm job ") {
		t.Errorf("the job %q", job)
	}
	t.Logf("while held: %q, %s", line, job)
	b.screenshot("runs-cluster-running")
	id := eval[string](b, `document.getElementById("live").dataset.id`)

	os.Remove(hold)
	poll[bool](b, "the run to complete", `document.getElementById("run-status").textContent === "completed"`, 60*time.Second, panel)
	if b.exists("#run-cluster:not([hidden])") {
		t.Error("a completed run still shows its cluster line")
	}
	time.Sleep(300 * time.Millisecond) // the progress bar's width transition (.2 s)
	b.screenshot("runs-cluster-completed")
	var board api.Leaderboard
	srv.getJSON(t, "/api/leaderboard?benchmark=benchmark.yaml", &board)
	if len(board.Entries) != 1 || board.Entries[0].Run != id {
		t.Errorf("the leaderboard %+v, want the cluster run %s", board.Entries, id)
	}
}

package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// heldExecutor is an executor whose jobs are submitted held (sbatch --hold): their tasks
// start only once the test releases them.
const heldExecutor = "  held:\n    kind: slurm\n    partition: debug\n    time: \"5\"\n    shards: 2\n    sbatch_args: [--hold]\n"

// TestClusterRunRefusesResavedSystem: the benchmark saved with another AI-system between
// the run's submission and its tasks' start, its tasks run the new one; the merge compares
// every manifest with the run and ends it aborted, its code naming the AI-system, where it
// recorded the run as the old AI-system with the new one's results.
func TestClusterRunRefusesResavedSystem(t *testing.T) {
	c := onCluster(t)
	dir := clusterWorkspace(t, slow{})
	rt := filepath.Join(dir, RuntimeFile)
	src, err := os.ReadFile(rt)
	if err != nil {
		t.Fatal(err)
	}
	// The new AI-system is bound too (to the same adapter), so that its shards complete.
	text := strings.Replace(string(src)+heldExecutor, "bindings:\n", "bindings:\n  invoice-extractor-v8:\n    command: [./invoice-adapter]\n    timeout: 10s\n", 1)
	if err := os.WriteFile(rt, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "benchmark.yaml", "executor": "held"}`)
	run := waitRun(t, srv, id, "submitted", func(v api.Run) bool { return v.Cluster != nil && v.Cluster.JobID != "" })

	bench := filepath.Join(dir, "benchmark.yaml")
	yaml, err := os.ReadFile(bench)
	if err != nil {
		t.Fatal(err)
	}
	resaved := strings.Replace(string(yaml), "id: invoice-extractor-v7", "id: invoice-extractor-v8", 1)
	if resaved == string(yaml) {
		t.Fatal("the benchmark names no invoice-extractor-v7")
	}
	if err := os.WriteFile(bench, []byte(resaved), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Run(t, "scontrol", "release", run.Cluster.JobID)

	ended := waitRun(t, srv, id, "ended", func(v api.Run) bool { return v.Status != string(store.Running) })
	if ended.Status != string(store.Aborted) || ended.Error == nil || ended.Error.Code != "shard_system_mismatch" ||
		!strings.Contains(ended.Error.Message, "invoice-extractor-v8") {
		t.Fatalf("the run whose benchmark was saved with another AI-system ended %s, error %+v; want aborted, shard_system_mismatch naming invoice-extractor-v8\n%s",
			ended.Status, ended.Error, taskLogs(t, dir))
	}
	if ended.System == nil || ended.System.Label != "invoice-extractor-v7" {
		t.Errorf("the run's system %+v, want still invoice-extractor-v7", ended.System)
	}
}

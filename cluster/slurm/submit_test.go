package slurm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/slurmtest"
)

// useCluster points this process's Slurm commands at c, as SLURM_CONF does on a real
// cluster; the jobs inherit it, and c's tag, by which c's cleanup finds a leftover job.
func useCluster(t *testing.T, c *slurmtest.Cluster) {
	for _, kv := range c.Env() {
		if k, v, _ := strings.Cut(kv, "="); k == "SLURM_CONF" || k == "BENCHY_SLURMTEST" {
			t.Setenv(k, v)
		}
	}
}

// TestSubmitQuoting submits a trivial job (a benchy that prints its arguments) from a DIR
// whose name holds blanks, quotes, #, $ and %, on the real one-node cluster: every task and
// the merge job get their arguments exactly, their output lands in DIR/slurm/ID_K.out, the
// #SBATCH lines (chdir, job name, --sbatch-arg) are read as written, jobs.json has the ids,
// and a second submission of one shard (--only) runs only that task with N still 3.
func TestSubmitQuoting(t *testing.T) {
	c := slurmtest.Start(t)
	useCluster(t, c)
	dir := filepath.Join(t.TempDir(), awkward)
	argv := filepath.Join(dir, "argv")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(argv, []byte("#!/bin/sh\nprintf '[%s]\\n' \"$@\"\necho \"cwd=$(pwd) name=$SLURM_JOB_NAME\"\n"), 0o755)
	j := Job{Benchy: argv, Bench: filepath.Join(dir, "my bench.yaml"), Shards: 3, OutDir: filepath.Join(dir, "out"), WorkDir: dir,
		Partition: c.Partition, Time: "5", SbatchArgs: []string{`--comment=it's "x" #1`}}
	ctx := context.Background()
	sub, err := Submit(ctx, j, nil)
	if err != nil {
		t.Fatal(err)
	}
	states := c.Wait(t, sub.Merge, 30*time.Second)
	if states[sub.Merge] != "COMPLETED" || len(states) != 1 {
		t.Fatalf("merge job: %v", states)
	}
	for k := 0; k < 3; k++ {
		out := readFile(t, filepath.Join(j.Dir(), sub.Array+"_"+string(rune('0'+k))+".out"))
		want := "[run]\n[" + j.Bench + "]\n[--shard]\n[" + string(rune('0'+k)) + "/3]\n[--out-dir]\n[" + j.OutDir + "]\n" +
			"cwd=" + dir + " name=benchy-my_bench\n"
		if out != want {
			t.Errorf("task %d wrote\n%s\nwant\n%s", k, out, want)
		}
	}
	merge := readFile(t, filepath.Join(j.Dir(), "merge-"+sub.Merge+".out"))
	if want := "[merge]\n[" + j.OutDir + "]\n[-o]\n[" + filepath.Join(j.OutDir, "results.json") + "]\n"; !strings.HasPrefix(merge, want) {
		t.Errorf("merge job wrote\n%s\nwant\n%s", merge, want)
	}
	if got := strings.TrimSpace(c.Run(t, "squeue", "-h", "-t", "all", "-j", sub.Merge, "-o", "%k")); got != `it's "x" #1` {
		t.Errorf("--sbatch-arg --comment: squeue says %q", got)
	}
	tasks, err := Queue(ctx, []string{sub.Array, sub.Merge})
	if err != nil || len(tasks) != 4 {
		t.Fatalf("Queue: %v %+v", err, tasks)
	}
	for _, task := range tasks {
		if task.State != "COMPLETED" || (task.ID != sub.Merge && (task.Array != sub.Array || task.Index == "")) {
			t.Errorf("task %+v", task)
		}
	}

	again, err := Submit(ctx, j, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	c.Wait(t, again.Merge, 30*time.Second)
	if out := readFile(t, filepath.Join(j.Dir(), again.Array+"_1.out")); !strings.Contains(out, "[1/3]") {
		t.Errorf("resubmitted task 1 wrote\n%s", out)
	}
	if got := c.States(t, again.Array); len(got) != 1 {
		t.Errorf("--only 1 ran %v", got)
	}
	rec, err := ReadRecord(j.OutDir)
	if err != nil || len(rec.Submissions) != 2 || rec.Submissions[0] != sub || rec.Submissions[1].Tasks != "1" || rec.Shards != 3 {
		t.Errorf("jobs.json: %+v %v", rec, err)
	}
	if _, err := Submit(ctx, Job{Benchy: argv, Bench: j.Bench, Shards: 4, OutDir: j.OutDir, WorkDir: dir}, nil); err == nil || !strings.Contains(err.Error(), "--shards 3") {
		t.Errorf("a second N in one DIR: %v", err)
	}
}

// TestCancel: cancel stops a running array and its merge job, which then never runs.
func TestCancel(t *testing.T) {
	c := slurmtest.Start(t)
	useCluster(t, c)
	dir := t.TempDir()
	sleeper := filepath.Join(dir, "sleeper")
	os.WriteFile(sleeper, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755)
	j := Job{Benchy: sleeper, Bench: filepath.Join(dir, "b.yaml"), Shards: 2, OutDir: filepath.Join(dir, "out"), WorkDir: dir}
	ctx := context.Background()
	sub, err := Submit(ctx, j, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.WaitFor(t, sub.Array, 30*time.Second, func(s map[string]string) bool {
		return s[sub.Array+"_0"] == "RUNNING" && s[sub.Array+"_1"] == "RUNNING"
	})
	// A second task of one shard would run beside the first: refused, nothing submitted.
	for _, only := range [][]int{{1}, nil} {
		if again, err := Submit(ctx, j, only); err == nil || !strings.Contains(err.Error(), "array "+sub.Array+" is still running") || again.Array != "" {
			t.Errorf("Submit --only %v while the array runs: %v %+v", only, err, again)
		}
	}
	if rec, _ := ReadRecord(j.OutDir); len(rec.Submissions) != 1 {
		t.Errorf("jobs.json after the refused submissions: %+v", rec)
	}
	ids, err := Cancel(ctx, j.OutDir)
	if err != nil || len(ids) != 2 {
		t.Fatalf("Cancel: %v %v", ids, err)
	}
	for _, id := range []string{sub.Array, sub.Merge} {
		for task, state := range c.Wait(t, id, 30*time.Second) {
			if state != "CANCELLED" {
				t.Errorf("%s: %s", task, state)
			}
		}
	}
	st, err := Read(ctx, j.OutDir)
	if err != nil || len(st.Tasks) != 3 || len(st.Shards) != 2 || st.Shards[0].Started {
		t.Errorf("Read: %v %+v", err, st)
	}
	if _, err := Cancel(ctx, dir); err == nil || !strings.Contains(err.Error(), "no job was submitted") {
		t.Errorf("Cancel of a DIR without jobs: %v", err)
	}
	// Once the array has ended, a shard is submitted again.
	again, err := Submit(ctx, j, []int{1})
	if err != nil {
		t.Fatalf("Submit --only 1 once the array ended: %v", err)
	}
	Cancel(ctx, j.OutDir)
	c.Wait(t, again.Merge, 30*time.Second)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

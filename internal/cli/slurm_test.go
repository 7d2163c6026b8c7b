package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/cluster/slurm"
	"github.com/benchy-eval/benchy/internal/slurmtest"
)

// slurmRuntime binds the invoice example's system to its adapter, started by a shell that
// first waits while a file named hold exists (so that a test can cancel a task before it
// evaluates anything) and logs the start to starts.log: no adapter process, no call. (The
// shell execs the adapter: a pipe through tee would outlive an adapter that crashed and
// hold its output open until the binding's timeout.)
const slurmRuntime = `bindings:
  invoice-extractor-v7:
    command: [sh, -c, "while [ -e hold ]; do sleep 0.05; done; echo start >> starts.log; exec ./invoice-adapter"]
    timeout: 30s
`

// TestSlurmShardedRun runs the invoice example on the real one-node Slurm cluster with
// benchy slurm submit, as a user would, with the benchy binary built for it (the tasks run
// it as a process): a 4-shard array job merges to the single-machine run's document (but
// the fields merge documents); with one task cancelled the merge job is cancelled by
// --kill-on-invalid-dep, benchy merge names shard 2, and resubmitting only it (--only 2)
// completes the run; a bad dataset fails every task without starting the adapter.
func TestSlurmShardedRun(t *testing.T) {
	c := slurmtest.Start(t)
	dir := invoiceRun(t)
	benchy := filepath.Join(t.TempDir(), "benchy")
	if out, err := exec.Command("go", "build", "-o", benchy, "../../cmd/benchy").CombinedOutput(); err != nil {
		t.Fatalf("building benchy: %v\n%s", err, out)
	}
	rt := filepath.Join(dir, "slurm.runtime.yaml")
	os.WriteFile(rt, []byte(slurmRuntime), 0o644)
	bench := filepath.Join(dir, "benchmark.yaml")
	run := func(args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(benchy, args...)
		cmd.Env, cmd.Dir = c.Env(), dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errb.String()
	}
	starts := func() int {
		data, _ := os.ReadFile(filepath.Join(dir, "starts.log"))
		return bytes.Count(data, []byte("\n"))
	}
	if code, _, stderr := run("run", "--no-store", "--runtime", rt, "-o", filepath.Join(dir, "single.json"), bench); code != 0 {
		t.Fatalf("single-machine run: exit %d\n%s", code, stderr)
	}
	single := slurmComparable(t, filepath.Join(dir, "single.json"))
	if n := starts(); n == 0 {
		t.Fatal("the single-machine run started no adapter")
	}

	t.Run("array", func(t *testing.T) {
		out := filepath.Join(dir, "out dir")
		began := time.Now()
		code, stdout, stderr := run("slurm", "submit", bench, "--shards", "4", "--out-dir", out, "--runtime", rt, "--partition", c.Partition, "--time", "5")
		if code != 0 {
			t.Fatalf("submit: exit %d\n%s%s", code, stdout, stderr)
		}
		sub := lastSubmission(t, out)
		if !strings.Contains(stdout, "array job "+sub.Array) || !strings.Contains(stdout, "merge job "+sub.Merge) || !strings.Contains(stdout, "benchy slurm status") {
			t.Errorf("submit printed\n%s", stdout)
		}
		first := waitFirstResult(t, out, 4, 30*time.Second)
		states := c.Wait(t, sub.Merge, 60*time.Second)
		if states[sub.Merge] != "COMPLETED" {
			t.Fatalf("merge job %v\n%s", states, taskOutput(t, out))
		}
		last := lastResult(t, out, 4)
		merged := modTime(t, filepath.Join(out, "results.json"))
		t.Logf("on the one-node cluster: submit → first result %v, last result → merged run %v (submit → merged %v)",
			first.Sub(began).Round(time.Millisecond), merged.Sub(last).Round(time.Millisecond), merged.Sub(began).Round(time.Millisecond))
		if got := slurmComparable(t, filepath.Join(out, "results.json")); !reflect.DeepEqual(got, single) {
			t.Errorf("the merged run differs from the single-machine run:\n%v\nwant\n%v", got, single)
		}
		for task, state := range c.States(t, sub.Array) {
			if state != "COMPLETED" {
				t.Errorf("task %s %s", task, state)
			}
		}
		_, status, _ := run("slurm", "status", out)
		if !strings.Contains(status, sub.Array+"_3\tCOMPLETED") || !strings.Contains(status, "2/4\t2 of 2, complete") || strings.Contains(status, "missing") {
			t.Errorf("status:\n%s", status)
		}
	})

	t.Run("cancel one task", func(t *testing.T) {
		out := filepath.Join(dir, "cancelled")
		hold := filepath.Join(dir, "hold")
		os.WriteFile(hold, nil, 0o644)
		defer os.Remove(hold)
		if code, stdout, stderr := run("slurm", "submit", bench, "--shards", "4", "--out-dir", out, "--runtime", rt); code != 0 {
			t.Fatalf("submit: exit %d\n%s%s", code, stdout, stderr)
		}
		sub := lastSubmission(t, out)
		c.WaitFor(t, sub.Array, 30*time.Second, func(s map[string]string) bool { return s[sub.Array+"_2"] == "RUNNING" })
		c.Run(t, "scancel", sub.Array+"_2")
		c.WaitFor(t, sub.Array, 30*time.Second, func(s map[string]string) bool { return s[sub.Array+"_2"] == "CANCELLED" })
		os.Remove(hold)
		c.Wait(t, sub.Array, 60*time.Second)
		if got := c.Wait(t, sub.Merge, 30*time.Second)[sub.Merge]; got != "CANCELLED" {
			t.Errorf("merge job after a cancelled task: %s, want CANCELLED (--kill-on-invalid-dep)", got)
		}
		if _, err := os.Stat(filepath.Join(out, "slurm", "merge-"+sub.Merge+".out")); err == nil {
			t.Error("the merge job ran")
		}
		code, _, stderr := run("merge", out, "-o", filepath.Join(out, "results.json"), "--benchmark", bench)
		if code != 1 || !strings.Contains(stderr, "shard 2/4") || strings.Contains(stderr, "shard 1/4") {
			t.Errorf("merge with shard 2 cancelled: exit %d\n%s", code, stderr)
		}
		_, status, _ := run("slurm", "status", out)
		if !strings.Contains(status, sub.Array+"_2\tCANCELLED") || !strings.Contains(status, "1/4\t3 of 3, complete") {
			t.Errorf("status:\n%s", status)
		}

		if code, stdout, stderr := run("slurm", "submit", bench, "--shards", "4", "--out-dir", out, "--runtime", rt, "--only", "2"); code != 0 {
			t.Fatalf("submit --only 2: exit %d\n%s%s", code, stdout, stderr)
		}
		again := lastSubmission(t, out)
		if got := c.Wait(t, again.Merge, 60*time.Second)[again.Merge]; got != "COMPLETED" {
			t.Fatalf("merge job after --only 2: %s\n%s", got, taskOutput(t, out))
		}
		if got := c.States(t, again.Array); len(got) != 1 || got[again.Array+"_2"] != "COMPLETED" {
			t.Errorf("--only 2 ran %v", got)
		}
		if got := slurmComparable(t, filepath.Join(out, "results.json")); !reflect.DeepEqual(got, single) {
			t.Errorf("the run completed by --only 2 differs from the single-machine run:\n%v\nwant\n%v", got, single)
		}
	})

	t.Run("bad dataset", func(t *testing.T) {
		os.WriteFile(filepath.Join(dir, "data", "bad.jsonl"), []byte(`{"input": {"image": "../images/invoice-001.png"}, "expected": {"total": "many"}}`+"\n"), 0o644)
		yaml, _ := os.ReadFile(bench)
		bad := filepath.Join(dir, "bad.yaml")
		os.WriteFile(bad, bytes.Replace(yaml, []byte("./data/invoices.jsonl"), []byte("./data/bad.jsonl"), 1), 0o644)
		out := filepath.Join(dir, "bad")
		before := starts()
		if code, stdout, stderr := run("slurm", "submit", bad, "--shards", "4", "--out-dir", out, "--runtime", rt); code != 0 {
			t.Fatalf("submit: exit %d\n%s%s", code, stdout, stderr)
		}
		sub := lastSubmission(t, out)
		for task, state := range c.Wait(t, sub.Array, 60*time.Second) {
			if state != "FAILED" {
				t.Errorf("task %s: %s, want FAILED", task, state)
			}
		}
		if got := c.Wait(t, sub.Merge, 30*time.Second)[sub.Merge]; got != "CANCELLED" {
			t.Errorf("merge job: %s", got)
		}
		if n := starts() - before; n != 0 {
			t.Errorf("a bad dataset started the adapter %d times", n)
		}
		if log := taskOutput(t, out); strings.Count(log, "bad.jsonl") < 4 {
			t.Errorf("the tasks' output does not name the dataset:\n%s", log)
		}
	})
}

// slurmComparable is a result document without the fields benchy merge documents as its own
// (started_at, finished_at, concurrency, shards).
func slurmComparable(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, k := range []string{"started_at", "finished_at", "concurrency", "shards"} {
		delete(doc, k)
	}
	return doc
}

func lastSubmission(t *testing.T, out string) slurm.Submission {
	t.Helper()
	rec, err := slurm.ReadRecord(out)
	if err != nil || len(rec.Submissions) == 0 {
		t.Fatalf("jobs.json: %v %+v", err, rec)
	}
	return rec.Submissions[len(rec.Submissions)-1]
}

// waitFirstResult polls the shards' journals until one has a line, and returns when.
func waitFirstResult(t *testing.T, out string, n int, timeout time.Duration) time.Time {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for _, p := range shardsOf(t, out, n) {
			if p.Done > 0 {
				return time.Now()
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no shard of %s wrote a result within %v\n%s", out, timeout, taskOutput(t, out))
	return time.Time{}
}

func shardsOf(t *testing.T, out string, n int) []slurm.Progress {
	t.Helper()
	p, err := slurm.Shards(out, n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lastResult is when the last shard journal was last written.
func lastResult(t *testing.T, out string, n int) time.Time {
	t.Helper()
	var last time.Time
	for k := 0; k < n; k++ {
		if m := modTime(t, filepath.Join(out, "shard-"+string(rune('0'+k))+"-of-4", "results.jsonl")); m.After(last) {
			last = m
		}
	}
	return last
}

func modTime(t *testing.T, path string) time.Time {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.ModTime()
}

// taskOutput is every job's output under DIR/slurm, for a failure message.
func taskOutput(t *testing.T, out string) string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(out, "slurm", "*.out"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.WriteString("== " + filepath.Base(f) + "\n" + string(data))
	}
	return b.String()
}

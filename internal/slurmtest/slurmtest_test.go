package slurmtest

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCluster runs on a real one-node cluster what issue 17's Slurm support relies on: an
// array job whose tasks see their index and the array's size, a job that waits for the whole
// array (afterok), a running task cancelled alone, and a job depending on that array that
// then never runs: it stays pending (DependencyNeverSatisfied) until cancelled. Afterwards no daemon and no job process is left.
func TestCluster(t *testing.T) {
	var c *Cluster
	t.Run("jobs", func(t *testing.T) {
		c = Start(t)
		out := t.TempDir()

		began := time.Now()
		array := c.Submit(t, "--array=0-3", "-o", "/dev/null", "--wrap",
			`echo $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN $SLURM_ARRAY_TASK_MAX $SLURM_ARRAY_JOB_ID > `+out+`/task-$SLURM_ARRAY_TASK_ID`)
		merge := c.Submit(t, "--dependency=afterok:"+array, "-o", "/dev/null", "--wrap",
			`ls `+out+` | grep -c task- > `+out+`/merge`)
		first := c.WaitFor(t, array, 30*time.Second, func(s map[string]string) bool { return s[array+"_0"] == "COMPLETED" })
		t.Logf("submit to first task ended: %v (%v)", time.Since(began).Round(time.Millisecond), first)
		states := c.Wait(t, array, 30*time.Second)
		want := map[string]string{array + "_0": "COMPLETED", array + "_1": "COMPLETED", array + "_2": "COMPLETED", array + "_3": "COMPLETED"}
		if !maps.Equal(states, want) {
			t.Errorf("array %s: %v, want %v", array, states, want)
		}
		for i, task := range []string{"0", "1", "2", "3"} {
			got := readFile(t, filepath.Join(out, "task-"+task))
			if want := task + " 4 0 3 " + array; got != want {
				t.Errorf("task %d wrote %q, want %q (SLURM_ARRAY_TASK_ID COUNT MIN MAX ARRAY_JOB_ID)", i, got, want)
			}
		}
		if s := c.Wait(t, merge, 30*time.Second); s[merge] != "COMPLETED" {
			t.Errorf("dependent job %s: %v", merge, s)
		}
		if got := readFile(t, filepath.Join(out, "merge")); got != "4" {
			t.Errorf("the afterok job saw %s task files, want 4: it ran before the array ended", got)
		}
		t.Logf("submit to dependent job ended: %v", time.Since(began).Round(time.Millisecond))

		// Task 0 ends by itself after the cancel; task 1 would run a minute.
		long := c.Submit(t, "--array=0-1", "-o", "/dev/null", "--wrap", `sleep $((3 + 57 * SLURM_ARRAY_TASK_ID))`)
		never := c.Submit(t, "--dependency=afterok:"+long, "-o", "/dev/null", "--wrap", "true")
		c.WaitFor(t, long, 30*time.Second, func(s map[string]string) bool {
			return s[long+"_0"] == "RUNNING" && s[long+"_1"] == "RUNNING"
		})
		if len(owned(c.tag, c.Dir)) == 0 {
			t.Error("no running process carries the cluster's tag: the cleanup could not find a job left running")
		}
		c.Run(t, "scancel", long+"_1")
		got := c.WaitFor(t, long, 10*time.Second, func(s map[string]string) bool { return Ended(s[long+"_1"]) })
		if got[long+"_1"] != "CANCELLED" || got[long+"_0"] != "RUNNING" {
			t.Errorf("after scancel %s_1: %v, want task 1 CANCELLED and task 0 RUNNING", long, got)
		}
		if s := c.Wait(t, long, 30*time.Second); s[long+"_0"] != "COMPLETED" {
			t.Errorf("array %s once ended: %v, want task 0 COMPLETED", long, s)
		}
		reason := func() string {
			return strings.TrimSpace(c.Run(t, "squeue", "-h", "-j", never, "-o", "%T %r"))
		}
		deadline := time.Now().Add(10 * time.Second)
		for reason() != "PENDING DependencyNeverSatisfied" && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if r := reason(); r != "PENDING DependencyNeverSatisfied" {
			t.Errorf("the job depending on a cancelled task: %q, want PENDING DependencyNeverSatisfied", r)
		}
		// The cleanup cancels the dependent job and stops the daemons.
	})
	if c == nil {
		return
	}
	for _, d := range c.daemons {
		if err := syscall.Kill(d.cmd.Process.Pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("%s (pid %d) still there after the cleanup: %v", d.name, d.cmd.Process.Pid, err)
		}
	}
	if left := owned(c.tag, c.Dir); len(left) > 0 {
		t.Errorf("processes left after the cleanup: %v", left)
	}
	if _, err := os.Stat(c.Dir); !t.Failed() && !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still there after a passing test: %v", c.Dir, err)
	}
}

// TestOwned: the cleanup finds a process by the tag in its environment, as it finds a job
// script that outlived the daemons, or by a file it holds open in the cluster's directory, as
// it finds a slurmstepd, and not a process with neither.
func TestOwned(t *testing.T) {
	dir := t.TempDir()
	tag := "BENCHY_SLURMTEST=" + dir
	log, err := os.Create(filepath.Join(dir, "slurmd.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	byTag := exec.Command("sleep", "30")
	byTag.Env = append(os.Environ(), tag)
	byFile := exec.Command("sleep", "30")
	byFile.ExtraFiles = []*os.File{log}
	other := exec.Command("sleep", "30")
	for _, c := range []*exec.Cmd{byTag, byFile, other} {
		if err := c.Start(); err != nil {
			t.Skipf("cannot run sleep: %v", err)
		}
		defer c.Wait()
		defer c.Process.Kill()
	}
	want := []int{byTag.Process.Pid, byFile.Process.Pid}
	slices.Sort(want)
	got := owned(tag, dir)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("owned = %v, want %v (tagged, holding a file), not %d", got, want, other.Process.Pid)
	}
	for _, c := range []*exec.Cmd{byTag, byFile} {
		c.Process.Kill()
		c.Wait()
	}
	if got := owned(tag, dir); len(got) > 0 {
		t.Errorf("owned after the processes were reaped = %v, want none", got)
	}
}

// TestUnable: a machine without Slurm is told to run .ci/run's install step, naming what is
// missing; one with it but not root is told so; one with both can run a cluster.
func TestUnable(t *testing.T) {
	found := func(string) (string, error) { return "/usr/bin/x", nil }
	noSlurmd := func(name string) (string, error) {
		if name == "slurmd" || name == "munged" {
			return "", exec.ErrNotFound
		}
		return "/usr/bin/" + name, nil
	}
	for _, tc := range []struct {
		name string
		look func(string) (string, error)
		euid int
		want []string // substrings; none means "" (able)
	}{
		{"everything there, root", found, 0, nil},
		{"slurmd and munged missing", noSlurmd, 0, []string{"missing munged, slurmd", ".ci/run", "apt-get install -y slurm-wlm munge"}},
		{"not root", found, 1000, []string{"root"}},
	} {
		got := unable(tc.look, tc.euid)
		if len(tc.want) == 0 && got != "" {
			t.Errorf("%s: %q, want able", tc.name, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not say %q", tc.name, got, w)
			}
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

// TestTwoClusters: two tests, in one package or two, each have a cluster at the same time on
// the one host (same node name, their own ports and directories), and each runs its jobs.
func TestTwoClusters(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := Start(t)
			id := c.Submit(t, "--array=0-1", "-o", "/dev/null", "--wrap", "sleep 1")
			if s := c.Wait(t, id, 30*time.Second); s[id+"_0"] != "COMPLETED" || s[id+"_1"] != "COMPLETED" {
				t.Errorf("cluster %s: %v", name, s)
			}
		})
	}
}

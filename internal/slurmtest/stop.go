package slurmtest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Grace is how long a daemon has to stop after SIGTERM before it is killed. slurmctld,
// slurmd and munged each take about 2 s.
const Grace = 10 * time.Second

// stop cancels every job, stops the daemons by PID (slurmd and slurmctld, then munged, whom
// they need until they are down), then kills whatever process still carries the cluster's
// tag: job steps (slurmstepd) and job scripts are not the daemons' children and outlive
// them. A process left is a test failure, not only a leak.
func (c *Cluster) stop(t testing.TB) {
	t.Helper()
	began := time.Now()
	if len(c.daemons) == 3 && c.alive("slurmctld") {
		c.Command("scancel", "--partition="+c.Partition).Run()
		deadline := time.Now().Add(Grace)
		for time.Now().Before(deadline) {
			out, err := c.Command("squeue", "-h", "-t", "PENDING,RUNNING,CONFIGURING,COMPLETING,SUSPENDED").Output()
			if err != nil || len(bytes.TrimSpace(out)) == 0 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	var slurm, munge []*daemon
	for _, d := range c.daemons {
		if d.name == "munged" {
			munge = append(munge, d)
		} else {
			slurm = append(slurm, d)
		}
	}
	c.terminate(t, slurm)
	c.terminate(t, munge)
	if left := c.leftovers(); len(left) > 0 {
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Errorf("slurmtest: processes of the cluster were left after its daemons stopped, killed: %v", left)
	}
	t.Logf("slurmtest: cluster stopped in %v", time.Since(began).Round(time.Millisecond))
	if !t.Failed() {
		os.RemoveAll(c.Dir)
	} else {
		t.Logf("slurmtest: kept %s for its logs", c.Dir)
	}
}

func (c *Cluster) alive(name string) bool {
	for _, d := range c.daemons {
		if d.name == name {
			select {
			case <-d.done:
				return false
			default:
				return true
			}
		}
	}
	return false
}

// terminate sends SIGTERM to each daemon at once, then SIGKILL to those not gone after Grace.
func (c *Cluster) terminate(t testing.TB, ds []*daemon) {
	t.Helper()
	for _, d := range ds {
		d.cmd.Process.Signal(syscall.SIGTERM)
	}
	timeout := time.After(Grace)
	for _, d := range ds {
		select {
		case <-d.done:
		case <-timeout:
			d.cmd.Process.Kill()
			<-d.done
			t.Errorf("slurmtest: %s (pid %s) did not stop within %v of SIGTERM; killed", d.name, d.pid(), Grace)
		}
	}
}

// leftovers are the live processes of the cluster, after a short wait for those already on
// their way out.
func (c *Cluster) leftovers() []int {
	var left []int
	for range 20 {
		left = owned(c.tag, c.Dir)
		if len(left) == 0 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return left
}

// owned are the live processes, other than this one, that belong to the cluster in dir: a
// job's processes carry tag in their environment (sbatch passes it on from Env), while
// slurmstepd clears its environment but keeps the cluster's slurmd.log open.
func owned(tag, dir string) []int {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, p := range procs {
		pid, err := strconv.Atoi(filepath.Base(p))
		if err != nil || pid == os.Getpid() {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(p, "stat"))
		if err != nil || zombie(stat) {
			continue
		}
		if hasTag(p, tag) || holds(p, dir) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func hasTag(proc, tag string) bool {
	env, err := os.ReadFile(filepath.Join(proc, "environ"))
	if err != nil {
		return false
	}
	return slices.Contains(strings.Split(string(env), "\x00"), tag)
}

// holds reports whether the process works in dir or has a file under it open.
func holds(proc, dir string) bool {
	links, _ := filepath.Glob(filepath.Join(proc, "fd", "*"))
	for _, l := range append(links, filepath.Join(proc, "cwd")) {
		if target, err := os.Readlink(l); err == nil && (target == dir || strings.HasPrefix(target, dir+"/")) {
			return true
		}
	}
	return false
}

// zombie reports a /proc/PID/stat of an exited process not yet reaped: nothing to stop.
func zombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

package slurmtest

import (
	"strings"
	"testing"
	"time"
)

// Submit runs sbatch --parsable with args and returns the job's id (for an array, the
// array's id: its tasks are ID_0, ID_1, ...).
func (c *Cluster) Submit(t testing.TB, args ...string) string {
	t.Helper()
	out := c.Run(t, "sbatch", append([]string{"--parsable"}, args...)...)
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";") // "ID;cluster" on a federation
	return id
}

// States maps each job or array task squeue knows of under id to its state: "7" →
// "COMPLETED", or "6_0" → "RUNNING", "6_1" → "PENDING" (pending tasks listed one by one). An
// array task cancelled while pending is not listed at all: without an accounting database
// nothing but JobComp remembers it.
func (c *Cluster) States(t testing.TB, id string) map[string]string {
	t.Helper()
	out := c.Run(t, "squeue", "-h", "-r", "-t", "all", "-j", id, "-o", "%i %T")
	states := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if job, state, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			states[job] = state
		}
	}
	return states
}

// Ended reports a state from which a job does not go on.
func Ended(state string) bool {
	switch state {
	case "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
		"OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE":
		return true
	}
	return false
}

// Wait polls States until every job or task under id has ended, and returns them; it fails
// t with the daemons' logs after timeout.
func (c *Cluster) Wait(t testing.TB, id string, timeout time.Duration) map[string]string {
	t.Helper()
	return c.WaitFor(t, id, timeout, func(states map[string]string) bool {
		for _, s := range states {
			if !Ended(s) {
				return false
			}
		}
		return len(states) > 0
	})
}

// WaitFor polls States until ok holds for them, and returns them; it fails t with the
// daemons' logs after timeout.
func (c *Cluster) WaitFor(t testing.TB, id string, timeout time.Duration, ok func(map[string]string) bool) map[string]string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		states := c.States(t, id)
		if ok(states) {
			return states
		}
		if time.Now().After(deadline) {
			t.Fatalf("slurmtest: job %s still %v after %v\n%s", id, states, timeout, c.Logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

package adapter

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
)

// TestHardeningHungCommandCostsTimeout: a command that never answers (a real process that
// sleeps) costs its timeout per example. Only the worker's first process gets the start-up
// allowance; the processes that replace one that never answered do not (they used to, so
// that each example cost timeout + 30 s).
func TestHardeningHungCommandCostsTimeout(t *testing.T) {
	defer func(g time.Duration) { startupGrace = g }(startupGrace)
	// The allowance is longer than the slack a loaded CI machine needs to start and kill a
	// process (up to 2 s), so that an example given it by mistake still fails.
	startupGrace = 4 * time.Second
	const timeout = 300 * time.Millisecond
	const slack = 2 * time.Second
	a := started(t, bindFactory(t, fmt.Sprintf("bindings:\n  hung:\n    command: [sleep, '1000']\n    timeout: %v\n", timeout), t.TempDir(), "hung", nil))
	for i := range 4 {
		start := time.Now()
		_, err := a.Invoke(context.Background(), i, map[string]any{})
		took := time.Since(start)
		if failureOf(t, err).Code != diag.Timeout {
			t.Fatalf("example %d: %v, want a timeout", i, err)
		}
		t.Logf("example %d: %v", i, took.Round(time.Millisecond))
		lo, hi := timeout, timeout+slack
		if i == 0 { // a fresh worker: timeout + max(timeout, startupGrace)
			lo, hi = timeout+startupGrace, timeout+startupGrace+slack
		}
		if took < lo || took > hi {
			t.Errorf("example %d took %v, want %v to %v", i, took.Round(time.Millisecond), lo, hi)
		}
	}
}

package adapter

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
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
	rt, err := ParseRuntime([]byte(fmt.Sprintf("bindings:\n  hung:\n    command: [sleep, '1000']\n    timeout: %v\n", timeout)), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := rt.Factory(&ir.Benchmark{AISystem: ir.AISystem{Type: ir.SystemExternal, ID: "hung"}}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := f()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
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

//go:build unix

package adapter

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
)

// TestCommandStoppedWithTheRun: a command stopped by SIGTERM, as Slurm's scancel or a
// Kubernetes eviction stops every process of a job at once, waits for benchy's own stop
// before its death counts: when the run's context ends meanwhile, the failure is the run's
// end (which the engine drops, so a resumed run or a shard's re-run asks the example
// again), not an adapter_error a shard's journal would keep as the system's answer (a
// cancelled Slurm task kept one, and its re-run merged differently from a single run).
// A command that dies so with the run going on is still the example's adapter_error.
func TestCommandStoppedWithTheRun(t *testing.T) {
	a := newEcho(t, "30s", nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel) // benchy's own SIGTERM, noticed a moment later
	_, err := a.Invoke(ctx, 0, map[string]any{"action": "sigterm"})
	if f := failureOf(t, err); f.Code != diag.Timeout || !strings.Contains(f.Message, "the run ended before the AI-system answered") {
		t.Errorf("a command stopped with the run: %s: %s, want the run's end", f.Code, f.Message)
	}
	a = newEcho(t, "30s", nil)
	_, err = a.Invoke(context.Background(), 1, map[string]any{"action": "sigterm"})
	if f := failureOf(t, err); f.Code != diag.AdapterError || !strings.Contains(f.Message, "signal: terminated") {
		t.Errorf("a command stopped while the run goes on: %s: %s, want adapter_error", f.Code, f.Message)
	}
}

package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// TestProgressTotalKnown: once the dataset is validated the bar knows the run's total, so
// that a run waiting before its first example ends (for a rate limit, say) reads 0/20,
// not 0/?.
func TestProgressTotalKnown(t *testing.T) {
	var out bytes.Buffer
	b := &progressBar{w: &out, every: time.Hour, stop: make(chan struct{}),
		waiting: func() (time.Time, string, bool) { return time.Now(), "tokens per minute", true }}
	b.validated(engine.Validated{Total: 20, All: 20, Rows: 20})
	b.mu.Lock()
	b.draw()
	b.mu.Unlock()
	if got := out.String(); !strings.HasPrefix(got, "progress 0/20 (0%)") || !strings.Contains(got, "waiting for the rate limit (tokens per minute)") {
		t.Errorf("the waiting line %q, want progress 0/20 and the wait", got)
	}
	// The engine's progress takes over.
	b.update(engine.Progress{Done: 20, Total: 20, Elapsed: time.Second})
	if !strings.Contains(out.String(), "progress 20/20 (100%)") {
		t.Errorf("after the last example: %q", out.String())
	}
}

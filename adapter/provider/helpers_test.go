package provider

import (
	"context"
	"sync"
	"testing"
	"time"
)

// newModel builds the adapter of cfg for task the way the runtime does, through
// NewFactory, with key as the value of the variable cfg.APIKeyEnv names.
func newModel(t testing.TB, cfg Config, task Task, key string) *modelAdapter {
	t.Helper()
	f, err := NewFactory(cfg, task, func(name string) string {
		if name != "" && name == cfg.APIKeyEnv {
			return key
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return a.(*modelAdapter)
}

// recordWaits makes m's retries record their waits instead of sleeping them, with the
// jitter fixed at its midpoint so that a backoff is exactly its base.
func recordWaits(m *modelAdapter) *[]time.Duration {
	var mu sync.Mutex
	waits := new([]time.Duration)
	m.c.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	m.c.jitter = func() float64 { return 0.5 }
	return waits
}

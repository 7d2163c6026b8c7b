package live

import (
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
)

// TestWaiting: what a run waits for, as the runs page says it.
func TestWaiting(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	one := []api.Batch{{ID: "batch_abc", Provider: "openai", State: "in_progress", Requests: 500, Done: 120}}
	two := []api.Batch{{ID: "b1", Provider: "openai", State: "in_progress", Requests: 1000, Done: 900},
		{ID: "b2", Provider: "openai", State: "validating", Requests: 1000}}
	for _, c := range []struct {
		w    *api.Waiting
		want string
	}{
		{nil, ""},
		{&api.Waiting{For: api.WaitRateLimit, Since: now.Add(-12 * time.Second), Detail: "tokens per minute"}, "waiting for the rate limit (tokens per minute) since 12 s"},
		{&api.Waiting{For: api.WaitRateLimit, Since: now.Add(-1500 * time.Millisecond)}, "waiting for the rate limit since 1 s"},
		{&api.Waiting{For: api.WaitRateLimit, Since: now.Add(time.Second), Detail: "requests per minute"}, "waiting for the rate limit (requests per minute) since 0 ms"}, // a clock ahead
		{&api.Waiting{For: api.WaitBatch, Since: now.Add(-2 * time.Minute), Batches: one}, "waiting for 1 batch at openai: in_progress, 120 of 500 done (since 2 min)"},
		{&api.Waiting{For: api.WaitBatch, Since: now.Add(-time.Hour), Batches: two}, "waiting for 2 batches at openai: in_progress, validating, 900 of 2,000 done (since 1 h 0 min)"},
		{&api.Waiting{For: "gpu", Detail: "a free GPU"}, "waiting: a free GPU"},
	} {
		if got := Waiting(c.w, now); got != c.want {
			t.Errorf("Waiting(%+v) = %q, want %q", c.w, got, c.want)
		}
	}
}

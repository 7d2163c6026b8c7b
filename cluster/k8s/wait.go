package k8s

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/shard"
)

// Pending is the shards of N under dir that have not completed, by K, each with why:
// "missing" (no manifest yet: its pod has not started, or has not got far) or
// "incomplete" (running, or failed and to be tried again). A manifest that cannot be read
// is an error.
func Pending(dir string, n int) ([]shard.Missing, error) {
	var pending []shard.Missing
	for k := range n {
		s := engine.Shard{K: k, N: n}
		m, err := shard.ReadManifest(shard.Dir(dir, s))
		switch {
		case errors.Is(err, os.ErrNotExist):
			pending = append(pending, shard.Missing{Shard: s, Why: "missing"})
		case err != nil:
			return nil, err
		case !m.Complete:
			pending = append(pending, shard.Missing{Shard: s, Why: "incomplete"})
		}
	}
	return pending, nil
}

// Wait returns once every shard of N under dir has completed, looking every poll, and
// calls report with what is pending whenever that changes. It is the merge Job's init
// container: Kubernetes starts a Job at once, with no dependency on another, so the merge
// waits on the volume the shards write to, and a shard Job applied again after some of its
// indexes failed is waited for too. Whether the shards agree is the merge's to check.
func Wait(ctx context.Context, dir string, n int, poll time.Duration, report func([]shard.Missing)) error {
	last := "-"
	for {
		pending, err := Pending(dir, n)
		if err != nil {
			return err
		}
		if now := fmt.Sprint(pending); now != last {
			report(pending)
			last = now
		}
		if len(pending) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

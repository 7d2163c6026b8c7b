package runs

import (
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestClusterText: what the followed run says of its shards on a cluster.
func TestClusterText(t *testing.T) {
	c := func(pending, running, complete, done int) *api.Cluster {
		return &api.Cluster{Executor: "gpu", Kind: "slurm", JobID: "7", Shards: 4, Pending: pending, Running: running, Complete: complete, Done: done, Total: 5000}
	}
	for _, tt := range []struct {
		name string
		c    *api.Cluster
		want string
	}{
		{"submitted", c(4, 0, 0, 0), "on cluster gpu: 0 of 4 shards running, 0 of 5,000 examples"},
		{"the issue's line", c(0, 3, 1, 1234), "on cluster gpu: 3 of 4 shards running, 1 complete, 1,234 of 5,000 examples"},
		{"some pending", c(2, 2, 0, 10), "on cluster gpu: 2 of 4 shards running, 2 pending, 10 of 5,000 examples"},
		{"every shard done", c(0, 0, 4, 5000), "on cluster gpu: all 4 shards complete, merging, 5,000 of 5,000 examples"},
	} {
		if got := clusterText(tt.c); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

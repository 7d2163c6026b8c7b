package server

import (
	"net/http"
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestLastScoreFailed: a benchmark whose last full run failed as infrastructure (every
// example an execution error) is listed with last_failed, so that the picker says so
// instead of "last score 0.0000"; one whose last run scored is not.
func TestLastScoreFailed(t *testing.T) {
	srv, _, _ := downAndFine(t)

	var list []api.Benchmark
	decode(t, srv, "GET", api.BenchmarksPath, "", http.StatusOK, &list)
	for path, want := range map[string]bool{"down/benchmark.yaml": true, "slow/benchmark.yaml": false} {
		i := slices.IndexFunc(list, func(b api.Benchmark) bool { return b.Path == path })
		if i < 0 {
			t.Fatalf("%s not listed", path)
		}
		if b := list[i]; b.LastRun == "" || b.LastFailed != want {
			t.Errorf("%s: last run %q, last_failed %v, want %v", path, b.LastRun, b.LastFailed, want)
		}
	}
}

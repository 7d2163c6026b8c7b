package server

import (
	"net/http"
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestLastScoreOfOwnSystem: a benchmark's last score in the listing is its own AI-system's,
// not that of another system a launch ran the file against after it (it showed the
// other system's score beside the file's own system's name).
func TestLastScoreOfOwnSystem(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	var started api.Started
	decode(t, srv, "POST", "/api/runs", `{"benchmark": "benchmark.yaml", "concurrency": 1, "systems": [{"own": true}, {"system": "slow-system"}]}`,
		http.StatusAccepted, &started)
	if len(started.IDs) != 2 {
		t.Fatalf("started %+v", started)
	}
	own := waitStatus(t, srv, started.IDs[0], store.Completed)
	other := waitStatus(t, srv, started.IDs[1], store.Completed)
	ownScore, otherScore := own.DecodeReport().BenchmarkScore, other.DecodeReport().BenchmarkScore
	if *ownScore == *otherScore {
		t.Fatalf("both systems scored %v: the test cannot tell them apart", *ownScore)
	}
	var list []api.Benchmark
	decode(t, srv, "GET", "/api/benchmarks", "", http.StatusOK, &list)
	i := slices.IndexFunc(list, func(b api.Benchmark) bool { return b.Path == "benchmark.yaml" })
	if i < 0 {
		t.Fatalf("benchmark.yaml is not listed: %+v", list)
	}
	if list[i].LastScore == nil || *list[i].LastScore != *ownScore || list[i].LastRun != own.ID {
		t.Errorf("last score %v of run %s, want the own system's %v of run %s (the other's: %v)", list[i].LastScore, list[i].LastRun, *ownScore, own.ID, *otherScore)
	}
}

package server

import (
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestLastScoreOfFullRun: a benchmark's last score in the listing is its latest completed
// full run's; a newer run of the first N examples (--limit) is not its score but its
// last_partial (it showed the partial run's score as the file's last score). A limit
// above the dataset's size evaluated everything: that run is full.
func TestLastScoreOfFullRun(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	start := func(limit string) api.Run {
		t.Helper()
		var started api.Started
		decode(t, srv, "POST", "/api/runs", `{"benchmark": "benchmark.yaml", "concurrency": 1, "limit": `+limit+`}`, http.StatusAccepted, &started)
		return waitStatus(t, srv, started.ID, store.Completed)
	}
	last := func() api.Benchmark {
		t.Helper()
		var list []api.Benchmark
		decode(t, srv, "GET", "/api/benchmarks", "", http.StatusOK, &list)
		i := slices.IndexFunc(list, func(b api.Benchmark) bool { return b.Path == "benchmark.yaml" })
		if i < 0 {
			t.Fatalf("benchmark.yaml not listed: %+v", list)
		}
		return list[i]
	}

	partialOnly := start("2")
	b := last()
	if b.LastScore != nil || b.LastRun != "" {
		t.Errorf("with only a run of the first 2 examples, last score %s of run %q, want none", showScore(b.LastScore), b.LastRun)
	}
	if b.LastPartial == nil || b.LastPartial.ID != partialOnly.ID || b.LastPartial.Examples != 2 {
		t.Errorf("last_partial %+v, want run %s of 2 examples", b.LastPartial, partialOnly.ID)
	}

	full := start("0")
	partial := start("2")
	b = last()
	if b.LastRun != full.ID || b.LastScore == nil || *b.LastScore != *full.DecodeReport().BenchmarkScore {
		t.Errorf("last score %s of run %s, want the full run %s's %v (the newer partial run: %s)",
			showScore(b.LastScore), b.LastRun, full.ID, *full.DecodeReport().BenchmarkScore, partial.ID)
	}
	if b.LastPartial == nil || b.LastPartial.ID != partial.ID || b.LastPartial.Score == nil ||
		*b.LastPartial.Score != *partial.DecodeReport().BenchmarkScore {
		t.Errorf("last_partial %+v, want run %s", b.LastPartial, partial.ID)
	}

	above := start("1000") // more than the dataset holds: every example, a full run
	b = last()
	if b.LastRun != above.ID || b.LastPartial != nil {
		t.Errorf("after a run with a limit above the dataset's size: last run %s, last_partial %+v; want run %s and no partial newer than it",
			b.LastRun, b.LastPartial, above.ID)
	}
}

// showScore shows a score that may be missing.
func showScore(s *float64) string {
	if s == nil {
		return "none"
	}
	return strconv.FormatFloat(*s, 'f', -1, 64)
}

package server

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestLastScoreFailed: a benchmark whose last full run failed as infrastructure (every
// example an execution error) is listed with last_failed, so that the picker says so
// instead of "last score 0.0000"; one whose last run scored is not.
func TestLastScoreFailed(t *testing.T) {
	dir := runWorkspace(t, slow{})
	var rows strings.Builder
	for i := range 5 {
		fmt.Fprintf(&rows, `{"input": {"text": "fail-%d"}, "expected": {"number": "x", "total": 1}}`+"\n", i)
	}
	os.MkdirAll(filepath.Join(dir, "down"), 0o755)
	os.WriteFile(filepath.Join(dir, "down", "benchmark.yaml"), []byte(slowYAML), 0o644)
	os.WriteFile(filepath.Join(dir, "down", "data.jsonl"), []byte(rows.String()), 0o644)
	_, srv := serve(t, Config{Workspace: dir})
	down := startRun(t, srv, `{"benchmark": "down/benchmark.yaml"}`)
	fine := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml"}`)
	waitStatus(t, srv, down, store.Completed)
	waitStatus(t, srv, fine, store.Completed)

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

package server

import (
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestTotalBeforeFirstAnswer: once the dataset is validated the run's record and its live
// progress say how many examples will run, before the AI-system gave its first answer:
// a page showed "starting · Validating the dataset" all the while a slow system thought.
func TestTotalBeforeFirstAnswer(t *testing.T) {
	dir := runWorkspace(t, slow{gate: true}) // nothing is answered until the gate opens
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`)
	run := waitRun(t, srv, id, "its total", func(r api.Run) bool { return r.Total > 0 })
	if run.Done != 0 || run.Status != "running" {
		t.Errorf("before any answer: %s, %d of %d done", run.Status, run.Done, run.Total)
	}
	openGate(t, dir)
	waitStatus(t, srv, id, store.Completed)
}

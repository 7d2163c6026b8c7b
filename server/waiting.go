package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// What a running run waits for (api.Waiting), which the runs page shows: its provider
// batches (batch: true), as the store has them, or its provider's rate limit, which only
// the process sending the requests knows (workspace.Plan.Waiting).

// waitEvery is how often a run this server executes is looked at for what it waits for:
// the engine reports progress only as examples end, and a run waiting has none to report.
const waitEvery = 500 * time.Millisecond

// waiting is what run waits for while it runs, nil when nothing: its batches not yet ended
// and read, whoever executes it; else, when this server executes it (j), its provider's
// rate limit, shared by every run sending to that provider.
func (s *Server) waiting(run store.Run, j *job) *api.Waiting {
	if run.Status != store.Running {
		return nil
	}
	return waitingOf(s.st, run.ID, j)
}

// waitingOf is waiting for run id, running. A job whose engine has started is past its
// batches: the store is not asked.
func waitingOf(st *store.Store, id string, j *job) *api.Waiting {
	if j == nil || !j.engineStarted.Load() {
		if bs, err := st.Batches(id); err == nil {
			if w := batchWait(bs); w != nil {
				return w
			}
		}
	}
	if j == nil {
		return nil
	}
	if since, why, ok := j.plan.Waiting(); ok {
		return &api.Waiting{For: api.WaitRateLimit, Since: since.UTC().Round(0), Detail: why}
	}
	return nil
}

// watch publishes what job j waits for on its event stream, every waitEvery until stop
// closes.
func (m *manager) watch(j *job, stop <-chan struct{}) {
	t := time.NewTicker(waitEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		w := waitingOf(m.st, j.id, j)
		total := 0
		if w != nil && w.For == api.WaitBatch {
			// Before the engine reports, the stream's total would be 0: the store has it
			// once the batches were submitted.
			if run, err := m.st.Peek(j.id); err == nil {
				total = run.Total
			}
		}
		j.events.setWaiting(w, total)
	}
}

// wireBatch is a stored batch as the API shows it, and whether its replies are all in
// the store (nothing is left to wait for).
func wireBatch(b store.Batch) (api.Batch, bool) {
	var d provider.BatchDetail
	json.Unmarshal(b.Detail, &d) // a detail that is not one counts nothing
	out := api.Batch{ID: b.ID, Provider: b.Provider, Kind: b.Kind, State: b.State, Requests: b.Requests, Counts: d.Counts,
		Done: provider.BatchInfo{Kind: provider.Kind(b.Kind), Requests: b.Requests, Detail: d}.Done()}
	return out, d.Stored
}

// wireBatches are a run's batches as the API shows them.
func wireBatches(bs []store.Batch) []api.Batch {
	var out []api.Batch
	for _, b := range bs {
		w, _ := wireBatch(b)
		out = append(out, w)
	}
	return out
}

// batchWait is the wait for the batches of bs whose replies are not all stored, since the
// first of them was submitted; nil when there are none.
func batchWait(bs []store.Batch) *api.Waiting {
	var w *api.Waiting
	for _, b := range bs {
		wb, stored := wireBatch(b)
		if stored {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, b.CreatedAt)
		if w == nil {
			w = &api.Waiting{For: api.WaitBatch, Since: at}
		} else if err == nil && at.Before(w.Since) {
			w.Since = at
		}
		w.Batches = append(w.Batches, wb)
	}
	if w != nil {
		w.Detail = batchDetail(w.Batches)
	}
	return w
}

// batchDetail says how far the batches are: "batch batch_abc: in_progress 120/500", and
// for several each of the first three and how many more.
func batchDetail(bs []api.Batch) string {
	const shown = 3
	parts := make([]string, 0, min(len(bs), shown)+1)
	for i, b := range bs {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(bs)-shown))
			break
		}
		parts = append(parts, fmt.Sprintf("batch %s: %s %d/%d", b.ID, b.State, b.Done, b.Requests))
	}
	return strings.Join(parts, "; ")
}

package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compare"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// compareRuns answers GET /api/runs/compare?a=ID&b=ID: two completed runs of the same IR
// side by side — the score delta with a paired interval, per-dimension deltas and the
// examples that changed (b minus a). A comparison reads every result of both runs (10 s of
// CPU for two runs of a million examples), and completed runs never change: the answer is
// kept (compareCache).
func (s *Server) compareRuns(w http.ResponseWriter, r *http.Request) error {
	idA, idB := r.URL.Query().Get("a"), r.URL.Query().Get("b")
	if idA == "" || idB == "" {
		return refuse(http.StatusBadRequest, api.BadRequest, "name the two runs: ?a=ID&b=ID")
	}
	var runs [2]store.Run
	for i, id := range []string{idA, idB} {
		run, err := s.st.GetRun(id)
		if errors.Is(err, store.ErrNotFound) {
			return refuse(http.StatusNotFound, api.NotFound, "no run %s", id)
		}
		if err != nil {
			return storeError(err)
		}
		if run.Status != store.Completed {
			return refuse(http.StatusConflict, api.NotCompleted, "run %s is %s; only completed runs are compared", id, run.Status)
		}
		runs[i] = run
	}
	if runs[0].IRHash != runs[1].IRHash {
		return refuse(http.StatusConflict, api.DifferentBenchmarks, "the runs are of different benchmarks (IR hashes differ); only runs of the same IR are compared")
	}
	key := compareKey(runs)
	if body, ok := s.cmps.get(key); ok {
		return writeJSON(w, http.StatusOK, body)
	}
	nextA, stopA := iterPull(s.st, idA)
	defer stopA()
	nextB, stopB := iterPull(s.st, idB)
	defer stopB()
	var c compare.Comparer
	for {
		a, errA, okA := nextA()
		b, errB, okB := nextB()
		if err := errors.Join(errA, errB); err != nil {
			return storeError(err)
		}
		if okA != okB {
			return refuse(http.StatusConflict, api.DifferentLengths, "the runs hold different numbers of examples (one used --limit?)")
		}
		if !okA {
			break
		}
		if err := c.Add(a, b); err != nil {
			return refuse(http.StatusConflict, api.OutOfStep, "%s", err.Error()) // compare's own sentence
		}
	}
	cmp, err := wireComparison(idA, idB, c.Result())
	if err != nil {
		return internalError(err)
	}
	body, err := json.Marshal(cmp)
	if err != nil {
		return internalError(err)
	}
	s.cmps.put(key, body)
	return writeJSON(w, http.StatusOK, json.RawMessage(body))
}

// wireComparison is run b compared with run a as the API sends it.
func wireComparison(a, b string, c compare.Comparison) (api.Comparison, error) {
	out := api.Comparison{A: a, B: b, Examples: c.Examples, ScoreA: c.ScoreA, ScoreB: c.ScoreB, Delta: c.Delta,
		Interval: api.Interval(c.Interval), Improved: c.Improved, Regressed: c.Regressed}
	if c.Dimensions != nil {
		out.Dimensions = make([]api.CompareDimension, len(c.Dimensions))
	}
	if c.Flips != nil {
		out.Flips = make([]api.Flip, len(c.Flips))
	}
	for i, d := range c.Dimensions {
		out.Dimensions[i] = api.CompareDimension(d)
	}
	for i, f := range c.Flips {
		pa, errA := json.Marshal(f.PredictionA)
		pb, errB := json.Marshal(f.PredictionB)
		if err := errors.Join(errA, errB); err != nil {
			return api.Comparison{}, err
		}
		out.Flips[i] = api.Flip{Index: f.Index, StatusA: string(f.StatusA), StatusB: string(f.StatusB), QA: f.QA, QB: f.QB,
			PredictionA: pa, PredictionB: pb}
	}
	return out, nil
}

// compareCache keeps the answers of the latest comparisons, at most maxCompares of them
// and none over maxCompareBytes, the oldest forgotten first.
type compareCache struct {
	mu    sync.Mutex
	keys  []string
	saved map[string]json.RawMessage
}

const (
	maxCompares     = 16
	maxCompareBytes = 4 << 20
)

// compareKey names a comparison of two completed runs as they stand: a run that was
// changed since (its results, its end) is another key.
func compareKey(runs [2]store.Run) string {
	var key string
	for _, r := range runs {
		var end string
		if r.FinishedAt != nil {
			end = r.FinishedAt.String()
		}
		key += fmt.Sprintf("%q %s %d/%d %s;", r.ID, r.Status, r.Done, r.Total, end)
	}
	return key
}

func (c *compareCache) get(key string) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	body, ok := c.saved[key]
	return body, ok
}

func (c *compareCache) put(key string, body json.RawMessage) {
	if len(body) > maxCompareBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.saved == nil {
		c.saved = map[string]json.RawMessage{}
	}
	if _, ok := c.saved[key]; ok {
		return
	}
	if len(c.keys) == maxCompares {
		delete(c.saved, c.keys[0])
		c.keys = c.keys[1:]
	}
	c.keys = append(c.keys, key)
	c.saved[key] = body
}

// iterPull reads a run's stored results one at a time.
func iterPull(st *store.Store, id string) (func() (engine.ExampleResult, error, bool), func()) {
	next, stop := pull2(st.Stored(id))
	return next, stop
}

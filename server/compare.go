package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compare"
	"github.com/benchy-eval/benchy/store"
)

// compareRuns answers GET /api/runs/compare?a=ID&b=ID: two comparable completed runs
// (compare.Comparable: one benchmark hash and dataset digest, whatever their systems) side
// by side — the score delta with a paired interval, per-dimension deltas and the examples
// that changed (b minus a). A comparison reads every result of both runs (10 s of CPU for
// two runs of a million examples), and completed runs never change: the answer is kept
// (compareCache).
func (s *Server) compareRuns(w http.ResponseWriter, r *http.Request) error {
	idA, idB := r.URL.Query().Get("a"), r.URL.Query().Get("b")
	if idA == "" || idB == "" {
		return refuse(http.StatusBadRequest, api.BadRequest, "name the two runs: ?a=ID&b=ID")
	}
	runs, err := compare.Load(s.st, idA, idB)
	if err != nil {
		return compareError(err)
	}
	key := compareKey(runs)
	if body, ok := s.cmps.get(key); ok {
		return writeJSON(w, http.StatusOK, body)
	}
	cmp, err := compare.Read(s.st, runs)
	if err != nil {
		return compareError(err)
	}
	body, err := json.Marshal(cmp)
	if err != nil {
		return internalError(err)
	}
	s.cmps.put(key, body)
	return writeJSON(w, http.StatusOK, json.RawMessage(body))
}

// compareError is the answer to a comparison that failed: 404 for an unknown run, 409 for
// runs that are not comparable (compare's own sentence).
func compareError(err error) error {
	var no *compare.Refusal
	switch {
	case errors.Is(err, store.ErrNotFound):
		return refuse(http.StatusNotFound, api.NotFound, "%s", err.Error())
	case errors.As(err, &no):
		return refuse(http.StatusConflict, no.Code, "%s", no.Message)
	}
	return storeError(err)
}

// wireComparison is run b compared with run a as the API sends it (compare.Wire).
func wireComparison(a, b string, c compare.Comparison) (api.Comparison, error) {
	return compare.Wire(a, b, c)
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

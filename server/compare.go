package server

import (
	"errors"
	"net/http"

	"github.com/benchy-eval/benchy/compare"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// compareRuns answers GET /api/runs/compare?a=ID&b=ID: two completed runs of the same IR
// side by side — the score delta with a paired interval, per-dimension deltas and the
// examples that changed (b minus a).
func (s *Server) compareRuns(w http.ResponseWriter, r *http.Request) {
	idA, idB := r.URL.Query().Get("a"), r.URL.Query().Get("b")
	if idA == "" || idB == "" {
		writeError(w, http.StatusBadRequest, "bad_request", "name the two runs: ?a=ID&b=ID")
		return
	}
	var runs [2]store.Run
	for i, id := range []string{idA, idB} {
		run, err := s.st.GetRun(id)
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusNotFound, "not_found", "no run "+id)
			return
		} else if err != nil {
			writeError(w, http.StatusInternalServerError, "store", err.Error())
			return
		}
		if run.Status != store.Completed {
			writeError(w, http.StatusConflict, "not_completed", "run "+id+" is "+string(run.Status)+"; only completed runs are compared")
			return
		}
		runs[i] = run
	}
	if runs[0].IRHash != runs[1].IRHash {
		writeError(w, http.StatusConflict, "different_benchmarks", "the runs are of different benchmarks (IR hashes differ); only runs of the same IR are compared")
		return
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
			writeError(w, http.StatusInternalServerError, "store", err.Error())
			return
		}
		if okA != okB {
			writeError(w, http.StatusConflict, "different_lengths", "the runs hold different numbers of examples (one used --limit?)")
			return
		}
		if !okA {
			break
		}
		if err := c.Add(a, b); err != nil {
			writeError(w, http.StatusConflict, "out_of_step", err.Error())
			return
		}
	}
	writeJSON(w, http.StatusOK, struct {
		A string `json:"a"`
		B string `json:"b"`
		compare.Comparison
	}{idA, idB, c.Result()})
}

// iterPull reads a run's stored results one at a time.
func iterPull(st *store.Store, id string) (func() (engine.ExampleResult, error, bool), func()) {
	next, stop := pull2(st.Stored(id))
	return next, stop
}

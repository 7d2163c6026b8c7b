package server

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// maxCharts is how many completed runs' charts are kept; beyond it the cache starts again.
// A completed run's results never change, so its charts are counted once: the confusion
// matrices read every valid result, some 700 ms at 1,000,000 (BenchmarkExplore/charts,
// cold), a few microseconds from the cache.
const maxCharts = 64

// chartsCache holds completed runs' charts by run id.
type chartsCache struct {
	mu sync.Mutex
	m  map[string]api.Charts
}

// charts is GET /api/runs/{id}/charts: what the results page draws, counted by the store
// (statuses, the score histogram, each dimension's accuracy, errors by code, a confusion
// matrix of each enum dimension in declaration order).
func (s *Server) charts(w http.ResponseWriter, r *http.Request) error {
	run, err := s.st.GetRun(r.PathValue("id"))
	if err != nil {
		return storeError(err)
	}
	if c, ok := s.chartsKept(run.ID); ok {
		return writeJSON(w, http.StatusOK, c)
	}
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		return storeError(fmt.Errorf("run %s's stored IR: %w", run.ID, err))
	}
	var enums []store.Enum
	for _, l := range enumDimensions(b) {
		enums = append(enums, store.Enum{Path: l.Path, Values: l.Field.Values})
	}
	c, err := s.st.Charts(run.ID, enums)
	if err != nil {
		return storeError(err)
	}
	if run.Status == store.Completed {
		s.keepCharts(run.ID, c)
	}
	return writeJSON(w, http.StatusOK, c)
}

func (s *Server) chartsKept(id string) (api.Charts, bool) {
	s.chartsC.mu.Lock()
	defer s.chartsC.mu.Unlock()
	c, ok := s.chartsC.m[id]
	return c, ok
}

func (s *Server) keepCharts(id string, c api.Charts) {
	s.chartsC.mu.Lock()
	defer s.chartsC.mu.Unlock()
	if s.chartsC.m == nil || len(s.chartsC.m) >= maxCharts {
		s.chartsC.m = map[string]api.Charts{}
	}
	s.chartsC.m[id] = c
}

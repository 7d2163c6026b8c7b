package server

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// maxCharts is how many completed runs' charts are kept; beyond it the cache starts again.
// A completed run's results never change, so its charts are counted once: at 1,000,000
// results the store takes 6 s (the confusion matrices read every valid result's JSON;
// BenchmarkExplore/charts-cold), the cache 0.1 ms. Requests for one run's charts at once
// wait for one count (flights), not one each.
const maxCharts = 64

// chartsCache holds completed runs' charts and top errors by run id.
type chartsCache struct {
	mu      sync.Mutex
	m       map[string]api.Charts
	flights map[string]chan struct{} // the count under way of each run: closed when done
	tops    map[string]api.CodeCount // completed runs' most frequent execution error (health.go)
}

// charts is GET /api/runs/{id}/charts: what the results page draws, counted by the store
// (statuses, the score histogram, each dimension's accuracy, errors by code, a confusion
// matrix of each enum dimension in declaration order).
func (s *Server) charts(w http.ResponseWriter, r *http.Request) error {
	run, err := s.st.GetRun(r.PathValue("id"))
	if err != nil {
		return storeError(err)
	}
	completed := run.Status == store.Completed
	if completed {
		c, ok, done, err := s.chartsKept(r.Context(), run.ID)
		if err != nil {
			return nil // the request ended while another counted them: no one to answer
		}
		if ok {
			return writeJSON(w, http.StatusOK, c)
		}
		defer done()
	}
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		return storeError(fmt.Errorf("run %s's stored IR: %w", run.ID, err))
	}
	c, err := s.st.Charts(run.ID, store.EnumsOf(b)) // the enums the run's writer counted
	if err != nil {
		return storeError(err)
	}
	if completed {
		s.keepCharts(run.ID, c)
	}
	return writeJSON(w, http.StatusOK, c)
}

// chartsKept returns the kept charts of completed run id; else it waits for a count of
// them under way, and when there is none it is the count: done ends it.
func (s *Server) chartsKept(ctx context.Context, id string) (c api.Charts, ok bool, done func(), err error) {
	cc := &s.chartsC
	for {
		cc.mu.Lock()
		if c, ok := cc.m[id]; ok {
			cc.mu.Unlock()
			return c, true, nil, nil
		}
		wait, counting := cc.flights[id]
		if !counting {
			if cc.flights == nil {
				cc.flights = map[string]chan struct{}{}
			}
			ch := make(chan struct{})
			cc.flights[id] = ch
			cc.mu.Unlock()
			return api.Charts{}, false, func() {
				cc.mu.Lock()
				delete(cc.flights, id)
				cc.mu.Unlock()
				close(ch)
			}, nil
		}
		cc.mu.Unlock()
		select { // then the kept charts, or (the count failed) a count of its own
		case <-wait:
		case <-ctx.Done():
			return api.Charts{}, false, nil, ctx.Err()
		}
	}
}

func (s *Server) keepCharts(id string, c api.Charts) {
	s.chartsC.mu.Lock()
	defer s.chartsC.mu.Unlock()
	if s.chartsC.m == nil || len(s.chartsC.m) >= maxCharts {
		s.chartsC.m = map[string]api.Charts{}
	}
	s.chartsC.m[id] = c
}

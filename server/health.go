package server

import (
	"github.com/benchy-eval/benchy/api"
)

// health says whether run v is a score or failed infrastructure: Failed when more than
// half the examples it has results of are execution errors, with the most frequent
// execution error (store.TopError, one read of the code index). With all, the top error
// is also named for a run that did not fail but has execution errors (a run's own page);
// a listing names it only for the runs that failed, so that it costs a query only per
// failed run. Nil before the run has results.
func (s *Server) health(v *api.Run, all bool) {
	if v.Summary == nil || v.Summary.Examples == 0 {
		return
	}
	h := &api.Health{Examples: v.Summary.Examples, Failed: api.FailedInfra(v.Summary.Examples, v.Summary.ExecutionErrors)}
	if v.Summary.ExecutionErrors > 0 && (all || h.Failed) {
		if top, err := s.topError(v.ID, v.Status == api.Completed); err != nil {
			s.logf("run %s: its most frequent error: %v", v.ID, err)
		} else {
			h.Code, h.Message, h.Count = top.Code, top.Message, top.Count
		}
	}
	v.Health = h
}

// topError is store.TopError of run id, kept for a completed run (whose results never
// change): counting a run of 1,000,000 execution errors by code reads as many index
// entries, and a run's page is polled.
func (s *Server) topError(id string, completed bool) (api.CodeCount, error) {
	cc := &s.chartsC
	if completed {
		cc.mu.Lock()
		top, ok := cc.tops[id]
		cc.mu.Unlock()
		if ok {
			return top, nil
		}
	}
	top, err := s.st.TopError(id)
	if err == nil && completed {
		cc.mu.Lock()
		if cc.tops == nil || len(cc.tops) >= maxCharts {
			cc.tops = map[string]api.CodeCount{}
		}
		cc.tops[id] = top
		cc.mu.Unlock()
	}
	return top, err
}

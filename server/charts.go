package server

import (
	"bytes"
	"context"
	"encoding/json"
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

// maxChartsBytes bounds the bytes of JSON the cache keeps in all, and maxKeptChart one
// run's: a run of many dimensions answers more (14,000 output fields, 1.4 MB), and such a
// run's charts are counted again at each view rather than kept, so 64 of them cannot hold
// the heap. A folded confusion matrix (api.FoldConfusion) is at most 21×21 cells, so a
// usual run's charts are a few KB.
const (
	maxChartsBytes = 16 << 20
	maxKeptChart   = 1 << 20
)

// chartsCache holds completed runs' charts (as the JSON answered) and top errors by run id.
type chartsCache struct {
	mu      sync.Mutex
	m       map[string][]byte
	bytes   int                      // the JSON m holds
	flights map[string]chan struct{} // the count under way of each run: closed when done
	tops    map[string]api.CodeCount // completed runs' most frequent execution error (health.go)
}

// charts is GET /api/runs/{id}/charts: what the results page draws, counted by the store
// (statuses, the score histogram, each dimension's accuracy, errors by code, a confusion
// matrix of each enum dimension in declaration order, sparse and folded to its
// api.MaxConfusionLabels most frequent members and "other").
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
			return writeJSON(w, http.StatusOK, json.RawMessage(c))
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
	body, err := chartsJSON(c)
	if err != nil {
		return internalError(err)
	}
	if completed {
		s.keepCharts(run.ID, body)
	}
	return writeJSON(w, http.StatusOK, json.RawMessage(body))
}

// chartsKept returns the kept charts of completed run id; else it waits for a count of
// them under way, and when there is none it is the count: done ends it.
func (s *Server) chartsKept(ctx context.Context, id string) (c []byte, ok bool, done func(), err error) {
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
			return nil, false, func() {
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
			return nil, false, nil, ctx.Err()
		}
	}
}

// keepCharts keeps body, the charts of completed run id, unless it is over maxKeptChart;
// past maxCharts runs or maxChartsBytes the cache starts again.
func (s *Server) keepCharts(id string, body []byte) {
	if len(body) > maxKeptChart {
		return
	}
	cc := &s.chartsC
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.m == nil || len(cc.m) >= maxCharts || cc.bytes+len(body) > maxChartsBytes {
		cc.m, cc.bytes = map[string][]byte{}, 0
	}
	cc.bytes += len(body) - len(cc.m[id])
	cc.m[id] = body
}

// chartsJSON is c as writeJSON sends it (no HTML escapes), without its last newline.
func chartsJSON(c api.Charts) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

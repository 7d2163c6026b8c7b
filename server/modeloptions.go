package server

import (
	"fmt"
	"math"
	"net/http"
	"slices"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	ws "github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/store"
)

// checkModelOptions refuses a request's model options that benchy run's flags would
// refuse: --record-requests, --cache and the budget, each named with what it allows.
func checkModelOptions(req api.StartRun) error {
	switch {
	case req.RecordRequests < api.RecordNone:
		return refuse(http.StatusBadRequest, api.BadRequest, "record_requests is %d: want 0 (the first 20 examples), a count N > 0 (the first N), %d (every example) or %d (none)", req.RecordRequests, api.RecordAll, api.RecordNone)
	case req.Cache != "" && !slices.Contains(api.CacheModes, req.Cache):
		return refuse(http.StatusBadRequest, api.BadRequest, "cache is %q: want off, use, refresh or only (or leave it out for each provider's cache: in the runtime file)", req.Cache)
	case req.MaxCost < 0 || math.IsNaN(req.MaxCost) || math.IsInf(req.MaxCost, 0):
		return refuse(http.StatusBadRequest, api.BadRequest, "max_cost is %v: want US dollars above 0, or 0 (no budget)", req.MaxCost)
	case req.MaxTokens < 0:
		return refuse(http.StatusBadRequest, api.BadRequest, "max_tokens is %d: want tokens above 0, or 0 (no budget)", req.MaxTokens)
	case req.MaxCost > 0 || req.MaxTokens > 0:
		return refuse(http.StatusBadRequest, api.BadRequest, "max_cost and max_tokens are not run by this server yet: leave them out")
	}
	return nil
}

// jobOptions are the execution options of a run the request starts.
func jobOptions(req api.StartRun) ws.Options {
	return ws.Options{Concurrency: workers(req.Concurrency), Limit: req.Limit, RecordRequests: req.RecordRequests}
}

// storeOptions are what the run records of the request, so that a resume runs as it began.
func storeOptions(req api.StartRun) store.Options {
	return store.Options{Limit: req.Limit, Concurrency: req.Concurrency, RecordRequests: req.RecordRequests}
}

// invalidPrompt is the answer to a run whose prompt file is a template with errors (an
// unknown placeholder, say): 400 with their diagnostics, positioned in the prompt file
// (relative to the workspace), as a benchmark that does not compile is answered.
func (s *Server) invalidPrompt(benchmark string, ds diag.List) error {
	out := make([]api.Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = wireDiagnostic(*inWorkspace(&d, s.dir))
	}
	msg := fmt.Sprintf("the prompt file of %s has %d problem(s); fix them before running it", benchmark, len(ds))
	e := refuse(http.StatusBadRequest, api.InvalidBenchmark, "%s", msg)
	e.body = api.InvalidBenchmarkError{Error: api.Error{Error: api.ErrorDetail{Code: api.InvalidBenchmark, Message: msg}}, Diagnostics: out}
	return e
}

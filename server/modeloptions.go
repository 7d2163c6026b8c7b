package server

import (
	"fmt"
	"math"
	"net/http"
	"slices"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
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
	}
	return nil
}

// checkBudget refuses, with 400 bad_request naming why, a budget the plan's AI-system
// cannot keep (engine.CheckBudget: a cost budget for a model with no prices, an adapter
// that cannot estimate, replies with no output bound), before the run is recorded: benchy
// run's refusal, so that no aborted run is left in the store.
func checkBudget(plan *ws.Plan, req api.StartRun) error {
	b := jobOptions(storeOptions(req)).Budget
	if b == nil || plan.Factory == nil {
		return nil
	}
	ad, err := plan.Factory()
	if err != nil {
		return refuse(http.StatusBadRequest, api.BadRequest, "the budget cannot be checked: the AI-system's adapter does not start: %v", err)
	}
	defer ad.Close()
	if a := engine.CheckBudget(b, ad); a != nil {
		return refuse(http.StatusBadRequest, api.BadRequest, "%s", a.Diagnostic.Message)
	}
	return nil
}

// storeOptions are what the run records of the request, so that a resume runs as it began:
// its budget and cache mode too.
func storeOptions(req api.StartRun) store.Options {
	return store.Options{Limit: req.Limit, Concurrency: req.Concurrency, RecordRequests: req.RecordRequests,
		MaxCost: req.MaxCost, MaxTokens: req.MaxTokens, Cache: req.Cache}
}

// jobOptions are the execution options of a run with stored options o: a new run's
// (storeOptions) or a resumed one's.
func jobOptions(o store.Options) ws.Options {
	opts := ws.Options{Concurrency: workers(o.Concurrency), Limit: o.Limit, RecordRequests: o.RecordRequests}
	if o.MaxCost > 0 || o.MaxTokens > 0 {
		opts.Budget = &engine.Budget{MaxCostUSD: o.MaxCost, MaxTokens: o.MaxTokens}
	}
	return opts
}

// readResume reads the optional body of POST /api/runs/{id}/resume: none, or {}, keeps
// the run's stored budget; a larger max_cost or max_tokens raises it, one the run has none
// of sets it (store.Options.Resumed); a smaller one is refused with 400 bad_request, as is
// a value POST /api/runs refuses.
func readResume(r *http.Request, run store.Run) (store.Options, error) {
	var req api.Resume
	if err := readOptionalJSON(r, &req); err != nil {
		return run.Options, err
	}
	if err := checkModelOptions(api.StartRun{MaxCost: req.MaxCost, MaxTokens: req.MaxTokens}); err != nil {
		return run.Options, err
	}
	o, err := run.Options.Resumed(req.MaxCost, req.MaxTokens)
	if err != nil {
		return o, refuse(http.StatusBadRequest, api.BadRequest, "run %s: %s", run.ID, err.Error())
	}
	return o, nil
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

package provider

import (
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// Estimate is what example input's request may cost, rendered as Invoke renders it but not
// sent (engine.Estimator): a budget reserves it before the request starts, and benchy run
// --estimate adds it up. The tokens are estimateTokens', a PDF's by its pages
// (pdfBounds; Unbounded says why when they cannot be counted); the costs are at the
// model's prices (none without them). With the response cache in use or only, Cached says the
// cache holds the reply, which costs nothing.
func (a *modelAdapter) Estimate(input map[string]any) (engine.Estimate, error) {
	task, parts, err := a.render(input)
	if err != nil {
		return engine.Estimate{}, engine.ExecutionError(diag.AdapterError, "%v", err)
	}
	body, err := a.w.body(task, a.c.cfg.StructuredOutput, parts)
	if err != nil {
		return engine.Estimate{}, err
	}
	t := estimateTokens(body, task.System.Parameters)
	unbounded := a.pdfBounds(body, &t)
	e := engine.Estimate{ExpectedInputTokens: t.Expected, InputTokens: t.InputBound, OutputTokens: t.OutputBound, Unbounded: unbounded}
	if p := a.c.cfg.price(a.task.System.Model); p != nil {
		low := float64(t.Expected) * p.InputPerMTok / 1e6
		high := float64(t.InputBound)*p.InputPerMTok/1e6 + float64(t.OutputBound)*p.OutputPerMTok/1e6
		e.MinCostUSD, e.MaxCostUSD = &low, &high
	}
	if mode := a.c.cacheMode(); mode == CacheUse || mode == CacheOnly {
		if key, f := a.c.cacheKey(a.task.System.Model, body); f == nil {
			_, ok, err := a.c.cfg.Cache.Get(key)
			e.Cached = ok && err == nil
		}
	}
	return e, nil
}

// Priced reports whether the runtime file gives the model's prices: a cost budget needs
// them.
func (a *modelAdapter) Priced() bool { return a.c.cfg.price(a.task.System.Model) != nil }

// OutputUnbounded says why a reply may have no output bound (engine.Unbounded), for a
// budget to refuse the run at setup: an OpenAI request without max_completion_tokens or
// max_tokens may answer up to the model's own limit, which no estimate knows. Anthropic's
// requests always send max_tokens (the API requires it; anthropicMaxTokens when the
// parameters give none), a real bound.
func (a *modelAdapter) OutputUnbounded() string {
	if _, ok := a.w.(openAI); !ok {
		return ""
	}
	for _, k := range []string{"max_completion_tokens", "max_tokens"} {
		if n, ok := intParam(a.task.System.Parameters[k]); ok && n >= 0 {
			return ""
		}
	}
	return "a budget needs each reply bounded: set max_completion_tokens (or max_tokens) in ai-system.parameters (with --model, the benchmark's own model system's; or give the system by --system-file with them)"
}

// unreported is the usage of a reply that says nothing of its tokens, or what cannot be
// (a negative count): no counts, no cost, charged its bound by a budget (engine.Usage's
// Unreported).
func unreported() *engine.Usage { return &engine.Usage{Unreported: true} }

// reported says every count is given and not negative: a reply's counts are taken only
// then, so that a count of -1000000 earns no budget credit and no negative cost.
func reported(counts ...*int) bool {
	for _, n := range counts {
		if n == nil || *n < 0 {
			return false
		}
	}
	return true
}

// clampUsage is a reported count within engine.MaxBound: an over-reported count is kept (it
// was billed) but never wraps a sum.
func clampUsage(n int) int { return min(max(n, 0), engine.MaxBound) }

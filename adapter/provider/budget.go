package provider

import (
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// Estimate is what example input's request may cost, rendered as Invoke renders it but not
// sent (engine.Estimator): a budget reserves it before the request starts, and benchy run
// --estimate adds it up. The tokens are estimateTokens'; the costs are at the model's
// prices (none without them). With the response cache in use or only, Cached says the
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
	e := engine.Estimate{ExpectedInputTokens: t.Expected, InputTokens: t.InputBound, OutputTokens: t.OutputBound}
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

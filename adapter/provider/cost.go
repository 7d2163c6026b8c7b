package provider

import "github.com/benchy-eval/benchy/engine"

// Price is what a model's tokens cost, in US dollars per million tokens, as the runtime
// file's prices: gives it under a provider.
type Price struct {
	InputPerMTok  float64
	OutputPerMTok float64
	// CachedInputPerMTok prices the input tokens the provider read from its own prompt
	// cache (OpenAI's prompt_tokens_details.cached_tokens, Anthropic's
	// cache_read_input_tokens); nil: they cost what other input tokens cost.
	CachedInputPerMTok *float64
}

// price is the price of model under c, nil when the runtime file gives none: then no
// example has a cost_usd, since an unknown cost is not a cost of 0.
func (c Config) price(model string) *Price {
	p, ok := c.Prices[model]
	if !ok {
		return nil
	}
	return &p
}

// tokens are the counts one reply reports, split as prices split them.
type tokens struct {
	input, cachedInput, output int // input excludes cachedInput
}

// setCost sets u.CostUSD from the reply's token counts at price p: tokens × price / 1e6 per
// kind, summed, not rounded (the summary prints 4 decimals). Nothing with no price or no
// usage.
func setCost(u *engine.Usage, p *Price, t tokens) {
	if u == nil || p == nil {
		return
	}
	cached := p.InputPerMTok
	if p.CachedInputPerMTok != nil {
		cached = *p.CachedInputPerMTok
	}
	c := float64(t.input)*p.InputPerMTok/1e6 + float64(t.cachedInput)*cached/1e6 + float64(t.output)*p.OutputPerMTok/1e6
	u.CostUSD = &c
}

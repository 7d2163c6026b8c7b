package cli

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestNextBudget: the budget a stop suggests admits the next request with room, and is
// a readable amount; a request larger than the whole budget is said to be, with max_tokens
// to set when its output is most of it. The case the review found: replies bounded at 4096
// output tokens ($0.0025 a request) and a budget of $0.0003, which doubling never admits.
func TestNextBudget(t *testing.T) {
	usd := func(x float64) *float64 { return &x }
	rows := []struct {
		name  string
		be    engine.BudgetError
		flags string
		say   []string
	}{
		{"one request passes the budget", engine.BudgetError{Budget: engine.Budget{MaxCostUSD: 0.0003}, Total: 20,
			Need: engine.Estimate{InputTokens: 200, OutputTokens: 4096, MaxCostUSD: usd(0.0025)}},
			" --max-cost 0.005", []string{"spent $0.0000; the next request may cost up to $0.0025, 4296 tokens (200 input, 4096 output at most)",
				"the next request alone may cost more than the whole budget", "set max_tokens (max_completion_tokens for OpenAI) below 4096"}},
		{"doubling is enough", engine.BudgetError{Budget: engine.Budget{MaxTokens: 1000}, Index: 6, Total: 20, SpentTokens: 900,
			Need: engine.Estimate{InputTokens: 100, OutputTokens: 50}},
			" --max-tokens 2000", []string{"spent 900 tokens; the next request may cost up to 150 tokens"}},
		{"its input passes the token budget: spent and twice the next, rounded up", engine.BudgetError{Budget: engine.Budget{MaxTokens: 1000, MaxCostUSD: 0.01}, Index: 6, Total: 20, SpentTokens: 990, SpentCost: 0.00987,
			Need: engine.Estimate{InputTokens: 5000, OutputTokens: 1271, MaxCostUSD: usd(0.00531)}},
			" --max-cost 0.021 --max-tokens 14000", []string{"spent $0.00987 and 990 tokens; the next request may cost up to $0.00531", "mostly its input"}},
	}
	for _, r := range rows {
		flags, lines := nextBudget(&r.be)
		text := strings.Join(lines, "\n")
		if flags != r.flags {
			t.Errorf("%s: flags %q, want %q", r.name, flags, r.flags)
		}
		for _, s := range r.say {
			if !strings.Contains(text, s) {
				t.Errorf("%s: no %q in\n%s", r.name, s, text)
			}
		}
		if !strings.Contains(r.name, "passes") && strings.Contains(text, "alone") {
			t.Errorf("%s: says one request passes the budget:\n%s", r.name, text)
		}
	}
	for x, want := range map[float64]string{0: "$0.0000", 0.0123456: "$0.0123", 0.00987: "$0.00987", 0.000149: "$0.000149", 0.0001999: "$0.0002", 0.00250: "$0.0025"} {
		if got := dollars(x); got != want {
			t.Errorf("dollars(%v) = %s, want %s", x, got, want)
		}
	}
	for x, want := range map[float64]float64{0.0053: 0.0053, 0.00531: 0.0054, 16543: 17000, 2000: 2000, 0.005: 0.005, 99.1: 100} {
		if got := readable(x); got != want {
			t.Errorf("readable(%v) = %v, want %v", x, got, want)
		}
	}
}

package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
)

// estimateTotals add up the estimates of a run's requests.
type estimateTotals struct {
	requests, cached, failed int
	expected, input, output  int
	minCost, maxCost         float64
	priced                   bool
}

// runEstimate is benchy run --estimate: every request of the run (the first limit
// examples; all when limit is 0) rendered as the plan's adapter renders it, none sent, and
// what they may cost printed on stdout. Requests the response cache answers (--cache use
// or only) are counted apart: they cost nothing. No run is stored. A row the run would
// refuse before its first request (engine.InputChecker: request_too_large) is refused here
// too, at its line.
func runEstimate(e *env, plan *workspace.Plan, limit int) int {
	ad, err := plan.Factory()
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy run --estimate: cannot start the AI-system's adapter: %v\n", err)
		return ExitFail
	}
	defer ad.Close()
	est, ok := ad.(engine.Estimator)
	if !ok {
		fmt.Fprintf(e.stderr, "benchy run --estimate: %s is not a model behind a provider: its requests cannot be estimated\n", plan.System.Label)
		return ExitFail
	}
	t := estimateTotals{priced: est.Priced()}
	check, _ := ad.(engine.InputChecker)
	var firstErr error
	_, err = engine.CheckedInputs(context.Background(), plan.IR, plan.BenchmarkDir, plan.Paths, limit, check, func(index int, input map[string]any) error {
		t.requests++
		x, err := est.Estimate(input)
		switch {
		case err != nil:
			t.failed++
			if firstErr == nil {
				firstErr = fmt.Errorf("example %d: %v", index, err)
			}
		case x.Cached:
			t.cached++
		default:
			t.expected += x.ExpectedInputTokens
			t.input += x.InputTokens
			t.output += x.OutputTokens
			if x.MinCostUSD != nil && x.MaxCostUSD != nil {
				t.minCost += *x.MinCostUSD
				t.maxCost += *x.MaxCostUSD
			}
		}
		return nil
	})
	if err != nil {
		var a *engine.Abort
		if errors.As(err, &a) {
			fmt.Fprintln(e.stderr, a.Error())
		} else {
			fmt.Fprintf(e.stderr, "benchy run --estimate: %v\n", err)
		}
		return ExitFail
	}
	t.print(e, plan)
	if firstErr != nil {
		fmt.Fprintf(e.stderr, "benchy run --estimate: %d requests cannot be rendered (the run would fail them); the first: %v\n", t.failed, firstErr)
	}
	return ExitOK
}

// print writes the totals: one line each for the requests, the input tokens, the output
// tokens and the cost range (min: the expected input, no output; max: both bounds).
func (t estimateTotals) print(e *env, plan *workspace.Plan) {
	w := e.stdout
	model := plan.IR.AISystem.Model
	fmt.Fprintf(w, "estimate for %s: %s, none sent\n", plan.System.Label, count(t.requests, "request"))
	if t.cached > 0 {
		fmt.Fprintf(w, "response cache: answers %d of them, which cost nothing and are not counted below\n", t.cached)
	}
	fmt.Fprintf(w, "input tokens: %d expected, at most %d\n", t.expected, t.input)
	fmt.Fprintf(w, "output tokens: at most %d\n", t.output)
	if !t.priced {
		fmt.Fprintf(w, "cost: no prices for %s (give prices: for it under its provider in the runtime file)\n", model)
		return
	}
	fmt.Fprintf(w, "cost: $%.4f – $%.4f at the prices of %s\n", t.minCost, t.maxCost, model)
}

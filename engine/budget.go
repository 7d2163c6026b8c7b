package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/benchy-eval/benchy/diag"
)

// Budget caps what a run may spend on a model: its cost in US dollars at the model's
// prices, and its tokens (input and output). Zero leaves that side unbounded. The budget is
// the whole run's: a resumed run counts what its earlier part spent (the reused results'
// usage), so that resuming with a larger budget spends only the difference.
type Budget struct {
	MaxCostUSD float64
	MaxTokens  int
}

func (b *Budget) active() bool { return b != nil && (b.MaxCostUSD > 0 || b.MaxTokens > 0) }

// Estimate is what one request may cost, worked out from its rendering before it is sent.
type Estimate struct {
	ExpectedInputTokens int // a guess, for an estimate's low end
	InputTokens         int // at most
	OutputTokens        int // at most
	// MinCostUSD (the expected input, no output) and MaxCostUSD (the bounds) at the model's
	// prices; nil when it has none.
	MinCostUSD, MaxCostUSD *float64
	// Cached says the response cache holds the reply: the request is not sent and costs
	// nothing.
	Cached bool
	// Unbounded says why the bounds above do not hold (a PDF whose pages cannot be
	// counted), "" when they do: a run with a budget refuses the request, before any is
	// sent (checkBounds); an estimate without one still adds the tokens up.
	Unbounded string
}

// Estimator is an adapter that can tell what a request will cost before sending it (a
// model provider's): a run with a Budget needs one. Priced reports whether the model has
// prices, without which no cost can be bounded.
type Estimator interface {
	Estimate(input map[string]any) (Estimate, error)
	Priced() bool
}

// ErrBudget is what a *BudgetError is (errors.Is), beside ErrStopped.
var ErrBudget = errors.New("the budget would be exceeded")

// BudgetError ends a run whose next request could pass its budget: the examples before
// Index are done and written, none from it on was started. Run returns it with the report
// of the examples done (Report.Stopped says why).
type BudgetError struct {
	Budget      Budget
	Index       int // the example refused, the first not done
	Total       int
	SpentTokens int     // by the examples done, as their providers reported
	SpentCost   float64 // at the model's prices, cache replays free
	Need        Estimate
}

func (e *BudgetError) Error() string {
	var limits []string
	if e.Budget.MaxCostUSD > 0 {
		limits = append(limits, fmt.Sprintf("$%s (spent $%.4f)", costText(e.Budget.MaxCostUSD), e.SpentCost))
	}
	if e.Budget.MaxTokens > 0 {
		limits = append(limits, fmt.Sprintf("%d tokens (spent %d)", e.Budget.MaxTokens, e.SpentTokens))
	}
	need := fmt.Sprintf("up to %d tokens", e.Need.InputTokens+e.Need.OutputTokens)
	if e.Need.MaxCostUSD != nil {
		need += fmt.Sprintf(", $%.4f", *e.Need.MaxCostUSD)
	}
	return fmt.Sprintf("the budget of %s would be exceeded by the next request (example %d, %s); %d of %d examples done",
		strings.Join(limits, " and "), e.Index, need, e.Index, e.Total)
}

func (e *BudgetError) Is(target error) bool { return target == ErrBudget || target == ErrStopped }

// costText is a dollar amount as given, without trailing zeros.
func costText(c float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.6f", c), "0"), ".")
}

// Stopped says why a run that returned its report ended before its last example.
type Stopped struct {
	Reason  string `json:"reason"` // "budget"
	Message string `json:"message"`
	Done    int    `json:"done"`
	Total   int    `json:"total"`
}

// ReasonBudget is Stopped.Reason, and the store's runs.reason, of a run its budget stopped.
const ReasonBudget = "budget"

// ledger keeps a run's budget: what the examples done spent, and what the ones in flight
// may spend at most (their holds). Dispatch reserves an example's bound before it goes to
// a worker and refuses when spent + held + bound would pass the budget; each further
// attempt of its request (a retry) reserves the bound again (Meter), and an attempt that
// failed is charged its bound when it may have been billed, released when it cannot have
// been; the worker settles the hold with what the example did spend. A refusal while
// examples in flight may free room waits for them; with none that may, it is final.
type ledger struct {
	limit Budget
	mu    sync.Mutex
	spent cost
	held  cost
	holds map[int]*hold
	// retrying counts the holds whose example waits in Meter.Again for room: they free
	// none, so that nobody waits for them.
	retrying int
	// settled is closed, and replaced, each time the room may have changed or a waiter
	// may have to give up (a hold settled, charged or released, an example that began to
	// wait for a retry).
	settled chan struct{}
}

// hold is one example's part of a ledger while it is in flight.
type hold struct {
	bound    cost // what one attempt of its request may cost: reserved for each
	held     cost // the attempt in flight's bound; nothing between attempts
	charged  cost // the bounds of its failed attempts that may have been billed
	retrying bool // it waits in Meter.Again
}

type cost struct {
	tokens int
	usd    float64
}

func (c cost) plus(d cost) cost { return cost{c.tokens + d.tokens, c.usd + d.usd} }

func newLedger(b Budget) *ledger {
	return &ledger{limit: b, holds: map[int]*hold{}, settled: make(chan struct{})}
}

func (l *ledger) fits(c cost) bool {
	if l.limit.MaxTokens > 0 && l.spent.tokens+l.held.tokens+c.tokens > l.limit.MaxTokens {
		return false
	}
	if l.limit.MaxCostUSD > 0 && l.spent.usd+l.held.usd+c.usd > l.limit.MaxCostUSD {
		return false
	}
	return true
}

// MaxBound clamps the tokens of a bound and of a reported usage, so that no sum wraps: a
// request's parameters may ask for 9223372036854775807 output tokens, and a provider may
// report anything. 1<<40 tokens is beyond any model's context and any budget.
const MaxBound = 1 << 40

// bound is what the ledger holds for a request of estimate e: nothing for a cache replay.
func bound(e Estimate) cost {
	if e.Cached {
		return cost{}
	}
	c := cost{tokens: clampTokens(e.InputTokens) + clampTokens(e.OutputTokens)}
	if e.MaxCostUSD != nil && *e.MaxCostUSD > 0 && !math.IsNaN(*e.MaxCostUSD) {
		c.usd = *e.MaxCostUSD
	}
	return c
}

// clampTokens is n within [0, MaxBound].
func clampTokens(n int) int { return min(max(n, 0), MaxBound) }

// changed wakes every waiter: the room, or who may free it, changed. Called with l.mu held.
func (l *ledger) changed() {
	close(l.settled)
	l.settled = make(chan struct{})
}

// freeing is how many examples in flight, other than except, may free room: every hold
// but those waiting for a retry, which hold nothing. Called with l.mu held.
func (l *ledger) freeing(except *hold) int {
	n := len(l.holds) - l.retrying
	if except != nil && !except.retrying {
		n--
	}
	return n
}

// reserve holds c for example index when it fits, waiting while examples in flight may
// free room; false when it does not fit with none that may, or when ctx ends or stop
// closes (then waited is true).
func (l *ledger) reserve(ctx context.Context, stop <-chan struct{}, index int, c cost) (ok, waited bool) {
	for {
		l.mu.Lock()
		if l.fits(c) {
			l.holds[index] = &hold{bound: c, held: c}
			l.held = l.held.plus(c)
			l.mu.Unlock()
			return true, false
		}
		if l.freeing(nil) == 0 {
			l.mu.Unlock()
			return false, false
		}
		ch := l.settled
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false, true
		case <-stop:
			return false, true
		}
	}
}

// settle replaces example index's hold by what its result spent (spentBy), beside the
// bounds its failed attempts were charged. A result charged more than it reported (a
// bound for an attempt that did not say what it spent, or failed attempts before it) keeps
// the whole charge in its usage (BudgetTokens, BudgetCostUSD), so that a resumed run
// counts it again.
func (l *ledger) settle(index int, res *ExampleResult) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.holds[index]
	if h == nil {
		h = &hold{}
	}
	delete(l.holds, index)
	l.held.tokens -= h.held.tokens
	l.held.usd -= h.held.usd
	s, charged := spentBy(res, h.held)
	if all := s.plus(h.charged); (charged || h.charged != cost{}) && (all.tokens > 0 || all.usd > 0) {
		if res.Usage == nil {
			res.Usage = &Usage{}
		}
		res.Usage.BudgetTokens = clampTokens(all.tokens)
		if all.usd > 0 {
			usd := all.usd
			res.Usage.BudgetCostUSD = &usd
		}
	}
	l.spent = l.spent.plus(s)
	l.changed()
}

// spend counts a reused result's spending (a resumed run's earlier part).
func (l *ledger) spend(res *ExampleResult) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, _ := spentBy(res, cost{})
	l.spent = l.spent.plus(s)
}

func (l *ledger) total() cost {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.spent
}

// spentBy is what a result spent, and whether that is its hold h rather than what it
// reported: nothing for a reply from the response cache (usage.cached); the tokens and cost
// its provider reported; what an earlier part of the run charged it (a reused result's
// BudgetTokens, BudgetCostUSD); and h for a timeout, which the provider may bill without
// saying so, for a reply whose usage is unreported (a provider that leaves usage out must
// not spend without limit) and for a result with no usage at all.
func spentBy(res *ExampleResult, h cost) (cost, bool) {
	u := res.Usage
	switch {
	case u != nil && u.Cached != nil && *u.Cached:
		return cost{}, false
	case u != nil && (u.BudgetTokens > 0 || u.BudgetCostUSD != nil):
		c := cost{tokens: clampTokens(u.BudgetTokens)}
		if u.BudgetCostUSD != nil && *u.BudgetCostUSD > 0 {
			c.usd = *u.BudgetCostUSD
		}
		return c, true
	case res.Status == StatusExecutionError && res.Error != nil && res.Error.Code == diag.Timeout:
		return h, true
	case u == nil || u.Unreported || u.InputTokens < 0 || u.OutputTokens < 0 || u.CostUSD != nil && !(*u.CostUSD >= 0):
		return h, true
	}
	c := cost{tokens: clampTokens(u.InputTokens) + clampTokens(u.OutputTokens)}
	if u.CostUSD != nil {
		c.usd = *u.CostUSD
	}
	return c, false
}

// Unbounded is an Estimator whose replies may have no output bound: OutputUnbounded says
// why ("" when each reply is bounded). A budget cannot be kept without the bound, so that
// a run with one is refused at setup.
type Unbounded interface {
	OutputUnbounded() string
}

// CheckBudget is why a run with budget b cannot keep it with adapter ad, or nil: what Run
// refuses at setup, for benchy run and the server to refuse before a run is recorded.
func CheckBudget(b *Budget, ad Adapter) *Abort {
	if !b.active() {
		return nil
	}
	_, a := budgetSetup(b, ad)
	return a
}

// budgetSetup is the setup abort of a budget the AI-system cannot keep: its adapter cannot
// estimate a request, a cost budget for a model with no prices, or replies with no output
// bound.
func budgetSetup(b *Budget, ad Adapter) (Estimator, *Abort) {
	fail := func(format string, args ...any) (Estimator, *Abort) {
		return nil, &Abort{Diagnostic: diag.Diagnostic{Phase: PhaseSetup, Code: diag.BudgetUnusable, Path: []string{},
			Message: fmt.Sprintf(format, args...), Line: 1, Column: 1}}
	}
	est, ok := ad.(Estimator)
	switch {
	case !ok:
		return fail("a budget (--max-cost, --max-tokens) needs an AI-system whose requests can be estimated before they are sent (a model provider's); this AI-system's adapter cannot")
	case b.MaxCostUSD > 0 && !est.Priced():
		return fail("a cost budget (--max-cost) needs the model's prices: give prices: for it under its provider in the runtime file, or use --max-tokens")
	}
	if u, ok := ad.(Unbounded); ok {
		if why := u.OutputUnbounded(); why != "" {
			return fail("%s", why)
		}
	}
	return est, nil
}

package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// budgetAdapter is a fake model that can estimate its requests: example i's request takes
// at most bound(i) tokens, its reply reports use(i) of them (cached ones from the response
// cache, at no cost), after a random time. It checks, as each request starts, that what was
// spent plus the bounds of the requests in flight is within the budget.
type budgetAdapter struct {
	bench   *budgetBench
	priced  bool
	noCache bool // Estimate does not tell a cache hit: it is found only in the reply
}

// budgetBench is one run's fake model, shared by its adapters.
type budgetBench struct {
	limit          Budget
	bound, use     func(i int) int
	cached         func(i int) bool
	usd            float64 // per token
	mu             sync.Mutex
	spent, flight  cost
	exceeded       string
	calls, maxLive atomic.Int64
	live           atomic.Int64
	// report, when set, is the usage a reply reports of using used tokens at cost c, in
	// place of the true one: a provider that leaves usage out, or lies.
	report func(used int, c float64) *Usage
}

func (b *budgetBench) costOf(tokens int) float64 { return float64(tokens) * b.usd }

func (a *budgetAdapter) Estimate(input map[string]any) (Estimate, error) {
	i := input["i"].(int)
	n := a.bench.bound(i)
	c := a.bench.costOf(n)
	return Estimate{InputTokens: n - 10, OutputTokens: 10, ExpectedInputTokens: n / 4, MaxCostUSD: &c, Cached: !a.noCache && a.bench.cached(i)}, nil
}

func (a *budgetAdapter) Priced() bool { return a.priced }

func (a *budgetAdapter) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	b := a.bench
	b.calls.Add(1)
	if l := b.live.Add(1); l > b.maxLive.Load() {
		b.maxLive.Store(l)
	}
	defer b.live.Add(-1)
	hit := b.cached(index)
	hold := cost{b.bound(index), b.costOf(b.bound(index))}
	if hit {
		hold = cost{}
	}
	b.mu.Lock()
	b.flight.tokens += hold.tokens
	b.flight.usd += hold.usd
	if b.limit.MaxTokens > 0 && b.spent.tokens+b.flight.tokens > b.limit.MaxTokens ||
		b.limit.MaxCostUSD > 0 && b.spent.usd+b.flight.usd > b.limit.MaxCostUSD+1e-12 {
		b.exceeded = "spent and in flight pass the budget"
	}
	b.mu.Unlock()
	time.Sleep(time.Duration(rand.IntN(800)) * time.Microsecond)
	used := b.use(index)
	c := b.costOf(used)
	b.mu.Lock()
	b.flight.tokens -= hold.tokens
	b.flight.usd -= hold.usd
	if !hit {
		b.spent.tokens += used
		b.spent.usd += c
	}
	b.mu.Unlock()
	if b.report != nil {
		return &Answer{Output: map[string]any{"a": "x"}, Usage: b.report(used, c)}, nil
	}
	return &Answer{Output: map[string]any{"a": "x"}, Usage: &Usage{InputTokens: used - used/3, OutputTokens: used / 3, CostUSD: &c, Cached: &hit}}, nil
}

func (a *budgetAdapter) Close() error { return nil }

// TestBudget: with 64 workers and replies that take random time, no request starts that
// could pass the budget counting those in flight; the run stops at the first example
// whose bound does not fit beside what the examples before it spent (cache hits free),
// writes exactly the examples before it, and ends with a *BudgetError and their report.
func TestBudget(t *testing.T) {
	const n = 400
	cases := []struct {
		name    string
		limit   Budget
		bound   func(i int) int
		use     func(i int) int
		cached  func(i int) bool
		noCache bool
	}{
		{name: "tokens; every reply uses its whole bound: stops at 1000/150 = 6 examples",
			limit: Budget{MaxTokens: 1000}, bound: func(int) int { return 150 }, use: func(int) int { return 150 }},
		{name: "tokens; replies use up to their bound, at random",
			limit: Budget{MaxTokens: 20000}, bound: func(i int) int { return 100 + i%7*10 }, use: func(i int) int { return 1 + (i*7919)%(100+i%7*10) }},
		{name: "cost; replies use up to their bound, at random",
			limit: Budget{MaxCostUSD: 0.015}, bound: func(i int) int { return 100 + i%5*20 }, use: func(i int) int { return 1 + (i*104729)%(100+i%5*20) }},
		{name: "cost and tokens: the tighter one stops it",
			limit: Budget{MaxCostUSD: 1, MaxTokens: 5000}, bound: func(int) int { return 120 }, use: func(i int) int { return 60 + i%60 }},
		{name: "cache hits the estimate knows of hold nothing and cost nothing",
			limit: Budget{MaxTokens: 3000}, bound: func(int) int { return 200 }, use: func(int) int { return 200 }, cached: func(i int) bool { return i%2 == 0 }},
		{name: "cache hits found only in the reply cost nothing",
			limit: Budget{MaxTokens: 3000}, bound: func(int) int { return 200 }, use: func(int) int { return 200 }, cached: func(i int) bool { return i%2 == 0 }, noCache: true},
		{name: "a budget larger than the run: it completes",
			limit: Budget{MaxTokens: n * 200}, bound: func(int) int { return 150 }, use: func(int) int { return 150 }},
		{name: "the first request alone passes the budget: nothing starts",
			limit: Budget{MaxTokens: 100}, bound: func(int) int { return 150 }, use: func(int) int { return 1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cached == nil {
				tc.cached = func(int) bool { return false }
			}
			bench := &budgetBench{limit: tc.limit, bound: tc.bound, use: tc.use, cached: tc.cached, usd: 2e-6}
			// The stop the rule gives: the first example whose bound (0 for a hit the
			// estimate knows of) does not fit beside the use of the hits-excluded examples
			// before it.
			want, spent := n, cost{}
			for i := range n {
				b := cost{tc.bound(i), bench.costOf(tc.bound(i))}
				if tc.cached(i) && !tc.noCache {
					b = cost{}
				}
				if tc.limit.MaxTokens > 0 && spent.tokens+b.tokens > tc.limit.MaxTokens || tc.limit.MaxCostUSD > 0 && spent.usd+b.usd > tc.limit.MaxCostUSD {
					want = i
					break
				}
				if !tc.cached(i) {
					spent.tokens += tc.use(i)
					spent.usd += bench.costOf(tc.use(i))
				}
			}
			rep, results, err := budgetRun(t, bench, tc.noCache, tc.limit, n, nil)
			if bench.exceeded != "" {
				t.Fatal(bench.exceeded)
			}
			if want == n {
				if err != nil || rep.Stopped != nil {
					t.Fatalf("a run within its budget ended with %v, stopped %+v", err, rep.Stopped)
				}
			} else {
				var be *BudgetError
				if !errors.As(err, &be) || !errors.Is(err, ErrStopped) || !errors.Is(err, ErrBudget) {
					t.Fatalf("error %v, want a *BudgetError", err)
				}
				if be.Index != want || be.Total != n {
					t.Errorf("stopped at example %d of %d, want %d of %d", be.Index, be.Total, want, n)
				}
				if rep == nil || rep.Stopped == nil || rep.Stopped.Reason != ReasonBudget || rep.Stopped.Done != want || rep.Summary.Examples != want {
					t.Fatalf("report %+v, want one of the %d examples done, stopped for the budget", rep, want)
				}
			}
			if len(results) != want || int(bench.calls.Load()) != want {
				t.Errorf("%d results written, %d calls; want %d", len(results), bench.calls.Load(), want)
			}
			for i, res := range results {
				if res.Index != i {
					t.Fatalf("result %d is example %d: not a prefix", i, res.Index)
				}
			}
			if spent.tokens != bench.spent.tokens {
				t.Errorf("spent %d tokens, the rule says %d", bench.spent.tokens, spent.tokens)
			}
			if want > 64 && bench.maxLive.Load() < 2 {
				t.Errorf("at most %d requests at once: the budget serialised the run", bench.maxLive.Load())
			}
		})
	}
}

// budgetRun runs n examples of the fake model under limit with 64 workers.
func budgetRun(t *testing.T, bench *budgetBench, noCache bool, limit Budget, n int, prior func(int) (ExampleResult, bool)) (*Report, []ExampleResult, error) {
	t.Helper()
	b, root := resumeBenchmark(t, n)
	factory := func() (Adapter, error) { return &budgetAdapter{bench: bench, priced: true, noCache: noCache}, nil }
	// The fake model reads its example's index from its input.
	indexed := func() (Adapter, error) {
		a, _ := factory()
		return indexInput{a.(*budgetAdapter)}, nil
	}
	var results []ExampleResult
	rep, err := Run(context.Background(), b, indexed, Options{BenchmarkDir: root, Concurrency: 64, Budget: &limit, Prior: prior,
		OnResult: func(res ExampleResult, _ bool) { results = append(results, res) }})
	return rep, results, err
}

// indexInput gives the fake model its example's index as the input "i".
type indexInput struct{ *budgetAdapter }

func (a indexInput) Estimate(input map[string]any) (Estimate, error) {
	return a.budgetAdapter.Estimate(map[string]any{"i": textIndex(input)})
}

func textIndex(input map[string]any) int {
	var i int
	for _, c := range input["text"].(string)[1:] {
		i = i*10 + int(c-'0')
	}
	return i
}

// TestBudgetResume: a run its budget stopped, resumed with the results it wrote and a
// larger budget, evaluates exactly the rest; resumed with the same budget it evaluates
// nothing, since the budget is the whole run's and the reused results spent it.
func TestBudgetResume(t *testing.T) {
	const n = 50
	mk := func(limit Budget) *budgetBench {
		return &budgetBench{limit: limit, bound: func(int) int { return 100 }, use: func(int) int { return 100 }, cached: func(int) bool { return false }, usd: 1e-6}
	}
	first := mk(Budget{MaxTokens: 2000})
	_, results, err := budgetRun(t, first, false, first.limit, n, nil)
	if !errors.Is(err, ErrBudget) || len(results) != 20 {
		t.Fatalf("first part: %d results, %v", len(results), err)
	}
	prior := func(i int) (ExampleResult, bool) {
		if i < len(results) {
			return results[i], true
		}
		return ExampleResult{}, false
	}
	same := mk(Budget{MaxTokens: 2000})
	_, again, err := budgetRun(t, same, false, same.limit, n, prior)
	if !errors.Is(err, ErrBudget) || len(again) != 20 || same.calls.Load() != 0 {
		t.Fatalf("resumed with the same budget: %d results, %d calls, %v", len(again), same.calls.Load(), err)
	}
	larger := mk(Budget{MaxTokens: 100 * n})
	rep, all, err := budgetRun(t, larger, false, larger.limit, n, prior)
	if err != nil || len(all) != n || larger.calls.Load() != n-20 || rep.Stopped != nil {
		t.Fatalf("resumed with a larger budget: %d results, %d calls, %v", len(all), larger.calls.Load(), err)
	}
}

// TestBudgetSetup: a budget the AI-system cannot keep is a setup abort before any call: an
// adapter that cannot estimate, a cost budget for a model without prices.
func TestBudgetSetup(t *testing.T) {
	b, root := resumeBenchmark(t, 5)
	var c counter
	_, err := Run(context.Background(), b, c.factory(func(context.Context, int, map[string]any) (any, error) { return nil, nil }),
		Options{BenchmarkDir: root, Budget: &Budget{MaxTokens: 10}})
	var a *Abort
	if !errors.As(err, &a) || a.Diagnostic.Phase != PhaseSetup || c.calls.Load() != 0 {
		t.Errorf("no estimator: %v, %d calls", err, c.calls.Load())
	}
	bench := &budgetBench{bound: func(int) int { return 1 }, use: func(int) int { return 1 }, cached: func(int) bool { return false }}
	_, err = Run(context.Background(), b, func() (Adapter, error) { return indexInput{&budgetAdapter{bench: bench}}, nil },
		Options{BenchmarkDir: root, Budget: &Budget{MaxCostUSD: 1}})
	if !errors.As(err, &a) || bench.calls.Load() != 0 {
		t.Errorf("no prices: %v, %d calls", err, bench.calls.Load())
	}
}

// TestBudgetUnreported: a reply that does not say what it spent (no usage, a usage marked
// unreported, negative counts or a negative cost) is charged its bound, so that a budget
// stops a run against a provider that leaves usage out as it stops one that reports each
// reply using its whole bound; the charge is kept in the result, so that a resumed run
// counts it again. A provider that reports more than the bound is charged what it says.
func TestBudgetUnreported(t *testing.T) {
	const n = 200
	neg := -1.0
	cases := []struct {
		name   string
		limit  Budget
		report func(used int, c float64) *Usage
		want   int
	}{
		{"no usage: stops at 1000/150 = 6 examples", Budget{MaxTokens: 1000}, func(int, float64) *Usage { return nil }, 6},
		{"usage unreported", Budget{MaxTokens: 1000}, func(int, float64) *Usage { return &Usage{Unreported: true} }, 6},
		{"negative counts earn no credit", Budget{MaxTokens: 1000}, func(int, float64) *Usage { return &Usage{InputTokens: -1000000, OutputTokens: 5} }, 6},
		{"a cost budget, no usage", Budget{MaxCostUSD: 150 * 6.5e-6}, func(int, float64) *Usage { return &Usage{Unreported: true} }, 6},
		{"a negative cost earns no credit", Budget{MaxCostUSD: 150 * 6.5e-6}, func(u int, _ float64) *Usage { return &Usage{InputTokens: u, CostUSD: &neg} }, 6},
		// Up to 6 start before any settles; each is charged the 500 it reports.
		{"over-reported usage is charged as reported", Budget{MaxTokens: 1000}, func(int, float64) *Usage { return &Usage{InputTokens: 500} }, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bench := &budgetBench{limit: tc.limit, bound: func(int) int { return 150 }, use: func(int) int { return 10 }, cached: func(int) bool { return false },
				usd: 1e-6, report: tc.report}
			_, results, err := budgetRun(t, bench, true, tc.limit, n, nil)
			var be *BudgetError
			if tc.want < 0 {
				if !errors.As(err, &be) || len(results) == 0 || len(results) > 6 || be.SpentTokens != 500*len(results) {
					t.Fatalf("%d results, %v; want at most 6, charged 500 each", len(results), err)
				}
				return
			}
			if !errors.As(err, &be) || be.Index != tc.want || len(results) != tc.want {
				t.Fatalf("%d results, %v; want a budget stop after %d", len(results), err, tc.want)
			}
			if be.SpentTokens < 0 || be.SpentCost < 0 {
				t.Errorf("spent %d tokens, $%v: negative", be.SpentTokens, be.SpentCost)
			}
			if tc.want != 6 {
				return
			}
			for _, r := range results {
				if r.Usage == nil || r.Usage.BudgetTokens != 150 {
					t.Fatalf("result %d's usage %+v: want the charge of 150 tokens kept", r.Index, r.Usage)
				}
			}
			// Resumed with the same budget, the reused results spent it: nothing more starts.
			again := &budgetBench{limit: tc.limit, bound: bench.bound, use: bench.use, cached: bench.cached, usd: 1e-6, report: tc.report}
			_, _, err = budgetRun(t, again, true, tc.limit, n, func(i int) (ExampleResult, bool) {
				if i < len(results) {
					return results[i], true
				}
				return ExampleResult{}, false
			})
			if !errors.Is(err, ErrBudget) || again.calls.Load() != 0 {
				t.Errorf("resumed with the same budget: %d calls, %v; want none", again.calls.Load(), err)
			}
		})
	}
}

// TestBudgetUsageEncodes: the results encoder (the stream's and the store's) writes an
// unreported usage and a budget's charge as encoding/json does, so that a resumed run reads
// the charge back from the store; a usage that reports writes as before.
func TestBudgetUsageEncodes(t *testing.T) {
	usd := 0.0025
	for _, u := range []*Usage{
		{Unreported: true, LatencyMS: 2},
		{Unreported: true, BudgetTokens: 4200, BudgetCostUSD: &usd},
		{InputTokens: 3, OutputTokens: 1, BudgetTokens: 150},
	} {
		res := ExampleResult{Index: 1, Status: StatusValid, Prediction: map[string]any{"a": "b"}, FieldScores: []FieldScore{}, Usage: u}
		want, err := stdEncode(&res)
		if err != nil {
			t.Fatal(err)
		}
		var lines LineEncoder
		got, err := lines.Line(&res)
		if err != nil || string(got)+"\n" != string(want) {
			t.Errorf("usage %+v: %s, %v\nwant %s", u, got, err, want)
		}
	}
}

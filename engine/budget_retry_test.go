package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// retryBench is a fake model whose requests are retried: example i's first fails(i)
// attempts fail, each billed (its bound spent) unless unbilled(i) says the provider
// refused it unbilled; the next succeeds and reports use tokens. Each attempt, as it
// starts, checks that what was spent plus the bounds of the attempts in flight is within
// the budget.
type retryBench struct {
	limit    int
	bound    int // of every request: 90 input, 10 output
	use      int
	fails    func(i int) int
	unbilled func(i int) bool

	mu             sync.Mutex
	spent, flight  int
	exceeded       string
	attempts       atomic.Int64
	refusedRetries atomic.Int64
}

type retryAdapter struct{ b *retryBench }

func (a retryAdapter) Estimate(input map[string]any) (Estimate, error) {
	return Estimate{InputTokens: a.b.bound - 10, OutputTokens: 10}, nil
}

func (a retryAdapter) Priced() bool { return false }

func (a retryAdapter) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	b, m := a.b, MeterOf(ctx)
	i := textIndex(input)
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if err := m.Again(ctx); err != nil {
				b.refusedRetries.Add(1)
				return nil, ExecutionError("provider_error", "no retry: %v", err)
			}
		}
		b.attempts.Add(1)
		b.mu.Lock()
		b.flight += b.bound
		if b.spent+b.flight > b.limit && b.exceeded == "" {
			b.exceeded = fmt.Sprintf("attempt %d of example %d: spent %d and %d in flight pass the budget of %d", attempt, i, b.spent, b.flight, b.limit)
		}
		b.mu.Unlock()
		time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond) // replies in any order
		b.mu.Lock()
		b.flight -= b.bound
		failed := attempt < b.fails(i)
		switch {
		case failed && b.unbilled(i):
		case failed:
			b.spent += b.bound
		default:
			b.spent += b.use
		}
		b.mu.Unlock()
		switch {
		case failed && b.unbilled(i):
			m.Unbilled()
		case failed:
			m.Billed()
		default:
			return &Answer{Output: map[string]any{"a": "x"}, Usage: &Usage{InputTokens: b.use - 1, OutputTokens: 1}}, nil
		}
	}
}

func (a retryAdapter) Close() error { return nil }

// TestBudgetHoldsEveryAttempt: each retry of a request reserves its bound again before it
// goes, waiting while attempts in flight may free room and giving up when none may; a
// failed attempt that may have been billed is charged its bound, one refused unbilled is
// released. So no attempt starts that could pass the budget, at any concurrency (one
// worker included: a retry never waits for an example that waits for its worker), the
// run's spend is every attempt's, each result keeps what it was charged and a resumed run
// counts it again.
func TestBudgetHoldsEveryAttempt(t *testing.T) {
	const n = 120
	cases := []struct {
		name     string
		limit    int
		fails    func(i int) int
		unbilled func(i int) bool
	}{
		{"every request fails twice, billed, then succeeds", 3000, func(int) int { return 2 }, func(int) bool { return false }},
		{"some fail up to four times", 5000, func(i int) int { return i % 5 }, func(int) bool { return false }},
		{"refusals not billed cost nothing", 2000, func(int) int { return 3 }, func(int) bool { return true }},
		{"a budget smaller than one request's attempts", 250, func(int) int { return 5 }, func(int) bool { return false }},
	}
	for _, tc := range cases {
		for _, workers := range []int{1, 8, 64} {
			t.Run(fmt.Sprintf("%s, %d workers", tc.name, workers), func(t *testing.T) {
				bench := &retryBench{limit: tc.limit, bound: 100, use: 30, fails: tc.fails, unbilled: tc.unbilled}
				b, root := resumeBenchmark(t, n)
				factory := func() (Adapter, error) { return retryAdapter{bench}, nil }
				var results []ExampleResult
				limit := Budget{MaxTokens: tc.limit}
				_, err := Run(context.Background(), b, factory, Options{BenchmarkDir: root, Concurrency: workers, Budget: &limit,
					OnResult: func(res ExampleResult, _ bool) { results = append(results, res) }})
				if bench.exceeded != "" {
					t.Fatal(bench.exceeded)
				}
				var be *BudgetError
				if !errors.As(err, &be) {
					t.Fatalf("error %v, want a budget stop", err)
				}
				if be.SpentTokens != bench.spent {
					t.Errorf("the run says it spent %d tokens, its attempts spent %d", be.SpentTokens, bench.spent)
				}
				charged := 0
				for i, r := range results {
					if r.Index != i {
						t.Fatalf("result %d is example %d: not a prefix", i, r.Index)
					}
					s, _ := spentBy(&r, cost{})
					charged += s.tokens
				}
				if charged != bench.spent {
					t.Errorf("the results are charged %d tokens, the attempts spent %d", charged, bench.spent)
				}
				t.Logf("%d results, %d attempts, %d retries refused, %d tokens spent", len(results), bench.attempts.Load(), bench.refusedRetries.Load(), bench.spent)

				// Resumed with the same budget, the reused results spent it: nothing more is sent.
				again := &retryBench{limit: tc.limit, bound: 100, use: 30, fails: tc.fails, unbilled: tc.unbilled}
				_, err = Run(context.Background(), b, func() (Adapter, error) { return retryAdapter{again}, nil }, Options{BenchmarkDir: root, Concurrency: workers, Budget: &limit,
					Prior: func(i int) (ExampleResult, bool) {
						if i < len(results) {
							return results[i], true
						}
						return ExampleResult{}, false
					}})
				if !errors.As(err, &be) || be.SpentTokens != bench.spent || again.attempts.Load() != 0 {
					t.Errorf("resumed with the same budget: %v after %d attempts; want a stop having spent %d, none sent", err, again.attempts.Load(), bench.spent)
				}
			})
		}
	}
}

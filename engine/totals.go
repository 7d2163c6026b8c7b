package engine

import (
	"github.com/benchy-eval/benchy/ir"
)

// Totals are the running totals of a run's results and the report they make: the
// summary, the usage and cache counts, each dimension's accuracy and the confidence
// interval. Run keeps one, and so does benchy merge over the journals of a sharded run,
// so that a merged report equals the unsharded run's by construction: the same sums, in
// the same index order, from the same type.
type Totals struct {
	dims    []ir.Dimension
	keep    bool // keep every contribution, for the bootstrap
	summary Summary
	usage   *UsageTotals // nil until an example reports usage
	cache   *CacheCounts // nil until an example reports a cache lookup
	q       []float64    // contributions in index order, kept only for a run small enough to bootstrap
	sum     float64      // of the contributions, in index order
	sumSq   float64      // of their squares, for the normal interval of a large run
	correct []int        // per dimension, among valid examples
}

// NewTotals are the totals of a run of b of total examples: total decides the interval's
// method (a bootstrap up to bootstrapLimit, kept contributions and all, the normal
// approximation beyond), so a run stopped early is reported as its whole would be.
func NewTotals(b *ir.Benchmark, total int) *Totals {
	return &Totals{dims: b.Scoring.Dimensions, keep: total <= bootstrapLimit, correct: make([]int, len(b.Scoring.Dimensions))}
}

// Summary is the count of the results added so far, by status.
func (t *Totals) Summary() Summary { return t.summary }

// Add adds one result; results must come in index order (the sums are of doubles).
func (t *Totals) Add(res *ExampleResult) {
	t.summary.Examples++
	if u := res.Usage; u != nil {
		if t.usage == nil {
			t.usage = &UsageTotals{}
		}
		t.usage.Examples++
		t.usage.InputTokens += u.InputTokens
		t.usage.OutputTokens += u.OutputTokens
		t.usage.LatencyMS += u.LatencyMS
		if u.CostUSD != nil {
			t.usage.PricedExamples++
			t.usage.CostUSD = addCost(t.usage.CostUSD, *u.CostUSD)
			if u.Cached != nil && *u.Cached {
				t.usage.CachedCostUSD = addCost(t.usage.CachedCostUSD, *u.CostUSD)
			}
		}
		if u.Cached != nil {
			if t.cache == nil {
				t.cache = &CacheCounts{}
			}
			if *u.Cached {
				t.cache.Hits++
			} else {
				t.cache.Misses++
			}
		}
	}
	switch res.Status {
	case StatusValid:
		t.summary.Valid++
		for i, fs := range res.FieldScores {
			if fs.Score == 1 && i < len(t.correct) {
				t.correct[i]++
			}
		}
	case StatusInvalidOutput:
		t.summary.InvalidOutputs++
	case StatusExecutionError:
		t.summary.ExecutionErrors++
	}
	t.sum += res.Contribution
	t.sumSq += res.Contribution * res.Contribution
	if t.keep {
		t.q = append(t.q, res.Contribution)
	}
}

// Report is head, the fields that name the run (identities, times, concurrency, limit),
// with the totals' fields filled in: version, score, summary, dimensions, interval, usage
// and cache.
func (t *Totals) Report(head Report) *Report {
	rep := head
	rep.Version = ResultVersion
	rep.Summary = t.summary
	rep.Usage = t.usage
	rep.Cache = t.cache
	rep.Confidence = confidence(t.q)
	rep.BenchmarkScore = 0
	rep.Dimensions = nil
	if n := t.summary.Examples; n > 0 {
		rep.BenchmarkScore = t.sum / float64(n)
		if len(t.q) < n {
			rep.Confidence = normalInterval(n, t.sum, t.sumSq)
		}
	}
	for i, dim := range t.dims {
		da := DimensionAccuracy{Path: dim.Path, Weight: dim.Weight, Correct: t.correct[i], Valid: t.summary.Valid}
		if t.summary.Valid > 0 {
			acc := float64(t.correct[i]) / float64(t.summary.Valid)
			da.Accuracy = &acc
		}
		rep.Dimensions = append(rep.Dimensions, da)
	}
	return &rep
}

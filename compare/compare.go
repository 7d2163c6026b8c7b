package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/benchy-eval/benchy/engine"
)

// MaxFlips bounds how many changed examples a comparison lists; it counts all of them.
const MaxFlips = 1000

// Comparison is the result of comparing run A with run B (B minus A).
type Comparison struct {
	Examples   int             `json:"examples"`
	ScoreA     float64         `json:"score_a"`
	ScoreB     float64         `json:"score_b"`
	Delta      float64         `json:"delta"`
	Interval   engine.Interval `json:"delta_interval"`
	Dimensions []Dimension     `json:"dimensions"`
	Improved   int             `json:"improved"`  // examples whose contribution rose
	Regressed  int             `json:"regressed"` // examples whose contribution fell
	Flips      []Flip          `json:"flips"`     // the first MaxFlips changed examples
}

// Dimension compares one scoring dimension's accuracy (among valid examples).
type Dimension struct {
	Path      []string `json:"path"`
	AccuracyA *float64 `json:"accuracy_a"`
	AccuracyB *float64 `json:"accuracy_b"`
	Delta     *float64 `json:"delta"`
}

// Flip is one example whose outcome changed.
type Flip struct {
	Index   int           `json:"index"`
	StatusA engine.Status `json:"status_a"`
	StatusB engine.Status `json:"status_b"`
	QA      float64       `json:"contribution_a"`
	QB      float64       `json:"contribution_b"`
	// What each system answered (null for an execution error), to see what changed.
	PredictionA any `json:"prediction_a"`
	PredictionB any `json:"prediction_b"`
}

// Comparer accumulates pairs of results of the same examples, in index order.
type Comparer struct {
	paired
	sumA, sumB float64
	dims       []dimCount
	improved   int
	regressed  int
	flips      []Flip
}

// paired sums the paired differences of a comparison for its interval.
type paired struct {
	n           int
	diffs       []float64 // kept for the bootstrap while the run is small
	sumD, sumD2 float64
}

func (p *paired) add(d float64) {
	p.n++
	p.sumD += d
	p.sumD2 += d * d
	if p.n <= bootstrapLimit {
		p.diffs = append(p.diffs, d)
	} else {
		p.diffs = nil
	}
}

// Paired is the mean paired difference b minus a over the examples' contributions (a[i]
// and b[i] are example i's), with its interval: what a Comparer of the same results
// gives, for a caller that holds the contributions alone (a leaderboard). a and b have
// the same length.
func Paired(a, b []float64) (float64, engine.Interval) {
	var p paired
	for i := range a {
		p.add(b[i] - a[i])
	}
	if p.n == 0 {
		return 0, engine.Interval{Level: 0.95, Method: "none"}
	}
	return p.sumD / float64(p.n), p.interval()
}

type dimCount struct {
	path                     []string
	validA, validB, okA, okB int
}

// Add takes the results of one example in run A and run B.
func (c *Comparer) Add(a, b engine.ExampleResult) error {
	if a.Index != b.Index || a.Index != c.n {
		return fmt.Errorf("compare: results out of step: %d and %d at position %d", a.Index, b.Index, c.n)
	}
	c.sumA += a.Contribution
	c.sumB += b.Contribution
	d := b.Contribution - a.Contribution
	c.add(d)
	switch {
	case d > 0:
		c.improved++
	case d < 0:
		c.regressed++
	}
	if (d != 0 || a.Status != b.Status) && len(c.flips) < MaxFlips {
		c.flips = append(c.flips, Flip{Index: a.Index, StatusA: a.Status, StatusB: b.Status, QA: a.Contribution, QB: b.Contribution,
			PredictionA: a.Prediction, PredictionB: b.Prediction})
	}
	c.countDims(a, true)
	c.countDims(b, false)
	return nil
}

func (c *Comparer) countDims(r engine.ExampleResult, isA bool) {
	if r.Status != engine.StatusValid {
		return
	}
	for i, fs := range r.FieldScores {
		if i >= len(c.dims) {
			c.dims = append(c.dims, dimCount{path: fs.Path})
		}
		dc := &c.dims[i]
		if isA {
			dc.validA++
			if fs.Score == 1 {
				dc.okA++
			}
		} else {
			dc.validB++
			if fs.Score == 1 {
				dc.okB++
			}
		}
	}
}

// Result summarises the pairs added so far.
func (c *Comparer) Result() Comparison {
	out := Comparison{Examples: c.n, Improved: c.improved, Regressed: c.regressed, Flips: c.flips, Dimensions: []Dimension{}}
	if out.Flips == nil {
		out.Flips = []Flip{}
	}
	if c.n == 0 {
		out.Interval = engine.Interval{Level: 0.95, Method: "none"}
		return out
	}
	n := float64(c.n)
	out.ScoreA, out.ScoreB = c.sumA/n, c.sumB/n
	out.Delta = c.sumD / n
	out.Interval = c.interval()
	for _, dc := range c.dims {
		d := Dimension{Path: dc.path, AccuracyA: ratio(dc.okA, dc.validA), AccuracyB: ratio(dc.okB, dc.validB)}
		if d.AccuracyA != nil && d.AccuracyB != nil {
			delta := *d.AccuracyB - *d.AccuracyA
			d.Delta = &delta
		}
		out.Dimensions = append(out.Dimensions, d)
	}
	return out
}

func ratio(k, n int) *float64 {
	if n == 0 {
		return nil
	}
	r := float64(k) / float64(n)
	return &r
}

const (
	bootstrapLimit   = 20000
	bootstrapSamples = 2000
)

// interval is a 95% confidence interval for the mean paired difference: a percentile
// bootstrap over examples (resampling pairs, so what the two runs share cancels) with a
// fixed seed up to 20,000 examples, the normal approximation beyond.
func (p *paired) interval() engine.Interval {
	n := float64(p.n)
	mean := p.sumD / n
	if p.diffs == nil {
		variance := (p.sumD2 - n*mean*mean) / (n - 1)
		half := 1.96 * math.Sqrt(math.Max(variance, 0)/n)
		return engine.Interval{Level: 0.95, Low: mean - half, High: mean + half, Method: "paired-normal"}
	}
	rng := rand.New(rand.NewPCG(0x636f6d70, uint64(p.n)))
	means := make([]float64, bootstrapSamples)
	for i := range means {
		sum := 0.0
		for range p.n {
			sum += p.diffs[rng.IntN(p.n)]
		}
		means[i] = sum / n
	}
	slices.Sort(means)
	return engine.Interval{Level: 0.95, Low: means[int(0.025*bootstrapSamples)], High: means[int(0.975*bootstrapSamples)-1], Method: "paired-bootstrap-percentile-2000"}
}

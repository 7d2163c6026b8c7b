package engine

import (
	"math"
	"math/rand/v2"
	"slices"
)

// bootstrapLimit is the largest run whose interval is bootstrapped; past it the normal
// approximation is as good and costs nothing.
const (
	bootstrapLimit   = 20000
	bootstrapSamples = 2000
)

// confidence returns a 95% confidence interval for the mean of q (the benchmark score).
// Up to 20,000 examples it is a percentile bootstrap with 2,000 resamples from a fixed seed,
// so the same run gives the same interval; beyond, the normal approximation
// mean ± 1.96·s/√n, clipped to [0, 1].
func confidence(q []float64) Interval {
	n := len(q)
	if n == 0 {
		return Interval{Level: 0.95, Method: "none"}
	}
	mean := 0.0
	for _, x := range q {
		mean += x
	}
	mean /= float64(n)
	if n > bootstrapLimit {
		sumSq := 0.0
		for _, x := range q {
			sumSq += x * x
		}
		return normalInterval(n, mean*float64(n), sumSq)
	}
	rng := rand.New(rand.NewPCG(0x62656e6368, uint64(n)))
	means := make([]float64, bootstrapSamples)
	for i := range means {
		sum := 0.0
		for range n {
			sum += q[rng.IntN(n)]
		}
		means[i] = sum / float64(n)
	}
	slices.Sort(means)
	return Interval{
		Level:  0.95,
		Low:    means[int(0.025*bootstrapSamples)],
		High:   means[int(0.975*bootstrapSamples)-1],
		Method: "bootstrap-percentile-2000",
	}
}

// normalInterval is mean ± 1.96·s/√n from the sums of the scores and of their squares, so
// that a large run need not keep every score; clipped to [0, 1].
func normalInterval(n int, sum, sumSq float64) Interval {
	mean := sum / float64(n)
	ss := math.Max(0, sumSq-sum*mean) // Σ(x-mean)² = Σx² - n·mean²
	half := 0.0
	if n > 1 {
		half = 1.96 * math.Sqrt(ss/float64(n-1)/float64(n))
	}
	return Interval{Level: 0.95, Low: math.Max(0, mean-half), High: math.Min(1, mean+half), Method: "normal"}
}

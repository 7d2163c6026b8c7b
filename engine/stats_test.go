package engine

import (
	"context"
	"encoding/json"
	"math"
	"testing"
)

// TestConfidence: the 95% interval of the benchmark score (the mean of q_i).
func TestConfidence(t *testing.T) {
	repeat := func(n int, f func(i int) float64) []float64 {
		q := make([]float64, n)
		for i := range q {
			q[i] = f(i)
		}
		return q
	}
	half := func(i int) float64 { return float64(i % 2) }
	tests := []struct {
		rule      string
		q         []float64
		low, high float64 // bounds within tol
		tol       float64
		method    string
	}{
		{"a run of all ones has the interval [1, 1]", repeat(100, func(int) float64 { return 1 }), 1, 1, 0, "bootstrap-percentile-2000"},
		{"a run of all zeros has the interval [0, 0]", repeat(100, func(int) float64 { return 0 }), 0, 0, 0, "bootstrap-percentile-2000"},
		{"a constant partial score has a point interval", repeat(50, func(int) float64 { return 0.5 }), 0.5, 0.5, 0, "bootstrap-percentile-2000"},
		{"a single example has a point interval", []float64{0.25}, 0.25, 0.25, 0, "bootstrap-percentile-2000"},
		{"a 50/50 run of 1,000 is about 0.5 ± 1.96·0.5/√1000 = [0.469, 0.531]", repeat(1000, half), 0.469, 0.531, 0.006, "bootstrap-percentile-2000"},
		{"20,000 examples are still bootstrapped", repeat(20000, half), 0.5 - 0.00693, 0.5 + 0.00693, 0.0015, "bootstrap-percentile-2000"},
		{"past 20,000 examples the normal approximation is used", repeat(20002, half), 0.5 - 1.96*0.5/math.Sqrt(20002), 0.5 + 1.96*0.5/math.Sqrt(20002), 1e-4, "normal"},
		{"the normal interval of all ones is [1, 1]", repeat(30000, func(int) float64 { return 1 }), 1, 1, 0, "normal"},
		{"the normal interval is clipped to [0, 1]", append(repeat(25000, func(int) float64 { return 0 }), 1), 0, 0.0001, 0.0001, "normal"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			iv := confidence(tt.q)
			if iv.Level != 0.95 || iv.Method != tt.method {
				t.Errorf("level %v method %q, want 0.95 %q", iv.Level, iv.Method, tt.method)
			}
			if math.Abs(iv.Low-tt.low) > tt.tol || math.Abs(iv.High-tt.high) > tt.tol {
				t.Errorf("interval [%v, %v], want [%v, %v] ± %v", iv.Low, iv.High, tt.low, tt.high, tt.tol)
			}
			mean := 0.0
			for _, x := range tt.q {
				mean += x
			}
			mean /= float64(len(tt.q))
			if iv.Low > mean+1e-12 || iv.High < mean-1e-12 || iv.Low < 0 || iv.High > 1 {
				t.Errorf("interval [%v, %v] does not hold the mean %v inside [0, 1]", iv.Low, iv.High, mean)
			}
			if again := confidence(tt.q); again != iv {
				t.Errorf("not deterministic: %+v then %+v", iv, again)
			}
		})
	}
	if iv := confidence(nil); iv.Method != "none" {
		t.Errorf("an empty run has interval %+v, want method none", iv)
	}
}

// TestRunInterval: a run reports the interval of its own contributions, bootstrapped up to
// 20,000 examples and from running sums beyond (a large run keeps no list of scores).
func TestRunInterval(t *testing.T) {
	dir := t.TempDir()
	b, _ := writeInvoices(t, dir, bootstrapLimit+1, false)
	var c counter
	halfRight := func(ctx context.Context, i int, in map[string]any) (any, error) {
		out, _ := invoiceAnswerer{}.Invoke(ctx, i, in)
		if i%3 == 0 {
			out.(map[string]any)["total"] = json.Number("0.5") // weight 5 of 9 lost
		}
		return out, nil
	}
	for _, n := range []int{500, bootstrapLimit + 1} {
		rr, err := run(t, b, dir, &c, halfRight, Options{Limit: n, Concurrency: 2})
		if err != nil {
			t.Fatal(err)
		}
		q := make([]float64, len(rr.results))
		sum := 0.0
		for i, res := range rr.results {
			q[i] = res.Contribution
			sum += q[i]
		}
		want := confidence(q)
		got := rr.report.Confidence
		if got.Method != want.Method || math.Abs(got.Low-want.Low) > 1e-12 || math.Abs(got.High-want.High) > 1e-12 {
			t.Errorf("%d examples: interval %+v, want %+v", n, got, want)
		}
		if rr.report.BenchmarkScore != sum/float64(n) {
			t.Errorf("%d examples: score %v, want the mean of q_i %v", n, rr.report.BenchmarkScore, sum/float64(n))
		}
	}
}

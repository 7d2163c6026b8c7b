package compare

import (
	"math"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

func valid(i int, q float64, fields ...float64) engine.ExampleResult {
	r := engine.ExampleResult{Index: i, Status: engine.StatusValid, Score: &q, Contribution: q}
	for j, s := range fields {
		r.FieldScores = append(r.FieldScores, engine.FieldScore{Path: []string{string(rune('a' + j))}, Score: s, Weight: 1})
	}
	return r
}

func withPrediction(r engine.ExampleResult, p any) engine.ExampleResult {
	r.Prediction = p
	return r
}

func failed(i int) engine.ExampleResult {
	return engine.ExampleResult{Index: i, Status: engine.StatusExecutionError}
}

func TestCompare(t *testing.T) {
	var c Comparer
	pairs := [][2]engine.ExampleResult{
		{valid(0, 1, 1, 1), valid(0, 1, 1, 1)},                                                 // same
		{withPrediction(valid(1, 0.5, 1, 0), "old"), withPrediction(valid(1, 1, 1, 1), "new")}, // improved
		{failed(2), valid(2, 0, 0, 0)},                                                         // status changed, contribution the same
		{valid(3, 1, 1, 1), failed(3)},                                                         // regressed
		{valid(4, 0.5, 0, 1), valid(4, 0.5, 1, 0)},                                             // same score, fields swapped
	}
	for _, p := range pairs {
		if err := c.Add(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	got := c.Result()
	if got.Examples != 5 || math.Abs(got.ScoreA-0.6) > 1e-12 || math.Abs(got.ScoreB-0.5) > 1e-12 || math.Abs(got.Delta+0.1) > 1e-12 {
		t.Errorf("scores %v %v delta %v", got.ScoreA, got.ScoreB, got.Delta)
	}
	if got.Improved != 1 || got.Regressed != 1 || len(got.Flips) != 3 || got.Flips[1].Index != 2 {
		t.Errorf("improved %d regressed %d flips %+v", got.Improved, got.Regressed, got.Flips)
	}
	if f := got.Flips[0]; f.Index != 1 || f.PredictionA != "old" || f.PredictionB != "new" {
		t.Errorf("the first flip does not carry both predictions: %+v", f)
	}
	if got.Interval.Low > got.Delta || got.Interval.High < got.Delta || got.Interval.Method == "" {
		t.Errorf("interval %+v does not contain %v", got.Interval, got.Delta)
	}
	// dimension a: A valid 4 (0,1,3,4) correct 3 (0,1,3); B valid 4 (0,1,2,4) correct 3 (0,1,4).
	if a := got.Dimensions[0]; *a.AccuracyA != 0.75 || *a.AccuracyB != 0.75 || *a.Delta != 0 {
		t.Errorf("dimension a: %v %v", *a.AccuracyA, *a.AccuracyB)
	}
	if again := func() Comparison {
		var c2 Comparer
		for _, p := range pairs {
			c2.Add(p[0], p[1])
		}
		return c2.Result()
	}(); again.Interval != got.Interval {
		t.Error("the interval is not deterministic")
	}
}

// TestIdenticalRuns: a run compared with itself differs by exactly nothing.
func TestIdenticalRuns(t *testing.T) {
	var c Comparer
	for i := range 100 {
		r := valid(i, float64(i%3)/2, 1)
		c.Add(r, r)
	}
	got := c.Result()
	if got.Delta != 0 || got.Interval.Low != 0 || got.Interval.High != 0 || len(got.Flips) != 0 {
		t.Errorf("%+v", got)
	}
}

// TestLargeRunsUseNormal: past 20,000 examples the interval is the normal approximation,
// and it still brackets a clear improvement.
func TestLargeRunsUseNormal(t *testing.T) {
	var c Comparer
	for i := range 30000 {
		a, b := 0.0, 0.0
		if i%2 == 0 {
			a = 1
		}
		if i%4 != 3 {
			b = 1
		}
		c.Add(valid(i, a), valid(i, b))
	}
	got := c.Result()
	if got.Interval.Method != "paired-normal" || got.Interval.Low <= 0 || got.Interval.High >= 0.5 || len(got.Flips) != MaxFlips {
		t.Errorf("%+v flips %d", got.Interval, len(got.Flips))
	}
}

func TestOutOfStep(t *testing.T) {
	var c Comparer
	if err := c.Add(valid(0, 1), valid(1, 1)); err == nil {
		t.Error("mismatched indices accepted")
	}
}

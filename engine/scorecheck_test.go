package engine

import (
	"strings"
	"testing"
)

// TestScoreCheck: every result a run writes, read back from its results stream, passes
// the check a merge makes of a journal's lines, with ordinary weights and with weights
// whose sum overflows (totalWeight's scale); a line edited in any number is refused.
func TestScoreCheck(t *testing.T) {
	b, root, answer := mixedRun(t, 60)
	for _, weights := range []string{"plain", "overflowing"} {
		if weights == "overflowing" {
			for i := range b.Scoring.Dimensions {
				b.Scoring.Dimensions[i].Weight = 1.5e308 / float64(i+1)
			}
		}
		var c counter
		rr, err := run(t, b, root, &c, answer, Options{Concurrency: 2})
		if err != nil {
			t.Fatal(err)
		}
		sc := NewScoreCheck(b)
		statuses := map[Status]int{}
		for i := range rr.results {
			statuses[rr.results[i].Status]++
			if err := sc.Check(&rr.results[i]); err != nil {
				t.Errorf("%s weights: the engine's result %d is refused: %v", weights, i, err)
			}
		}
		if len(statuses) != 3 {
			t.Fatalf("statuses %v, want all three", statuses)
		}
	}
	var valid, failed ExampleResult
	var c counter
	rr, err := run(t, b, root, &c, answer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rr.results {
		if r.Status == StatusValid && *r.Score > 0 && *r.Score < 1 {
			valid = r
		}
		if r.Status == StatusExecutionError {
			failed = r
		}
	}
	half := 0.5
	cases := []struct {
		name string
		base ExampleResult
		edit func(*ExampleResult)
		want string
	}{
		{"score", valid, func(r *ExampleResult) { s := *r.Score + 0.1; r.Score = &s }, "weighted mean"},
		{"contribution", valid, func(r *ExampleResult) { r.Contribution = 1 }, "weighted mean"},
		{"field score", valid, func(r *ExampleResult) { r.FieldScores[0].Score = 0.5 }, "not 0 or 1"},
		{"field score and score", valid, func(r *ExampleResult) {
			r.FieldScores[0].Score = 1 - r.FieldScores[0].Score
			s := weightedMean(r.FieldScores, 1, 1) // a mean with the wrong total
			r.Score, r.Contribution = &s, s
		}, "weighted mean"},
		{"weight", valid, func(r *ExampleResult) { r.FieldScores[0].Weight *= 2 }, "weight"},
		{"order", valid, func(r *ExampleResult) { r.FieldScores[0], r.FieldScores[1] = r.FieldScores[1], r.FieldScores[0] }, "dimension"},
		{"dimension dropped", valid, func(r *ExampleResult) { r.FieldScores = r.FieldScores[1:] }, "field scores"},
		{"null score", valid, func(r *ExampleResult) { r.Score = nil }, "null score"},
		{"error's score", failed, func(r *ExampleResult) { r.Score, r.Contribution = &half, half }, "score or a contribution"},
		{"error's error", failed, func(r *ExampleResult) { r.Error = nil }, "without an error"},
		{"status", failed, func(r *ExampleResult) { r.Status = "skipped" }, "status"},
	}
	sc := NewScoreCheck(b)
	for _, c := range cases {
		r := c.base
		r.FieldScores = append([]FieldScore(nil), r.FieldScores...)
		c.edit(&r)
		if err := sc.Check(&r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

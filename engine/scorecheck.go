package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/benchy-eval/benchy/ir"
)

// weightedMean is a valid result's score from its field scores (A.12): each dimension's
// weight, divided by scale (totalWeight), times its 0 or 1, summed, over total. evaluate
// scores with it and ScoreCheck checks with it, so that the two cannot disagree.
func weightedMean(fs []FieldScore, total, scale float64) float64 {
	sum := 0.0
	for _, f := range fs {
		sum += f.Weight / scale * f.Score
	}
	return sum / total
}

// ScoreCheck checks results read back from outside the engine (a shard's journal, for a
// merge) against the benchmark that scored them: a result whose numbers are not what the
// engine makes of its field scores was edited, and would skew the merged run's totals.
type ScoreCheck struct {
	b            *ir.Benchmark
	total, scale float64
}

// NewScoreCheck is a ScoreCheck of results of b.
func NewScoreCheck(b *ir.Benchmark) *ScoreCheck {
	c := &ScoreCheck{b: b}
	c.total, c.scale = totalWeight(b)
	return c
}

// Check says how res differs from a result the engine writes for b, or nil: a valid
// result has one field score per dimension of b (its path and weight, in its order, each
// score 0 or 1), no error, and its score and contribution are their weighted mean,
// exactly; an invalid_output or execution_error has no field scores, a null score, a
// contribution of 0 and an error.
func (c *ScoreCheck) Check(res *ExampleResult) error {
	switch res.Status {
	case StatusValid:
		dims := c.b.Scoring.Dimensions
		if len(res.FieldScores) != len(dims) {
			return fmt.Errorf("it has %d field scores, the benchmark %d dimensions", len(res.FieldScores), len(dims))
		}
		for i, d := range dims {
			f := res.FieldScores[i]
			if !slices.Equal(f.Path, d.Path) || f.Weight != d.Weight {
				return fmt.Errorf("its field score %d is of %v with weight %v, not of the dimension %v with weight %v", i, f.Path, f.Weight, d.Path, d.Weight)
			}
			if f.Score != 0 && f.Score != 1 {
				return fmt.Errorf("its field score of %v is %v, not 0 or 1", f.Path, f.Score)
			}
		}
		s := weightedMean(res.FieldScores, c.total, c.scale)
		switch {
		case res.Score == nil:
			return errors.New("it is valid with a null score")
		case *res.Score != s || res.Contribution != s:
			return fmt.Errorf("its score %v and contribution %v are not its field scores' weighted mean %v", *res.Score, res.Contribution, s)
		case res.Error != nil:
			return errors.New("it is valid with an error")
		}
	case StatusInvalidOutput, StatusExecutionError:
		switch {
		case len(res.FieldScores) != 0:
			return fmt.Errorf("it is %s with field scores", res.Status)
		case res.Score != nil || res.Contribution != 0:
			return fmt.Errorf("it is %s with a score or a contribution", res.Status)
		case res.Error == nil:
			return fmt.Errorf("it is %s without an error", res.Status)
		}
	default:
		return fmt.Errorf("its status %q is none of valid, invalid_output, execution_error", res.Status)
	}
	return nil
}

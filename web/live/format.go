package live

import (
	"math"
	"strconv"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/ui"
)

// How a run's pace is written.

// RateOf is a run's rate in examples per second: the live one while it runs, else its
// average from start to finish (0 when unknown).
func RateOf(r api.Run) float64 {
	switch {
	case r.Rate != nil && *r.Rate > 0:
		return *r.Rate
	case r.StartedAt == nil || r.FinishedAt == nil:
		return 0
	}
	if d := r.FinishedAt.Sub(*r.StartedAt).Seconds(); d > 0 {
		return float64(r.Done) / d
	}
	return 0
}

// Rate shows a rate of examples per second.
func Rate(r float64) string {
	switch {
	case r <= 0 || math.IsNaN(r) || math.IsInf(r, 0):
		return ui.NoValue
	case r >= 100:
		return strconv.FormatFloat(r, 'f', 0, 64)
	case r >= 10:
		return strconv.FormatFloat(r, 'f', 1, 64)
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

// ETA is how long the rest of a run should take at its current rate, or "".
func ETA(done, total int, rate float64) string {
	if rate <= 0 || total <= 0 || done >= total {
		return ""
	}
	return "about " + ui.Duration(time.Duration(float64(total-done)/rate*float64(time.Second))) + " left"
}

// DonePct is done/total as a percentage for a bar width, 0 to 100.
func DonePct(done, total int) float64 {
	if total <= 0 {
		return 0
	}
	return math.Max(0, math.Min(100, float64(done)*100/float64(total)))
}

// Counts is a summary's line: "7 valid · 1 invalid output · 2 execution errors".
func Counts(s *api.Summary) string {
	if s == nil {
		return ""
	}
	return ui.Int(s.Valid) + " valid · " + ui.Plural(s.InvalidOutputs, "invalid output") + " · " + ui.Plural(s.ExecutionErrors, "execution error")
}

// Partial labels a run of only the first N examples of its dataset (--limit): "first N of
// M" when the dataset's size M is known (of; 0 when not), else "first N"; "" for a full
// run. A limit above the examples the run took, or as many as the dataset holds, took
// them all: the run is full, as the leaderboard and the last score count it.
func Partial(r api.Run, of int) string {
	n := r.Total
	if r.Summary != nil && !api.Active(r.Status) {
		n = r.Summary.Examples
	}
	if r.Options.Limit <= 0 || n <= 0 || r.Options.Limit > n || of > 0 && n >= of {
		return ""
	}
	if of > 0 {
		return "first " + ui.Int(n) + " of " + ui.Int(of)
	}
	return "first " + ui.Int(n)
}

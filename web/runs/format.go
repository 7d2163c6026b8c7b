package runs

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/benchy-eval/benchy/web/ui"
)

// How the runs page writes a run's pace and a benchmark's language.

// fmtRate shows a rate of examples per second.
func fmtRate(r float64) string {
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

// etaText is how long the rest of a run should take at its current rate, or "".
func etaText(done, total int, rate float64) string {
	if rate <= 0 || total <= 0 || done >= total {
		return ""
	}
	return "about " + ui.Duration(time.Duration(float64(total-done)/rate*float64(time.Second))) + " left"
}

// donePct is done/total as a percentage for a bar width, 0 to 100.
func donePct(done, total int) float64 {
	if total <= 0 {
		return 0
	}
	return math.Max(0, math.Min(100, float64(done)*100/float64(total)))
}

// langLabel shows a benchmark language: "es", or "es → en" for a pair.
func langLabel(raw json.RawMessage) string {
	var code string
	if json.Unmarshal(raw, &code) == nil {
		return code
	}
	var pair struct{ Source, Target string }
	if json.Unmarshal(raw, &pair) == nil && pair.Source != "" {
		return pair.Source + " → " + pair.Target
	}
	return ""
}

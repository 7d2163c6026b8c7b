package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
)

// placeholder is the value of a select's "choose…" option. An option's value cannot be
// empty in go-app (an empty value attribute is dropped, and the option's text becomes its
// value), so a placeholder has this one, which selected() reads as "".
const placeholder = "-"

// statusAll is the results filter's value for every status.
const statusAll = "all"

// selected is the value of the select an event came from, "" for the placeholder.
func selected(ctx app.Context) string {
	v := ctx.JSSrc().Get("value").String()
	if v == placeholder {
		return ""
	}
	return v
}

// readyFlag is the data-ready attribute of a page's root element: "1" once the page shows
// what its first requests answered (or why they failed), "" (no attribute) before and in
// the server's prerendering.
func readyFlag(ready bool) string {
	if ready && !app.IsServer {
		return "1"
	}
	return ""
}

// noValue stands for a value that is not there (yet).
const noValue = "—"

// fmtScore shows a score with four decimals.
func fmtScore(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return noValue
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// rawScore is a score as JSON writes it, for a data-value attribute ("" for none).
func rawScore(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// fmtScorePtr shows a score, or a noValue when there is none.
func fmtScorePtr(v *float64) string {
	if v == nil {
		return noValue
	}
	return fmtScore(*v)
}

// fmtSigned shows a difference with its sign, four decimals.
func fmtSigned(v float64) string {
	if v > 0 {
		return "+" + fmtScore(v)
	}
	if v == 0 {
		return fmtScore(0) // no "-0.0000"
	}
	return fmtScore(v)
}

// fmtPct shows a share (0..1) as a percentage with one decimal.
func fmtPct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return noValue
	}
	return strconv.FormatFloat(v*100, 'f', 1, 64) + "%"
}

// fmtPoints shows a difference of shares as signed percentage points.
func fmtPoints(v float64) string {
	s := strconv.FormatFloat(math.Abs(v*100), 'f', 1, 64)
	switch {
	case s == "0.0":
		return "±0.0 pts"
	case v > 0:
		return "+" + s + " pts"
	}
	return "-" + s + " pts"
}

// fmtInterval shows an interval's bounds, "[0.7123, 0.9012]".
func fmtInterval(iv api.Interval) string {
	return "[" + fmtScore(iv.Low) + ", " + fmtScore(iv.High) + "]"
}

// fmtSignedInterval shows a difference's interval, "[−0.0120, +0.0450]".
func fmtSignedInterval(iv api.Interval) string {
	return "[" + fmtSigned(iv.Low) + ", " + fmtSigned(iv.High) + "]"
}

// fmtLevel shows an interval's confidence level, "95% CI".
func fmtLevel(iv api.Interval) string {
	if iv.Level <= 0 || iv.Level >= 1 {
		return "CI"
	}
	return strconv.FormatFloat(iv.Level*100, 'f', -1, 64) + "% CI"
}

// fmtInt shows a count with thousands separators: 123,456.
func fmtInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtRate shows a rate of examples per second.
func fmtRate(r float64) string {
	switch {
	case r <= 0 || math.IsNaN(r) || math.IsInf(r, 0):
		return noValue
	case r >= 100:
		return strconv.FormatFloat(r, 'f', 0, 64)
	case r >= 10:
		return strconv.FormatFloat(r, 'f', 1, 64)
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

// fmtDuration shows a duration for people: "45 s", "3 min 20 s", "2 h 5 min".
func fmtDuration(d time.Duration) string {
	switch {
	case d < 0:
		return noValue
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	case d < time.Minute:
		return strconv.Itoa(int(d.Seconds())) + " s"
	case d < time.Hour:
		m, s := int(d.Minutes()), int(d.Seconds())%60
		if s == 0 {
			return strconv.Itoa(m) + " min"
		}
		return fmt.Sprintf("%d min %d s", m, s)
	}
	h, m := int(d.Hours()), int(d.Minutes())%60
	return fmt.Sprintf("%d h %d min", h, m)
}

// etaText is how long the rest of a run should take at its current rate, or "".
func etaText(done, total int, rate float64) string {
	if rate <= 0 || total <= 0 || done >= total {
		return ""
	}
	return "about " + fmtDuration(time.Duration(float64(total-done)/rate*float64(time.Second))) + " left"
}

// fmtTime shows a time in the browser's zone, to the second.
func fmtTime(t time.Time) string {
	if t.IsZero() {
		return noValue
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

// donePct is done/total as a percentage for a bar width, 0 to 100.
func donePct(done, total int) float64 {
	if total <= 0 {
		return 0
	}
	return math.Max(0, math.Min(100, float64(done)*100/float64(total)))
}

// barWidth is a CSS width of share v (0..1), clamped.
func barWidth(v float64) string {
	if math.IsNaN(v) {
		v = 0
	}
	return strconv.FormatFloat(math.Max(0, math.Min(1, v))*100, 'f', 2, 64) + "%"
}

// compactJSON is raw JSON on one line, "" for nothing; text that is not JSON comes back as it is.
func compactJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// clipText shortens s to at most n characters, ending with "…", and says whether it did.
func clipText(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…", true
}

// dotted joins a field path: ["supplier", "name"] is "supplier.name".
func dotted(path []string) string {
	if len(path) == 0 {
		return noValue
	}
	return strings.Join(path, ".")
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

// statusText shows a status for reading: "invalid_output" is "invalid output".
func statusText(s string) string {
	if s == "" {
		return "unknown"
	}
	return strings.ReplaceAll(s, "_", " ")
}

// shortID keeps the end of a run id, the part that differs between runs made close together.
func shortID(id string) string {
	if len(id) <= 12 {
		return id
	}
	return "…" + id[len(id)-10:]
}

// countFor is how many examples of summary s have status (all of them for "").
func countFor(s api.Summary, status string) int {
	switch status {
	case api.Valid:
		return s.Valid
	case api.InvalidOutput:
		return s.InvalidOutputs
	case api.ExecutionError:
		return s.ExecutionErrors
	}
	return s.Examples
}

// pageCount is how many pages of size n hold count rows (at least one).
func pageCount(count, n int) int {
	if count <= 0 || n <= 0 {
		return 1
	}
	return (count + n - 1) / n
}

// pluralize counts a noun: "1 problem", "2 problems", "1,000 examples".
func pluralize(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmtInt(n) + " " + word + "s"
}

package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/api"
)

// How the pages write numbers, scores, intervals, times and JSON for people.

// NoValue stands for a value that is not there (yet).
const NoValue = "—"

// Score shows a score with four decimals.
func Score(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return NoValue
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// RawScore is a score as JSON writes it, for a data-value attribute ("" for none).
func RawScore(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// ScorePtr shows a score, or a NoValue when there is none.
func ScorePtr(v *float64) string {
	if v == nil {
		return NoValue
	}
	return Score(*v)
}

// Signed shows a difference with its sign, four decimals.
func Signed(v float64) string {
	if v > 0 {
		return "+" + Score(v)
	}
	if v == 0 {
		return Score(0) // no "-0.0000"
	}
	return Score(v)
}

// Pct shows a share (0..1) as a percentage with one decimal.
func Pct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return NoValue
	}
	return strconv.FormatFloat(v*100, 'f', 1, 64) + "%"
}

// Points shows a difference of shares as signed percentage points.
func Points(v float64) string {
	s := strconv.FormatFloat(math.Abs(v*100), 'f', 1, 64)
	switch {
	case s == "0.0":
		return "±0.0 pts"
	case v > 0:
		return "+" + s + " pts"
	}
	return "-" + s + " pts"
}

// Interval shows an interval's bounds, "[0.7123, 0.9012]".
func Interval(iv api.Interval) string {
	return "[" + Score(iv.Low) + ", " + Score(iv.High) + "]"
}

// SignedInterval shows a difference's interval, "[−0.0120, +0.0450]".
func SignedInterval(iv api.Interval) string {
	return "[" + Signed(iv.Low) + ", " + Signed(iv.High) + "]"
}

// Level shows an interval's confidence level, "95% CI".
func Level(iv api.Interval) string {
	if iv.Level <= 0 || iv.Level >= 1 {
		return "CI"
	}
	return strconv.FormatFloat(iv.Level*100, 'f', -1, 64) + "% CI"
}

// USD shows a cost in US dollars with four decimals, as benchy run's summary does:
// $0.0660; a cost above 0 that rounds to nothing is "< $0.0001", not a free "$0.0000".
func USD(v float64) string {
	if v > 0 && v < 0.00005 {
		return "< $0.0001"
	}
	return "$" + strconv.FormatFloat(v, 'f', 4, 64)
}

// Int shows a count with thousands separators: 123,456.
func Int(n int) string {
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

// Duration shows a duration for people: "45 s", "3 min 20 s", "2 h 5 min".
func Duration(d time.Duration) string {
	switch {
	case d < 0:
		return NoValue
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

// Time shows a time in the browser's zone, to the second.
func Time(t time.Time) string {
	if t.IsZero() {
		return NoValue
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

// BarWidth is a CSS width of share v (0..1), clamped.
func BarWidth(v float64) string {
	if math.IsNaN(v) {
		v = 0
	}
	return strconv.FormatFloat(math.Max(0, math.Min(1, v))*100, 'f', 2, 64) + "%"
}

// CompactJSON is raw JSON on one line, "" for nothing; text that is not JSON comes back as it is.
func CompactJSON(raw json.RawMessage) string {
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

// Clip shortens s to at most n characters, ending with "…", and says whether it did.
func Clip(s string, n int) (string, bool) {
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

// Dotted joins a field path: ["supplier", "name"] is "supplier.name".
func Dotted(path []string) string {
	if len(path) == 0 {
		return NoValue
	}
	return strings.Join(path, ".")
}

// StatusText shows a status for reading: "invalid_output" is "invalid output".
func StatusText(s string) string {
	if s == "" {
		return "unknown"
	}
	return strings.ReplaceAll(s, "_", " ")
}

// ShortID keeps the end of a run id, the part that differs between runs made close together.
func ShortID(id string) string {
	if len(id) <= 12 {
		return id
	}
	return "…" + id[len(id)-10:]
}

// ShortHash keeps the start of a "sha256:…" hash or digest, enough to tell two apart at a
// glance ("3f2a9c01d4e7"); a page puts the whole in the title. "" stays "".
func ShortHash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Plural counts a noun: "1 problem", "2 problems", "1,000 examples".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return Int(n) + " " + word + "s"
}

package results

import (
	"net/url"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestCounted: a page searched to the run's end counts what it found, with the pages
// before it; a page with more to search, or that does not know its pages before, stays
// uncounted; a count the server gave is kept.
func TestCounted(t *testing.T) {
	three := make([]api.Result, 3)
	seven := 7
	for _, c := range []struct {
		name   string
		pg     api.ResultPage
		before int
		want   int // -1: no total
	}{
		{"searched to the end, first page", api.ResultPage{Results: three, Next: -1}, 0, 3},
		{"searched to the end, third page", api.ResultPage{Results: three, Next: -1}, 2 * pageSize, 2*pageSize + 3},
		{"more to search", api.ResultPage{Results: three, Next: 40}, 0, -1},
		{"pages before unknown", api.ResultPage{Results: three, Next: -1}, -1, -1},
		{"counted by the server", api.ResultPage{Results: three, Next: -1, Total: &seven}, 0, 7},
	} {
		got := counted(c.pg, c.before)
		n := -1
		if got.Total != nil {
			n = *got.Total
		}
		if n != c.want {
			t.Errorf("%s: total %d, want %d", c.name, n, c.want)
		}
	}
}

// TestBinFilter: each bar of the histogram selects its bin as the store's score range
// keys say it ([0.9, 1) below 1, the perfect bar 1 and 1), through the page's URL and
// back; its chip says the range.
func TestBinFilter(t *testing.T) {
	for _, c := range []struct {
		bin       int
		min, max  string
		imperfect bool
		chip      string
	}{
		{0, "0", "0.1", false, "score in [0, 0.1)"},
		{4, "0.4", "0.5", false, "score in [0.4, 0.5)"},
		{9, "0.9", "1", true, "score in [0.9, 1)"},
		{10, "1", "1", false, "score 1 (perfect)"},
	} {
		f := binFilter(c.bin)
		if f.ScoreMin != c.min || f.ScoreMax != c.max || f.Imperfect != c.imperfect {
			t.Errorf("bin %d: %+v", c.bin, f)
		}
		u, _ := url.Parse(pageURL("01A", f, -1, -1))
		if got := parseState(u.Query()).filter; got != f {
			t.Errorf("bin %d read back as %+v, want %+v", c.bin, got, f)
		}
		if got := scoreRangeText(f); got != c.chip {
			t.Errorf("bin %d's chip says %q, want %q", c.bin, got, c.chip)
		}
	}
}

// TestSelectedCount: the total card reads as selected only when the table shows every
// example; a status card when its status is the filter's.
func TestSelectedCount(t *testing.T) {
	for _, c := range []struct {
		f      api.Filter
		status string
		want   bool
	}{
		{api.Filter{}, "", true},
		{api.Filter{Sort: api.SortScore}, "", true},
		{api.Filter{Field: "kind", Expected: "cat", Predicted: "dog"}, "", false},
		{api.Filter{Imperfect: true}, "", false},
		{api.Filter{Status: api.Valid}, "", false},
		{api.Filter{Status: api.Valid}, api.Valid, true},
		{api.Filter{}, api.Valid, false},
	} {
		if got := selectedCount(c.f, c.status); got != c.want {
			t.Errorf("%+v, card %q: selected %v, want %v", c.f, c.status, got, c.want)
		}
	}
}

// TestClipPair: a wrong value's two sides are clipped around where they first differ, so
// the table shows the differing characters (a clip from the start cut exactly them).
func TestClipPair(t *testing.T) {
	for _, c := range []struct {
		name, e, g string
		n          int
		we, wg     string
	}{
		{"fits", "Pioneer Analytics plc", "Pioneer Anal", 40, "Pioneer Analytics plc", "Pioneer Anal"},
		{"the difference far in", "Pioneer Analytics and Consulting Services plc", "Pioneer Analytics and Consulting Services Ltd", 20,
			"…ulting Services plc", "…ulting Services Ltd"},
		{"at the very end", "Pioneer Analytics and Consulting Services plc", "Pioneer Analytics and Consulting Services Ltd", 30,
			"…s and Consulting Services plc", "…s and Consulting Services Ltd"},
		{"the difference near the start", "ACME Analytics and Consulting Services plc", "ACNE Analytics and Consulting Services plc", 20,
			"ACME Analytics and …", "ACNE Analytics and …"},
		{"one the start of the other", "Pioneer Analytics and Consulting Services plc", "Pioneer Analytics and Consulting", 20,
			"…onsulting Services…", "…onsulting"},
		{"equal", "Pioneer Analytics and Consulting Services plc", "Pioneer Analytics and Consulting Services plc", 20,
			"Pioneer Analytics a…", "Pioneer Analytics a…"},
		{"runes", "ééééééééééééééééééééééééé a", "ééééééééééééééééééééééééé b", 10, "…ééééééé a", "…ééééééé b"},
	} {
		e, g := clipPair(c.e, c.g, c.n)
		if e != c.we || g != c.wg {
			t.Errorf("%s: %q → %q, want %q → %q", c.name, e, g, c.we, c.wg)
		}
		for _, s := range []string{e, g} {
			if n := len([]rune(s)); n > c.n {
				t.Errorf("%s: %q is %d runes, over %d", c.name, s, n, c.n)
			}
		}
	}
}

// TestDiffSpan: the example view marks the run of the prediction that differs from the
// expected text: from the first difference to where the two agree again from their ends.
func TestDiffSpan(t *testing.T) {
	for _, c := range []struct{ e, g, before, differ, after string }{
		{"Pioneer Analytics plc", "Pioneer Anal", "Pioneer Anal", "", ""},
		{"Pioneer Analytics plc", "Pioneer Analytics Ltd", "Pioneer Analytics ", "Ltd", ""},
		{"INV-0042", "INV-0043", "INV-004", "3", ""},
		{"2024-03-15", "2024-08-15", "2024-0", "8", "-15"},
		{"same", "same", "same", "", ""},
		{"abc", "abcdef", "abc", "def", ""},
		{"aXa", "aa", "a", "", "a"},
	} {
		b, d, a := diffSpan(c.e, c.g)
		if b != c.before || d != c.differ || a != c.after {
			t.Errorf("%q vs %q: %q|%q|%q, want %q|%q|%q", c.e, c.g, b, d, a, c.before, c.differ, c.after)
		}
		if b+d+a != c.g {
			t.Errorf("%q vs %q: the parts do not make the prediction", c.e, c.g)
		}
	}
}

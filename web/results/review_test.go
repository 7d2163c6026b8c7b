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

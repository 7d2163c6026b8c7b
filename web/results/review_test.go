package results

import (
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

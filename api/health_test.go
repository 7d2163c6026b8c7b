package api

import "testing"

// TestFailedInfra: a run failed as infrastructure when more than half its examples are
// execution errors; exactly half is still a score, and a run without results is neither.
func TestFailedInfra(t *testing.T) {
	for _, c := range []struct {
		examples, errors int
		want             bool
	}{
		{0, 0, false}, {1, 0, false}, {1, 1, true}, {10, 5, false}, {10, 6, true}, {40, 40, true}, {3, 2, true},
	} {
		if got := FailedInfra(c.examples, c.errors); got != c.want {
			t.Errorf("FailedInfra(%d, %d) = %v, want %v", c.examples, c.errors, got, c.want)
		}
	}
}

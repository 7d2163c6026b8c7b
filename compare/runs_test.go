package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// TestComparable: two completed runs compare when they took one benchmark on one
// dataset, whatever their systems; otherwise the refusal's code says which rule failed
// and its message names the values that differ, by run.
func TestComparable(t *testing.T) {
	const (
		b1 = "sha256:1111111111112222222222222222222222222222222222222222222222222222"
		b2 = "sha256:3333333333334444444444444444444444444444444444444444444444444444"
		d1 = "sha256:aaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		d2 = "sha256:ccccccccccccdddddddddddddddddddddddddddddddddddddddddddddddddddd"
	)
	run := func(id, bh, dd string, n int, change func(*store.Run)) store.Run {
		r := store.Run{ID: id, Status: store.Completed, BenchmarkHash: bh, DatasetDigest: dd, Summary: &engine.Summary{Examples: n},
			System: &engine.System{Label: id, Hash: "sha256:" + id}, IRHash: "sha256:ir-" + id}
		if change != nil {
			change(&r)
		}
		return r
	}
	for _, c := range []struct {
		why  string
		a, b store.Run
		code api.Code // "" for comparable
		says []string
	}{
		{"one benchmark, one dataset, two systems (two IR hashes)", run("A", b1, d1, 10, nil), run("B", b1, d1, 10, nil), "", nil},
		{"a run not completed", run("A", b1, d1, 10, nil), run("B", b1, d1, 10, func(r *store.Run) { r.Status = store.Running }),
			api.NotCompleted, []string{"run B is running"}},
		{"two benchmarks", run("A", b1, d1, 10, nil), run("B", b2, d1, 10, nil),
			api.DifferentBenchmarks, []string{"run A has benchmark sha256:111111111111,", "run B has sha256:333333333333;"}},
		{"a benchmark hash not recorded", run("A", "", d1, 10, nil), run("B", "", d1, 10, nil),
			api.DifferentBenchmarks, []string{"not recorded"}},
		{"two datasets", run("A", b1, d1, 10, nil), run("B", b1, d2, 10, nil),
			api.DifferentDatasets, []string{"run A has dataset sha256:aaaaaaaaaaaa,", "run B has sha256:cccccccccccc"}},
		{"a dataset not recorded", run("A", b1, "", 10, nil), run("B", b1, d1, 10, nil),
			api.DifferentDatasets, []string{"run A: dataset not recorded"}},
		{"neither dataset recorded", run("A", b1, "", 10, nil), run("B", b1, "", 10, nil),
			api.DifferentDatasets, []string{"run A and run B: dataset not recorded"}},
		{"different numbers of examples", run("A", b1, d1, 10, nil), run("B", b1, d1, 3, nil),
			api.DifferentLengths, []string{"run A has 10, run B has 3"}},
	} {
		err := Comparable(c.a, c.b)
		var no *Refusal
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: refused: %v", c.why, err)
		case c.code == "":
		case !errors.As(err, &no) || no.Code != c.code:
			t.Errorf("%s: %v, want code %s", c.why, err, c.code)
		default:
			for _, s := range c.says {
				if !strings.Contains(no.Message, s) {
					t.Errorf("%s: %q does not say %q", c.why, no.Message, s)
				}
			}
		}
	}
}

// TestPairedIsComparer: the leaderboard's paired difference of two contribution vectors
// is what a Comparer of the same results says, on both sides of the bootstrap's limit.
func TestPairedIsComparer(t *testing.T) {
	for _, n := range []int{0, 1, 57, bootstrapLimit + 5} {
		a, b := make([]float64, n), make([]float64, n)
		var c Comparer
		for i := range n {
			a[i], b[i] = float64(i%3)/2, float64(i%5)/4
			c.Add(valid(i, a[i]), valid(i, b[i]))
		}
		d, iv := Paired(a, b)
		got := c.Result()
		if d != got.Delta || iv != got.Interval {
			t.Errorf("n=%d: Paired %v %+v, Comparer %v %+v", n, d, iv, got.Delta, got.Interval)
		}
	}
}

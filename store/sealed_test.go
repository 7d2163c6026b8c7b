package store

import (
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestSealed: Finish seals a completed run's outcomes, and Outcomes then reads the seal,
// equal to the rows: with the rows gone, the outcomes stay. A run that is not in step
// (an index missing) is not sealed, and is read from its rows.
func TestSealed(t *testing.T) {
	s, _ := open(t)
	outcomes := func(id string) []Outcome {
		var got []Outcome
		if err := s.Outcomes(id, func(o Outcome) error { got = append(got, o); return nil }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	finish := func(indices []int) Run {
		r := create(t, s, "b.yaml")
		if err := s.MarkRunning(r.ID, len(indices)); err != nil {
			t.Fatal(err)
		}
		w := s.ResultWriter(r.ID)
		for _, i := range indices {
			res := example(i)
			if i%3 == 0 {
				res.Usage = nil
			}
			if err := w.Add(res); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Finish(r.ID, &engine.Report{Summary: engine.Summary{Examples: len(indices)}}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	sealedCount := func(id string) int {
		var n int
		s.w.QueryRow(`SELECT count(*) FROM sealed_outcomes WHERE run_id = ?`, id).Scan(&n)
		return n
	}

	r := finish([]int{3, 0, 1, 2, 4, 5, 6, 7, 8, 9})
	fromRows := outcomes(r.ID)
	if sealedCount(r.ID) != 1 {
		t.Fatal("a completed run in step is not sealed")
	}
	if _, err := s.w.Exec(`DELETE FROM results WHERE run_id = ?`, r.ID); err != nil {
		t.Fatal(err)
	}
	if got := outcomes(r.ID); len(got) != 10 || !slices.Equal(got, fromRows) {
		t.Errorf("sealed outcomes\n%+v\nthe rows said\n%+v", got, fromRows)
	}
	if slices.IndexFunc(fromRows, func(o Outcome) bool { return o.HasLatency }) < 0 || slices.IndexFunc(fromRows, func(o Outcome) bool { return !o.HasLatency }) < 0 {
		t.Error("the outcomes lack a latency, or one without")
	}

	gap := finish([]int{0, 1, 3})
	if sealedCount(gap.ID) != 0 {
		t.Error("a run with a missing index is sealed")
	}
	if got := outcomes(gap.ID); len(got) != 3 || got[2].Index != 3 {
		t.Errorf("an unsealed run's outcomes: %+v", got)
	}
}

// BenchmarkSeal: what sealing adds to Finish, for a run of 100,000 examples.
func BenchmarkSeal(b *testing.B) {
	s, _ := open(b)
	r := create(b, s, "b.yaml")
	w := s.ResultWriter(r.ID)
	for i := range 100_000 {
		if err := w.Add(example(i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		s.seal(r.ID) // the run is not completed: everything but the last INSERT's row
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/seal")
}

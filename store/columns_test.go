package store

import (
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestOutcomes: the columns Outcomes reads through the driver are the stored results'
// index, status, contribution and latency (none where no usage was recorded), in index
// order, whatever order they were written in.
func TestOutcomes(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	w := s.ResultWriter(r.ID)
	order := []int{5, 0, 3, 1, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}
	for _, i := range order {
		res := example(i)
		if i%4 == 0 {
			res.Usage = nil
		}
		if i == 6 {
			res.Contribution = 1.0 / 3 // not a short decimal
		}
		if err := w.Add(res); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var got []Outcome
	if err := s.Outcomes(r.ID, func(o Outcome) error { got = append(got, o); return nil }); err != nil {
		t.Fatal(err)
	}
	var want []Outcome
	for res, err := range s.Stored(r.ID) {
		if err != nil {
			t.Fatal(err)
		}
		o := Outcome{Index: res.Index, Status: res.Status, Contribution: res.Contribution}
		if res.Usage != nil {
			o.LatencyMS, o.HasLatency = res.Usage.LatencyMS, true
		}
		want = append(want, o)
	}
	if len(want) != len(order) || !slices.Equal(got, want) {
		t.Errorf("outcomes\n%+v\nthe results say\n%+v", got, want)
	}
	if slices.IndexFunc(got, func(o Outcome) bool { return o.Status == engine.StatusExecutionError }) < 0 ||
		slices.IndexFunc(got, func(o Outcome) bool { return o.Status == engine.StatusInvalidOutput }) < 0 {
		t.Error("the example set lacks a status")
	}
	if err := s.Outcomes("nope", func(Outcome) error { t.Error("a result of no run"); return nil }); err != nil {
		t.Error(err)
	}
}

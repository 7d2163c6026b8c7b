package store

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestDetailNeighbours: an example's detail has its row and result whole, and its
// previous and next index under each filter are its neighbours in the filter's order
// (brute force), -1 at the ends, whether or not the example itself matches.
func TestDetailNeighbours(t *testing.T) {
	s, _ := open(t)
	id, all := exploredRun(t, s, 300)
	for _, c := range exploreFilters {
		order := brute(c.f, all)
		pos := map[int]int{}
		for k, i := range order {
			pos[i] = k
		}
		for _, idx := range []int{0, 3, 4, 5, 6, 150, 299} {
			d, ok, err := s.Detail(id, idx, c.f)
			if err != nil || !ok {
				t.Fatalf("%s: Detail(%d): %v, %v", c.name, idx, ok, err)
			}
			wantPrev, wantNext := -1, -1
			if k, in := pos[idx]; in {
				if k > 0 {
					wantPrev = order[k-1]
				}
				if k+1 < len(order) {
					wantNext = order[k+1]
				}
			} else if !c.f.ByScore {
				for _, i := range order {
					if i < idx {
						wantPrev = i
					} else if wantNext == -1 {
						wantNext = i
					}
				}
			} else {
				continue // its place in score order, outside the filter, is not asked for
			}
			if d.Prev != wantPrev || d.Next != wantNext {
				t.Errorf("%s: example %d: prev %d next %d, want %d %d", c.name, idx, d.Prev, d.Next, wantPrev, wantNext)
			}
		}
	}
	d, _, _ := s.Detail(id, 7, ResultFilter{})
	var row struct{ Input, Expected json.RawMessage }
	json.Unmarshal(all[7].Row, &row)
	if string(d.Input) != string(row.Input) || string(d.Expected) != string(row.Expected) || d.Index != 7 {
		t.Errorf("detail input %s expected %s, want %s %s", d.Input, d.Expected, row.Input, row.Expected)
	}
	if _, ok, err := s.Detail(id, 300, ResultFilter{}); ok || err != nil {
		t.Errorf("Detail of a missing index: %v, %v", ok, err)
	}
}

// TestDetailBound: a detail has values up to api.MaxDetail whole, clipped past it.
func TestDetailBound(t *testing.T) {
	s, _ := open(t)
	run := create(t, s, "big.yaml")
	w := s.ResultWriter(run.ID)
	for i, n := range []int{MaxShown * 4, 2 << 20} {
		res := example(i)
		res.Row = json.RawMessage(`{"input":{"text":"` + strings.Repeat("x", n) + `"},"expected":{}}`)
		w.Add(res)
	}
	w.Close()
	small, _, _ := s.Detail(run.ID, 0, ResultFilter{})
	big, _, _ := s.Detail(run.ID, 1, ResultFilter{})
	if small.Clipped || len(small.Input) < MaxShown*4 {
		t.Errorf("a 64 KB input is clipped (%v, %d bytes)", small.Clipped, len(small.Input))
	}
	if !big.Clipped || len(big.Input) > 1<<20+200 {
		t.Errorf("a 2 MB input: clipped %v, %d bytes", big.Clipped, len(big.Input))
	}
}

// TestCharts: every count of the charts is what the results hold (brute force): the
// statuses, the histogram of valid scores, each dimension's accuracy, the codes with
// their first message, and the label's confusion matrix; TopError is the most frequent
// execution error.
func TestCharts(t *testing.T) {
	s, _ := open(t)
	id, all := exploredRun(t, s, 500)
	checkCharts(t, s, id, all)
}

// checkCharts checks the charts of run id against its results all (brute force).
func checkCharts(t *testing.T, s *Store, id string, all []engine.ExampleResult) {
	t.Helper()
	c, err := s.Charts(id, []Enum{{Path: []string{"label"}, Values: labels}})
	if err != nil {
		t.Fatal(err)
	}
	hist := make([]int, 11)
	var sum engine.Summary
	wrong := make([]int, 3)
	codes := map[string]int{}
	first := map[string]string{}
	cells := [3][3]int{}
	for _, r := range all {
		sum.Examples++
		switch r.Status {
		case engine.StatusValid:
			sum.Valid++
			b := int(*r.Score * 10)
			hist[min(b, 10)]++
			for d, fs := range r.FieldScores {
				if fs.Score == 0 {
					wrong[d]++
				}
			}
			var row struct{ Expected map[string]any }
			json.Unmarshal(r.Row, &row)
			cells[slices.Index(labels, row.Expected["label"].(string))][slices.Index(labels, r.Prediction.(map[string]any)["label"].(string))]++
		case engine.StatusInvalidOutput:
			sum.InvalidOutputs++
		case engine.StatusExecutionError:
			sum.ExecutionErrors++
		}
		if r.Error != nil {
			if codes[string(r.Error.Code)]++; first[string(r.Error.Code)] == "" {
				first[string(r.Error.Code)] = r.Error.Message
			}
		}
	}
	if c.Summary.Examples != sum.Examples || c.Summary.Valid != sum.Valid || c.Summary.InvalidOutputs != sum.InvalidOutputs || c.Summary.ExecutionErrors != sum.ExecutionErrors {
		t.Errorf("summary %+v, want %+v", c.Summary, sum)
	}
	if !slices.Equal(c.Histogram, hist) {
		t.Errorf("histogram %v, want %v", c.Histogram, hist)
	}
	if len(c.Dimensions) != 3 {
		t.Fatalf("%d dimensions", len(c.Dimensions))
	}
	for d, dim := range c.Dimensions {
		if dim.Correct != sum.Valid-wrong[d] || dim.Valid != sum.Valid {
			t.Errorf("dimension %v: %d of %d correct, want %d", dim.Path, dim.Correct, dim.Valid, sum.Valid-wrong[d])
		}
	}
	if len(c.Codes) != len(codes) {
		t.Errorf("codes %+v, want %v", c.Codes, codes)
	}
	for k, cc := range c.Codes {
		if cc.Count != codes[cc.Code] || cc.Message != first[cc.Code] || (k > 0 && c.Codes[k-1].Count < cc.Count) {
			t.Errorf("code %+v, want %d of %q, most frequent first", cc, codes[cc.Code], first[cc.Code])
		}
	}
	if len(c.Confusion) != 1 {
		t.Fatalf("%d matrices", len(c.Confusion))
	}
	if m := c.Confusion[0]; !slices.Equal(m.Labels, labels) {
		t.Errorf("confusion labels %v, want %v", m.Labels, labels)
	}
	for i := range 3 {
		for j := range 3 {
			if got := c.Confusion[0].Count(i, j); got != cells[i][j] {
				t.Errorf("confusion cell %s×%s: %d, want %d", labels[i], labels[j], got, cells[i][j])
			}
		}
	}
	top, err := s.TopError(id)
	if err != nil || top.Code != "timeout" && top.Code != "provider_error" || top.Count != max(codes["timeout"], codes["provider_error"]) {
		t.Errorf("TopError %+v, %v; codes %v", top, err, codes)
	}
}

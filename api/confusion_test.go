package api

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestFoldConfusionKeepsTopMembers: a matrix of more than MaxConfusionLabels members
// shows those that occur most (as expected or predicted; a tie to the one declared
// first) in declaration order, folds the rest into "other" (the index len(Labels)),
// leaves out pairs with a value that is no member, and lists only cells that count,
// sorted, the same on every call whatever a map's order.
func TestFoldConfusionKeepsTopMembers(t *testing.T) {
	values := make([]string, 100)
	for i := range values {
		values[i] = fmt.Sprintf("v%02d", i)
	}
	counts := map[[2]string]int{}
	for i := range 30 { // v00..v29 occur 30-i times as expected, v99 is each one's prediction
		counts[[2]string{values[i], values[i]}] = 30 - i
	}
	counts[[2]string{"v20", "v20"}] = 11 // as many as v19: v19, declared first, is shown
	counts[[2]string{"v50", "v99"}] = 1
	counts[[2]string{"v98", "v97"}] = 0   // counts nothing
	counts[[2]string{"v01", "nope"}] = 50 // not a member
	m := FoldConfusion([]string{"label"}, values, counts)
	// v00..v19 occur 60..22 times (twice each: expected and predicted), v20 as often as
	// v19; v50 and v99 once.
	want := values[:20]
	if !slices.Equal(m.Labels, want) || m.Members != 100 || !m.Other() {
		t.Fatalf("labels %v of %d members, want %v of 100", m.Labels, m.Members, want)
	}
	total := 1 + 1 // v20's 11 and v50's one
	for i := range 30 {
		total += 30 - i
	}
	if m.Total() != total || m.Count(0, 0) != 30 || m.Count(19, 19) != 11 || m.Count(20, 20) != 11+9*10/2+1 || m.Count(0, 1) != 0 {
		t.Errorf("total %d, cells %+v", m.Total(), m.Cells)
	}
	if len(m.Cells) != 21 {
		t.Errorf("%d cells, want the 20 labels' diagonal and one other×other: %+v", len(m.Cells), m.Cells)
	}
	for range 20 {
		if again := FoldConfusion([]string{"label"}, values, counts); !reflect.DeepEqual(again, m) {
			t.Fatalf("a second fold differs:\n%+v\n%+v", again, m)
		}
	}
	small := FoldConfusion([]string{"kind"}, []string{"a", "b", "c"}, map[[2]string]int{{"c", "a"}: 2, {"a", "b"}: 1})
	if !slices.Equal(small.Labels, []string{"a", "b", "c"}) || small.Other() ||
		!reflect.DeepEqual(small.Cells, []ConfusionCell{{Expected: 0, Predicted: 1, Count: 1}, {Expected: 2, Predicted: 0, Count: 2}}) {
		t.Errorf("a small enum keeps every member in order: %+v", small)
	}
}

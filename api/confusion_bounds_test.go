package api

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFoldConfusionClipsLongLabels: a member longer than MaxLabelBytes (a benchmark file
// may hold 20 members of 49,000 "&") is answered cut at a character boundary under the
// bound with "…", its index in Clipped, so that a page filters nothing by a value that
// names no member; a member within the bound is answered whole and not listed.
func TestFoldConfusionClipsLongLabels(t *testing.T) {
	long := strings.Repeat("&", 49000)
	wide := strings.Repeat("é", MaxLabelBytes) // 2 bytes a character: cut inside one otherwise
	values := []string{long + "a", "short", long + "b", wide}
	counts := map[[2]string]int{{values[0], values[2]}: 3, {values[1], values[1]}: 1, {values[3], values[0]}: 2}
	m := FoldConfusion([]string{"label"}, values, counts)
	for i, l := range m.Labels {
		if len(l) > MaxLabelBytes || !utf8.ValidString(l) {
			t.Errorf("label %d is %d bytes (valid UTF-8: %v), want at most %d", i, len(l), utf8.ValidString(l), MaxLabelBytes)
		}
	}
	if m.Labels[1] != "short" || !strings.HasSuffix(m.Labels[0], "…") || !strings.HasPrefix(m.Labels[0], "&&&") || !strings.HasSuffix(m.Labels[3], "é…") {
		t.Errorf("labels %q, want the short one whole and the long ones cut with …", m.Labels)
	}
	if fmt.Sprint(m.Clipped) != "[0 2 3]" {
		t.Errorf("clipped %v, want [0 2 3]", m.Clipped)
	}
	if m.Count(0, 2) != 3 || m.Count(3, 0) != 2 || m.Total() != 6 {
		t.Errorf("cells %+v: the counts are the members', cut or not", m.Cells)
	}
}

// TestFoldCellsMemoryIndependentOfCells: folding an enum of 4,000 members from 1,000,000
// distinct cells, read as FoldCells reads them (twice, one at a time), allocates what it
// does for 1,000 cells: its memory is linear in the members, never in the cells (the
// store's map of every cell took a run's charts to 319 MB).
func TestFoldCellsMemoryIndependentOfCells(t *testing.T) {
	values := make([]string, 4000)
	for i := range values {
		values[i] = fmt.Sprintf("m%d", i)
	}
	alloc := func(cells int) uint64 {
		each := func(cell func(exp, pred, n int)) error {
			for k := range cells {
				cell(k%len(values), (k/len(values)+k+1)%len(values), 1+k%3)
			}
			return nil
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m, err := FoldCells([]string{"label"}, values, each)
		runtime.ReadMemStats(&after)
		if err != nil || len(m.Labels) != MaxConfusionLabels {
			t.Fatalf("%v, %d labels", err, len(m.Labels))
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(1000), alloc(1_000_000)
	t.Logf("%d bytes allocated for 1,000 cells, %d for 1,000,000", small, large)
	if large > small+64<<10 {
		t.Errorf("folding 1,000,000 cells allocated %d bytes, 1,000 cells %d: want the same within 64 KiB", large, small)
	}
}

package store

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestChartsMemoryIndependentOfCells: the charts of a run whose enum of 4,000 members
// counted 300,000 distinct confusion cells are built holding no more heap than those of a
// run of 3,000 cells (within 8 MB): the cells are read as they are folded, never all held
// (100,000 examples of 10 such enums took the server from 60 to 319 MB). They still count
// every example, and TopError reads no cell at all.
func TestChartsMemoryIndependentOfCells(t *testing.T) {
	s, _ := open(t)
	values := make([]string, 4000)
	for i := range values {
		values[i] = fmt.Sprintf("member-%04d", i)
	}
	enums := []Enum{{Path: []string{"label"}, Values: values}}
	small, large := cellRun(t, s, values, 3000), cellRun(t, s, values, 300_000)
	peak := func(id string, cells int) uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		var top atomic.Uint64
		done := make(chan struct{})
		watched := make(chan struct{})
		go func() { // the heap's peak over base while Charts runs
			defer close(watched)
			for {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc > base && ms.HeapAlloc-base > top.Load() {
					top.Store(ms.HeapAlloc - base)
				}
				select {
				case <-done:
					return
				case <-time.After(200 * time.Microsecond):
				}
			}
		}()
		c, err := s.Charts(id, enums)
		close(done)
		<-watched
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Confusion) != 1 || c.Confusion[0].Total() != cells || len(c.Confusion[0].Labels) != 20 {
			t.Fatalf("%d matrices, counting %d examples, want one of %d", len(c.Confusion), c.Confusion[0].Total(), cells)
		}
		return top.Load()
	}
	p1, p2 := peak(small, 3000), peak(large, 300_000)
	t.Logf("the heap's peak over its start: %d bytes for 3,000 cells, %d for 300,000", p1, p2)
	if p2 > p1+8<<20 {
		t.Errorf("the charts of 300,000 cells held %d bytes at their peak, of 3,000 cells %d: want the same within 8 MB", p2, p1)
	}
	counts, err := s.counts(large)
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) > 10 {
		t.Errorf("the counts read beside the cells are %d rows, want the few that are not cells", len(counts))
	}
}

// cellRun stores a run with one counted enum of values whose n results fall in n distinct
// cells (a valid result each), straight into result_counts as a Writer with Labels counts
// them: 300,000 results through a Writer take a minute.
func cellRun(t *testing.T, s *Store, values []string, n int) string {
	t.Helper()
	r := create(t, s, fmt.Sprint("cells-", n))
	key, _ := json.Marshal([]string{"label"})
	tx, err := s.w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	tl := tally{{kind: countLabelled, a: string(key)}: &[2]int{0, 0}, {kind: countStatus, a: "valid"}: &[2]int{n, 0}}
	for k := range n {
		v := len(values)
		tl[countKey{kind: countCell, a: string(key), b: values[k%v], c: values[(k%v+1+k/v)%v]}] = &[2]int{1, k}
		if len(tl) >= 20_000 {
			if err := tl.store(tx, r.ID); err != nil {
				t.Fatal(err)
			}
			tl = tally{}
		}
	}
	if err := tl.store(tx, r.ID); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

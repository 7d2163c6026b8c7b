package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// TestShardRule: for N = 1…64 and runs of 0…200 examples, every index belongs to exactly
// one shard, each shard's Count is how many it has, and Index walks them in order (N >
// examples leaves shards empty).
func TestShardRule(t *testing.T) {
	for n := 1; n <= 64; n++ {
		for total := 0; total <= 200; total++ {
			owners := make([]int, total)
			for k := range n {
				s := Shard{K: k, N: n}
				if err := s.Check(); err != nil {
					t.Fatalf("%v: %v", s, err)
				}
				got := 0
				for i := range total {
					if s.Has(i) {
						owners[i]++
						if s.Index(got) != i {
							t.Fatalf("%v of %d: position %d is index %d, want %d", s, total, got, s.Index(got), i)
						}
						got++
					}
				}
				if c := s.Count(total); c != got {
					t.Fatalf("%v of %d: Count %d, has %d", s, total, c, got)
				}
			}
			for i, o := range owners {
				if o != 1 {
					t.Fatalf("N %d, %d examples: index %d is in %d shards", n, total, i, o)
				}
			}
		}
	}
	for _, bad := range []Shard{{K: 4, N: 4}, {K: -1, N: 4}, {K: 0, N: -1}, {K: 1, N: 0}} {
		if bad.Check() == nil {
			t.Errorf("%v passes Check", bad)
		}
	}
	if !(Shard{}).Whole() || (Shard{}).Count(7) != 7 {
		t.Error("the zero Shard is not the whole run")
	}
}

// TestShardRun: the shards of a run evaluate only their examples, each in index order,
// and their results taken round-robin (index i from shard i % N) are the whole run's bytes;
// Totals over them in that order make the whole run's report.
func TestShardRun(t *testing.T) {
	b, root, answer := mixedRun(t, 403)
	fixed := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return fixed }
	for _, limit := range []int{0, 101} {
		var c counter
		whole, err := run(t, b, root, &c, answer, Options{Concurrency: 4, Clock: clock, IRHash: "sha256:x", Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		const n = 4
		var shards [][]ExampleResult
		var lines [][][]byte
		for k := range n {
			var sc counter
			var last Progress
			rr, err := run(t, b, root, &sc, answer, Options{Concurrency: 3, Clock: clock, IRHash: "sha256:x", Limit: limit, Shard: Shard{K: k, N: n},
				Progress: func(p Progress) { last = p }})
			if err != nil {
				t.Fatal(err)
			}
			want := Shard{K: k, N: n}.Count(len(whole.results))
			if len(rr.results) != want || int(sc.calls.Load()) != want || last.Done != want || last.Total != want {
				t.Fatalf("shard %d: %d results, %d calls, progress %d/%d; want %d", k, len(rr.results), sc.calls.Load(), last.Done, last.Total, want)
			}
			for p, res := range rr.results {
				if res.Index != k+p*n {
					t.Fatalf("shard %d: result %d has index %d, want %d", k, p, res.Index, k+p*n)
				}
			}
			shards = append(shards, rr.results)
			lines = append(lines, bytes.SplitAfter(rr.raw, []byte("\n")))
		}
		var merged bytes.Buffer
		totals := NewTotals(b, len(whole.results))
		for i := range whole.results {
			merged.Write(lines[i%n][i/n])
			totals.Add(&shards[i%n][i/n])
		}
		if !bytes.Equal(merged.Bytes(), whole.raw) {
			t.Errorf("limit %d: the shards' results, merged, are not the whole run's", limit)
		}
		head := *whole.report
		rep := totals.Report(head)
		a, _ := json.Marshal(rep)
		w, _ := json.Marshal(whole.report)
		if !bytes.Equal(a, w) {
			t.Errorf("limit %d: merged report\n%s\nwant\n%s", limit, a, w)
		}
	}
}

// TestShardEmpty: a shard past the last example (N > examples) runs nothing, calls no
// AI-system, and reports zero examples; a resume of a shard reuses its prior results by
// index.
func TestShardEmpty(t *testing.T) {
	b, root, answer := mixedRun(t, 3)
	var c counter
	rr, err := run(t, b, root, &c, answer, Options{Shard: Shard{K: 5, N: 8}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.results) != 0 || c.calls.Load() != 0 || rr.report.Summary.Examples != 0 {
		t.Fatalf("empty shard: %d results, %d calls, %+v", len(rr.results), c.calls.Load(), rr.report.Summary)
	}

	b, root, answer = mixedRun(t, 40)
	var first counter
	full, err := run(t, b, root, &first, answer, Options{Shard: Shard{K: 1, N: 3}})
	if err != nil {
		t.Fatal(err)
	}
	prior := map[int]ExampleResult{}
	for _, res := range full.results[:5] {
		prior[res.Index] = res
	}
	var again counter
	resumed, err := run(t, b, root, &again, answer, Options{Shard: Shard{K: 1, N: 3},
		Prior: func(i int) (ExampleResult, bool) { r, ok := prior[i]; return r, ok }})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(len(full.results) - 5); again.calls.Load() != want {
		t.Errorf("resumed shard made %d calls, want %d", again.calls.Load(), want)
	}
	if !bytes.Equal(resumed.raw, full.raw) {
		t.Error(fmt.Sprintf("resumed shard's results differ:\n%s\n%s", resumed.raw, full.raw))
	}
}

package leaderboard

import (
	"bytes"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compare"
	"github.com/benchy-eval/benchy/store"
)

// TestRanking: the board ranks by score, equal scores share a rank and are listed by
// label, each entry's difference to the leader is paired over the examples (what
// compare.Paired gives) and significant only when its interval excludes 0.
func TestRanking(t *testing.T) {
	st := openStore(t)
	const n = 200
	near := ones(n, 150)
	near[0], near[150] = 0, 1 // same score as the leader, two examples swapped
	ids := map[string]string{}
	for _, r := range []stored{
		{label: "delta", q: ones(n, 60)},
		{label: "charlie", q: near},
		{label: "alpha", q: ones(n, 150)},
		{label: "bravo", q: ones(n, 100)},
	} {
		r.digest = digestA
		ids[r.label] = r.store(t, st)
	}
	b, err := NewCache(1<<20).Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		system string
		rank   int
		score  float64
		sig    bool
	}{{"alpha", 1, 0.75, false}, {"charlie", 1, 0.75, false}, {"bravo", 3, 0.5, true}, {"delta", 4, 0.3, true}}
	if len(b.Entries) != len(want) {
		t.Fatalf("%d entries: %+v", len(b.Entries), b.Entries)
	}
	for i, w := range want {
		e := b.Entries[i]
		if e.System != w.system || e.Rank != w.rank || e.Score != w.score || e.Significant != w.sig || e.Run != ids[w.system] {
			t.Errorf("entry %d: %s rank %d score %v significant %v, want %+v", i, e.System, e.Rank, e.Score, e.Significant, w)
		}
		if e.Examples != n || e.Valid != n || len(e.Dimensions) != 1 || e.Interval.Method != "test" {
			t.Errorf("entry %d counts: %+v", i, e)
		}
	}
	if b.Entries[0].DeltaInterval != nil || b.Entries[0].DeltaVsLeader != 0 {
		t.Errorf("the leader has a difference to itself: %+v", b.Entries[0])
	}
	d, iv := compare.Paired(ones(n, 150), ones(n, 60))
	if e := b.Entries[3]; e.DeltaVsLeader != d || e.DeltaInterval == nil || *e.DeltaInterval != api.Interval(iv) || iv.High >= 0 {
		t.Errorf("delta's difference %v %+v, compare.Paired says %v %+v", e.DeltaVsLeader, e.DeltaInterval, d, iv)
	}
	if e := b.Entries[1]; e.DeltaInterval == nil || e.DeltaInterval.Low >= 0 || e.DeltaInterval.High <= 0 {
		t.Errorf("charlie's swapped examples: %+v", e.DeltaInterval)
	}
	if len(b.Dimensions) != 1 || b.Dimensions[0][0] != "label" || b.BenchmarkHash != bench || b.DatasetDigest != digestA {
		t.Errorf("board head: %+v", b)
	}
}

// TestWhichRuns: a system's latest completed full run is its entry; a run limited to
// fewer examples than the dataset has is on no board, one whose limit exceeded it is;
// systems of one label are told apart by their hashes.
func TestWhichRuns(t *testing.T) {
	st := openStore(t)
	(stored{label: "a", digest: digestA, q: ones(10, 2)}).store(t, st)
	latest := (stored{label: "a", digest: digestA, q: ones(10, 4)}).store(t, st)
	(stored{label: "b", digest: digestA, limit: 10, q: ones(10, 9)}).store(t, st) // limited to the dataset's size: not known full
	over := (stored{label: "c", digest: digestA, limit: 50, q: ones(10, 3)}).store(t, st)
	(stored{label: "x", fingerprint: "one", digest: digestA, q: ones(10, 5)}).store(t, st)
	(stored{label: "x", fingerprint: "two", digest: digestA, q: ones(10, 1)}).store(t, st)
	b, err := NewCache(1<<20).Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range b.Entries {
		got = append(got, e.System)
		switch e.System {
		case "a":
			if e.Run != latest || e.Score != 0.4 {
				t.Errorf("a's entry is run %s (score %v), not its latest %s", e.Run, e.Score, latest)
			}
		case "c":
			if e.Run != over {
				t.Errorf("c's entry %s", e.Run)
			}
		}
	}
	x1, x2 := "x #"+short(system("x", "one").Hash, 6), "x #"+short(system("x", "two").Hash, 6)
	if strings.Join(got, ",") != strings.Join([]string{x1, "a", "c", x2}, ",") {
		t.Errorf("entries %q", got)
	}
}

// TestDatasets: a board is of one dataset (the newest run's unless named); it lists every
// dataset the benchmark's runs took with their systems, and counts runs with none.
func TestDatasets(t *testing.T) {
	st := openStore(t)
	(stored{label: "a", digest: digestA, q: ones(10, 2)}).store(t, st)
	(stored{label: "b", digest: digestA, q: ones(10, 3)}).store(t, st)
	(stored{label: "old", digest: "", q: ones(10, 3)}).store(t, st)
	(stored{label: "a", digest: digestB, q: ones(12, 2)}).store(t, st)
	c := NewCache(1 << 20)
	b, err := c.Build(st, bench, "")
	if err != nil {
		t.Fatal(err)
	}
	if b.DatasetDigest != digestB || len(b.Entries) != 1 || b.Entries[0].Examples != 12 {
		t.Errorf("the newest dataset's board: %s %+v", b.DatasetDigest, b.Entries)
	}
	want := []api.LeaderboardDataset{{Digest: digestB, Systems: 1}, {Digest: digestA, Systems: 2}}
	if len(b.Datasets) != 2 || b.Datasets[0] != want[0] || b.Datasets[1] != want[1] || b.Unrecorded != 1 {
		t.Errorf("datasets %+v unrecorded %d", b.Datasets, b.Unrecorded)
	}
	if b, _ := c.Build(st, bench, digestA); len(b.Entries) != 2 || b.Entries[0].System != "b" {
		t.Errorf("dataset A's board: %+v", b.Entries)
	}
	if b, err := c.Build(st, "sha256:none", ""); err != nil || len(b.Entries) != 0 || b.Entries == nil || b.Datasets == nil || b.DatasetDigest != "" {
		t.Errorf("a benchmark without runs: %+v %v", b, err)
	}
}

// TestLatency: p50 and p95 of the recorded latencies; none when nothing was recorded.
func TestLatency(t *testing.T) {
	st := openStore(t)
	(stored{label: "timed", digest: digestA, q: ones(100, 50), latency: 10}).store(t, st)
	(stored{label: "untimed", digest: digestA, q: ones(100, 40)}).store(t, st)
	b, err := NewCache(1<<20).Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	if e := b.Entries[0]; e.LatencyP50MS == nil || *e.LatencyP50MS != 500 || *e.LatencyP95MS != 950 {
		t.Errorf("latencies %v %v", e.LatencyP50MS, e.LatencyP95MS)
	}
	if e := b.Entries[1]; e.LatencyP50MS != nil || e.LatencyP95MS != nil {
		t.Errorf("latencies without any recorded: %v %v", *e.LatencyP50MS, *e.LatencyP95MS)
	}
}

// TestCacheReadsNoResult: once a board's runs are cached, building it again reads no
// result: with the results table emptied behind the store's back it is the same board.
func TestCacheReadsNoResult(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "benchy.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	(stored{label: "a", digest: digestA, q: ones(50, 40)}).store(t, st)
	(stored{label: "b", digest: digestA, q: ones(50, 10)}).store(t, st)
	c := NewCache(1 << 20)
	cold, err := c.Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DELETE FROM results; DELETE FROM sealed_outcomes`); err != nil {
		t.Fatal(err)
	}
	warm, err := c.Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	if warm.Entries[1].DeltaInterval == nil || *warm.Entries[1].DeltaInterval != *cold.Entries[1].DeltaInterval {
		t.Errorf("warm %+v, cold %+v", warm.Entries[1], cold.Entries[1])
	}
	// A cache with room for none reads again, and finds nothing to pair.
	if b, _ := NewCache(0).Build(st, bench, digestA); b.Entries[1].DeltaInterval != nil || c.Bytes() == 0 {
		t.Errorf("an uncached board of emptied runs: %+v", b.Entries[1])
	}
}

// TestCacheBound: the cache keeps no more than its bound, forgetting the least recently
// used run first.
func TestCacheBound(t *testing.T) {
	st := openStore(t)
	var runs []store.Run
	for _, l := range []string{"a", "b", "c"} {
		id := (stored{label: l, digest: digestA, q: ones(100, 10)}).store(t, st)
		r, err := st.Peek(id)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	size := (&outcomes{status: make([]uint8, 100)}).size()
	c := NewCache(2 * size)
	for _, i := range []int{0, 1, 0, 2} { // 1 is the least recently used when 2 comes
		if _, err := c.outcomes(st, runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	_, has0 := c.runs[keyOf(runs[0])]
	_, has1 := c.runs[keyOf(runs[1])]
	if c.Bytes() > 2*size || !has0 || has1 {
		t.Errorf("holds %d bytes of at most %d; run 0 kept %v, run 1 kept %v", c.Bytes(), 2*size, has0, has1)
	}
}

// TestWriteText: the table fits 100 columns, marks significance and names both hashes.
func TestWriteText(t *testing.T) {
	st := openStore(t)
	(stored{label: strings.Repeat("a-very-long-system-label-", 4), digest: digestA, q: ones(1000, 900)}).store(t, st)
	(stored{label: "b", digest: digestA, q: ones(1000, 100)}).store(t, st)
	b, err := NewCache(1<<20).Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, b); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	for _, want := range []string{"RANK", "-0.8000*", "1000/0/0", "benchmark sha256:b0b0b0b0b0b0  dataset sha256:da7a00000000", "a-very-long-system-labe…"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

package leaderboard

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/store"
)

// manyStore is a store at a path of its own, with the real runs of rs stored, then copies
// cloned in SQL: n runs copying the run of label from (as another process might have
// stored them, without results), their ids before every real run's when older, after
// when not, each finished a second before or after the real ones.
func manyStore(t testing.TB, rs []stored) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "benchy.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, r := range rs {
		r.store(t, st)
	}
	return st, path
}

// clone inserts n copies of the stored run of system label, older (ids and finish times
// before every real run's) or newer.
func clone(t testing.TB, path, label string, n int, older bool) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	prefix, when := "ZZZZZ", time.Now().Add(time.Hour)
	if older {
		prefix, when = "00000", time.Unix(1_000_000_000, 0)
	}
	_, err = db.Exec(`WITH RECURSIVE seq(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM seq WHERE k < ?)
		INSERT INTO runs (id, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at, started_at,
			finished_at, total, done, summary, report, error, benchmark_hash, dataset_digest, system, system_hash, system_label)
		SELECT ? || substr(system_hash, 8, 5) || printf('%016d', k), benchmark, ir, ir_hash, ai_system, binding, options, status, created_at, started_at,
			?, total, done, summary, report, error, benchmark_hash, dataset_digest, system, system_hash, system_label
		FROM runs, seq WHERE system_label = ? AND id NOT LIKE '00000%' AND id NOT LIKE 'ZZZZZ%'`,
		n, prefix, when.UTC().Format("2006-01-02T15:04:05.000000000Z"), label)
	if err != nil {
		t.Fatal(err)
	}
}

// TestBoardOfManyRuns: a system whose latest run is older than 100,000 newer runs of
// another system is still on the board (a board once looked through the newest 100,000
// completed runs only, and dropped it without a word).
func TestBoardOfManyRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("stores 100,001 runs")
	}
	st, path := manyStore(t, []stored{{label: "old", digest: digestA, q: ones(20, 10)}, {label: "new", digest: digestA, q: ones(20, 5)}})
	clone(t, path, "new", 100_000, false)
	b, err := NewCache(1<<20).Build(st, bench, digestA)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 2 || b.Entries[0].System != "old" || len(b.Datasets) != 1 || b.Datasets[0].Systems != 2 {
		t.Errorf("entries %+v, datasets %+v: want old and new", b.Entries, b.Datasets)
	}
}

// BenchmarkBoardManyRuns times a board of 10 systems over 50,000 stored completed runs of
// its benchmark (5,000 of each system, 4,999 of them older clones without results), cold
// (a new cache) and warm.
func BenchmarkBoardManyRuns(b *testing.B) {
	var rs []stored
	for i := range 10 {
		rs = append(rs, stored{label: fmt.Sprintf("sys-%d", i), digest: digestA, q: ones(100, 10*i)})
	}
	st, path := manyStore(b, rs)
	for _, r := range rs {
		clone(b, path, r.label, 4_999, true)
	}
	runs, err := st.ListRuns(store.Filter{BenchmarkHash: bench}, 1_000_000)
	if err != nil || len(runs) != 50_000 {
		b.Fatalf("%d runs stored (%v)", len(runs), err)
	}
	check := func(b *testing.B, c *Cache) {
		board, err := c.Build(st, bench, digestA)
		if err != nil || len(board.Entries) != 10 || board.Entries[0].System != "sys-9" {
			b.Fatalf("board %+v (%v)", board.Entries, err)
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			check(b, NewCache(1<<20))
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/board")
	})
	b.Run("warm", func(b *testing.B) {
		c := NewCache(1 << 20)
		check(b, c)
		for b.Loop() {
			check(b, c)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/board")
	})
}

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// explore is a run of explored results shared by the explorer's benchmarks, built once
// per process in one pass of large transactions: 1,000,000 results (100,000 with -short).
var explore struct {
	once sync.Once
	dir  string
	path string
	id   string
	err  error
}

func exploreRun(b *testing.B) (*Store, string) {
	explore.once.Do(func() {
		n := 1_000_000
		if testing.Short() {
			n = 100_000
		}
		explore.dir, explore.err = os.MkdirTemp("", "benchy-explore-bench-")
		if explore.err != nil {
			return
		}
		explore.path = filepath.Join(explore.dir, "benchy.db")
		start := time.Now()
		explore.id, explore.err = buildExplored(explore.path, n)
		fmt.Fprintf(os.Stderr, "explore benchmarks: %d results built in %v\n", n, time.Since(start).Round(time.Millisecond))
	})
	if explore.err != nil {
		b.Fatal(explore.err)
	}
	s, err := Open(explore.path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, explore.id
}

func buildExplored(path string, n int) (string, error) {
	s, err := Open(path)
	if err != nil {
		return "", err
	}
	defer s.Close()
	r, err := s.CreateRun(spec("explore.yaml"))
	if err != nil {
		return "", err
	}
	w := s.ResultWriter(r.ID, labelled)
	rows := make([]row, 0, 50_000)
	for i := range n {
		res := explored(i)
		rw, err := w.rowOf(&res)
		if err != nil {
			return "", err
		}
		if rows = append(rows, rw); len(rows) == cap(rows) || i == n-1 {
			if err := s.insert(r.ID, rows, w); err != nil {
				return "", err
			}
			rows = rows[:0]
		}
	}
	return r.ID, nil
}

// BenchmarkFilteredPages times a page of 100 results of a 1,000,000-result run under each
// filter, first and deep pages, and reports the median and 95th percentile of the calls.
// The target is 200 ms at p95 (issue 15).
func BenchmarkFilteredPages(b *testing.B) {
	s, id := exploreRun(b)
	var n int
	s.r.QueryRow(`SELECT count(*) FROM results WHERE run_id = ?`, id).Scan(&n)
	var mid int // the index at the middle of score order
	s.r.QueryRow(`SELECT idx FROM results WHERE run_id = ? ORDER BY contribution, idx LIMIT 1 OFFSET ?`, id, n/2).Scan(&mid)
	for _, c := range []struct {
		name  string
		f     ResultFilter
		after int
	}{
		{"none", ResultFilter{}, First},
		{"status", ResultFilter{Status: "execution_error"}, First},
		{"status-deep", ResultFilter{Status: "invalid_output"}, n / 2},
		{"imperfect", ResultFilter{Imperfect: true}, First},
		{"imperfect-deep", ResultFilter{Imperfect: true}, n / 2},
		{"wrong", ResultFilter{Wrong: []string{"note"}}, First},
		{"wrong-deep", ResultFilter{Wrong: []string{"label"}}, n / 2},
		{"code", ResultFilter{Code: "timeout"}, First},
		{"code-deep", ResultFilter{Code: "provider_error"}, n / 2},
		{"text-hit", ResultFilter{Text: "needle in"}, First},
		{"text-miss", ResultFilter{Text: "no such words"}, First},
		{"cell", ResultFilter{Cell: &Cell{Path: []string{"label"}, Expected: "spam", Predicted: "ham"}}, First},
		{"score", ResultFilter{ByScore: true}, First},
		{"score-deep", ResultFilter{ByScore: true}, mid},
		{"score-imperfect", ResultFilter{ByScore: true, Imperfect: true}, mid},
		{"score-valid", ResultFilter{ByScore: true, Status: "valid"}, First},
		{"score-wrong", ResultFilter{ByScore: true, Wrong: []string{"note"}}, First},
	} {
		b.Run(c.name, func(b *testing.B) {
			var took []time.Duration
			var got int
			var scanned bool
			for range b.N {
				for range 20 {
					start := time.Now()
					p, err := s.Page(id, PageQuery{Filter: c.f, After: c.after, Limit: 100})
					took = append(took, time.Since(start))
					if err != nil {
						b.Fatal(err)
					}
					got, scanned = len(p.Results), p.Scanned
				}
			}
			slices.Sort(took)
			b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
			b.ReportMetric(ms(took[len(took)*95/100]), "p95-ms")
			b.ReportMetric(float64(got), "results")
			if scanned {
				b.ReportMetric(1, "scanned")
			}
		})
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkCharts computes the charts of the 1,000,000-result run, with and without the
// confusion matrix of its enum dimension, from the counts its writer kept (counts.go),
// and reports the median and 95th percentile of the calls. The target is 500 ms cold.
func BenchmarkCharts(b *testing.B) {
	s, id := exploreRun(b)
	for _, c := range []struct {
		name  string
		enums []Enum
	}{{"indexes", nil}, {"confusion", []Enum{{Path: []string{"label"}, Values: labels}}}} {
		b.Run(c.name, func(b *testing.B) {
			var took []time.Duration
			for range b.N {
				start := time.Now()
				if _, err := s.Charts(id, c.enums); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
			b.ReportMetric(ms(took[len(took)*95/100]), "p95-ms")
		})
	}
	b.Run("top-error", func(b *testing.B) {
		for range b.N {
			if _, err := s.TopError(id); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	})
}

// BenchmarkWriterRows stores 100,000 explored results (with their rows) through a Writer.
func BenchmarkWriterRows(b *testing.B) {
	const n = 100_000
	s, _ := open(b)
	b.ResetTimer()
	cpu := testkit.CPUTime()
	for range b.N {
		r := create(b, s, "bench.yaml")
		w := s.ResultWriter(r.ID, labelled)
		for i := range n {
			if err := w.Add(explored(i)); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "results/s")
	b.ReportMetric(float64(n*b.N)/(testkit.CPUTime()-cpu).Seconds(), "results/cpu-s")
}

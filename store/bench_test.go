package store

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if big.dir != "" {
		os.RemoveAll(big.dir)
	}
	if explore.dir != "" {
		os.RemoveAll(explore.dir)
	}
	os.Exit(code)
}

// BenchmarkStoreResults stores 100,000 results of one run through a Writer.
func BenchmarkStoreResults(b *testing.B) {
	const n = 100_000
	s, _ := open(b)
	results := make([]engine.ExampleResult, n)
	for i := range results {
		results[i] = example(i)
	}
	b.ResetTimer()
	cpu := testkit.CPUTime()
	for range b.N {
		r := create(b, s, "bench.yaml")
		w := s.ResultWriter(r.ID)
		for i := range results {
			if err := w.Add(results[i]); err != nil {
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

// big is one completed run shared by the read benchmarks, built once per process: a
// million results with BENCHY_BIG=1, 100,000 otherwise, 10,000 with -short.
var big struct {
	once sync.Once
	dir  string
	path string
	id   string
	n    int
	err  error
}

func bigRun(b *testing.B) (path, id string, n int) {
	big.once.Do(func() {
		big.n = 100_000
		switch {
		case os.Getenv("BENCHY_BIG") == "1":
			big.n = 1_000_000
		case testing.Short():
			big.n = 10_000
		}
		big.dir, big.err = os.MkdirTemp("", "benchy-store-bench-")
		if big.err != nil {
			return
		}
		big.path = filepath.Join(big.dir, "benchy.db")
		start := time.Now()
		big.id, big.err = buildRun(big.path, big.n)
		if fi, err := os.Stat(big.path); err == nil {
			fmt.Fprintf(os.Stderr, "store benchmarks: a run of %d results, %d MB, built in %v\n",
				big.n, fi.Size()>>20, time.Since(start).Round(time.Millisecond))
		}
	})
	if big.err != nil {
		b.Fatal(big.err)
	}
	return big.path, big.id, big.n
}

// openBig opens the big run's store afresh, closed when b ends, and returns it with the
// run's id and length.
func openBig(b *testing.B) (*Store, string, int) {
	path, id, n := bigRun(b)
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, id, n
}

func buildRun(path string, n int) (string, error) {
	s, err := Open(path)
	if err != nil {
		return "", err
	}
	defer s.Close()
	r, err := s.CreateRun(spec("big.yaml"))
	if err != nil {
		return "", err
	}
	s.MarkRunning(r.ID, n)
	w := s.ResultWriter(r.ID)
	rep := &engine.Report{Version: engine.ResultVersion, IRHash: r.IRHash, Binding: r.Binding}
	for i := range n {
		if err := w.Add(example(i)); err != nil {
			return "", err
		}
	}
	rep.Summary = summaryOf(n)
	if err := w.Close(); err != nil {
		return "", err
	}
	return r.ID, s.Finish(r.ID, rep)
}

// BenchmarkPageFirst reads one page of 100 results of the big run: the first, a filtered
// one, and deep ones (keyset pagination makes them cost the same). first-ms is the first
// call on a freshly opened store.
func BenchmarkPageFirst(b *testing.B) {
	_, _, n := bigRun(b)
	for _, c := range []struct {
		name string
		q    PageQuery
	}{
		{"first", PageQuery{After: First, Limit: 100}},
		{"deep", PageQuery{After: n / 2, Limit: 100}},
		{"filtered", PageQuery{Status: engine.StatusExecutionError, After: First, Limit: 100}},
		{"filtered-deep", PageQuery{Status: engine.StatusInvalidOutput, After: n / 2, Limit: 100}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s, id, _ := openBig(b)
			start := time.Now()
			p, err := s.Page(id, c.q)
			first := time.Since(start)
			if err != nil || len(p.Results) != 100 {
				b.Fatalf("%d results, %v", len(p.Results), err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := s.Page(id, c.q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/page")
			b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
		})
	}
}

// BenchmarkDone reads the stored indices of the big run, as a resume does.
func BenchmarkDone(b *testing.B) {
	s, id, n := openBig(b)
	for range b.N {
		x, err := s.RecordedSet(id)
		if err != nil || x.Len() != n {
			b.Fatalf("%d indices, %v", x.Len(), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}

// BenchmarkExport streams the big run in each format and samples the heap meanwhile: the
// peak must not grow with the run.
func BenchmarkExport(b *testing.B) {
	_, _, n := bigRun(b)
	for _, f := range []Format{JSONL, JSON, CSV} {
		b.Run(string(f), func(b *testing.B) {
			s, id, _ := openBig(b)
			runtime.GC()
			debug.FreeOSMemory()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			stop, peaks := sampleHeap()
			var out countingWriter
			b.ResetTimer()
			for range b.N {
				if err := exportAll(s, id, f, &out); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			close(stop)
			p := <-peaks
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "results/s")
			b.ReportMetric(float64(out)/float64(b.N)/(1<<20), "MB-out")
			b.ReportMetric(mb(before.HeapInuse), "heap-before-MB")
			b.ReportMetric(mb(p.inuse), "peak-heap-MB")
			b.ReportMetric(mb(p.live), "peak-live-MB")
		})
	}
}

type heapPeaks struct{ inuse, live uint64 }

// sampleHeap records the peak heap in use and the peak live heap until stop is closed.
func sampleHeap() (chan<- struct{}, <-chan heapPeaks) {
	stop := make(chan struct{})
	done := make(chan heapPeaks, 1)
	go func() {
		var p heapPeaks
		var m runtime.MemStats
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			metrics.Read(live)
			p.inuse, p.live = max(p.inuse, m.HeapInuse), max(p.live, live[0].Value.Uint64())
			select {
			case <-stop:
				done <- p
				return
			case <-tick.C:
			}
		}
	}()
	return stop, done
}

type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// BenchmarkResult looks up stored results one index at a time, as a resume may.
func BenchmarkResult(b *testing.B) {
	s, id, n := openBig(b)
	i := 0
	for b.Loop() {
		if _, ok, err := s.Result(id, i); !ok || err != nil {
			b.Fatalf("result %d: %v %v", i, ok, err)
		}
		i = (i + 7919) % n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "results/s")
}

// BenchmarkStored reads every stored result of the big run in one pass.
func BenchmarkStored(b *testing.B) {
	s, id, n := openBig(b)
	for range b.N {
		k := 0
		for _, err := range s.Stored(id) {
			if err != nil {
				b.Fatal(err)
			}
			k++
		}
		if k != n {
			b.Fatalf("%d results, want %d", k, n)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "results/s")
}

// BenchmarkAllShown reads every result of the big run as a comparison does (clipped in
// SQL), to set beside BenchmarkStored, which a comparison read before.
func BenchmarkAllShown(b *testing.B) {
	s, id, n := openBig(b)
	for range b.N {
		k := 0
		for _, err := range s.AllShown(id) {
			if err != nil {
				b.Fatal(err)
			}
			k++
		}
		if k != n {
			b.Fatalf("%d results, want %d", k, n)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "results/s")
}

// BenchmarkPrior serves every stored result of the big run to a resume, in index order.
func BenchmarkPrior(b *testing.B) {
	s, id, n := openBig(b)
	for range b.N {
		p := s.Prior(id)
		for i := range n {
			if _, ok := p.Get(i); !ok {
				b.Fatalf("result %d: %v", i, p.Err())
			}
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "results/s")
}

package shard

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// writeSet lays out n results as the journals and manifests of shards shards under dir.
func writeSet(tb testing.TB, dir string, n, shards int) {
	src, err := os.ReadFile("../engine/testdata/invoice/benchmark.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	b, ds := compiler.Compile(src)
	if len(ds) > 0 {
		tb.Skipf("bench YAML: %v", ds)
	}
	canon, err := ir.Marshal(b)
	if err != nil {
		tb.Fatal(err)
	}
	ws := make([]*bufio.Writer, shards)
	for k := range shards {
		s := engine.Shard{K: k, N: shards}
		os.MkdirAll(Dir(dir, s), 0o755)
		f, err := os.Create(filepath.Join(Dir(dir, s), JournalFile))
		if err != nil {
			tb.Fatal(err)
		}
		defer f.Close()
		ws[k] = bufio.NewWriter(f)
		defer ws[k].Flush()
		now := time.Now().UTC().Format(time.RFC3339Nano)
		if err := WriteManifest(Dir(dir, s), &Manifest{IRHash: ir.Hash(canon), K: k, N: shards, Total: n, Examples: s.Count(n),
			Concurrency: 1, StartedAt: now, FinishedAt: now, Complete: true, IR: canon}); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range n {
		if i%3 == 0 {
			fmt.Fprintf(ws[i%shards], `{"index":%d,"status":"valid","prediction":{"label":"a"},"field_scores":[{"path":["label"],"score":1,"weight":1}],"score":1,"contribution":1,"error":null}`+"\n", i)
		} else {
			fmt.Fprintf(ws[i%shards], `{"index":%d,"status":"valid","prediction":{"label":"b"},"field_scores":[{"path":["label"],"score":0,"weight":1}],"score":0,"contribution":0,"error":null}`+"\n", i)
		}
	}
}

// BenchmarkMerge1M merges 1,000,000 results from 8 shards (issue 17's target: ≤ 10 s,
// peak heap ≤ 50 MB), reporting the peak heap sampled as it goes.
func BenchmarkMerge1M(b *testing.B) {
	dir := b.TempDir()
	writeSet(b, dir, 1_000_000, 8)
	for b.Loop() {
		runtime.GC()
		stop := make(chan struct{})
		peak := make(chan uint64)
		go func() {
			var m runtime.MemStats
			var top uint64
			for {
				runtime.ReadMemStats(&m)
				top = max(top, m.HeapInuse)
				select {
				case <-stop:
					peak <- top
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		set, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := set.Report(nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := set.WriteDocument(io.Discard, rep); err != nil {
			b.Fatal(err)
		}
		close(stop)
		b.ReportMetric(float64(<-peak)/1e6, "peak-heap-MB")
		if rep.Summary.Examples != 1_000_000 || rep.Confidence.Method != "normal" {
			b.Fatalf("report %+v", rep.Summary)
		}
	}
}

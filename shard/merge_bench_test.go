package shard

import (
	"bufio"
	"context"
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

// benchYAML is the benchmark of writeSet's shards: one enum dimension, labelled from a
// text, its dataset beside it.
const benchYAML = `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: classify
  domain: general
  language: en
program:
  input:
    text: string
  output:
    label:
      enum: [a, b]
scoring:
  weights:
    label: 1
  aggregator: weighted_mean
data:
  path: ./data.jsonl
ai-system:
  type: external
  id: bench-system
`

// writeSet lays out n results as the journals and manifests of shards shards under
// dir/shards, the benchmark they ran and its dataset of n rows (every expected label a)
// in dir: a third of the predictions are right. It returns what a merge holds them to.
func writeSet(tb testing.TB, dir string, n, shards int) *Want {
	bench := filepath.Join(dir, "benchmark.yaml")
	if err := os.WriteFile(bench, []byte(benchYAML), 0o644); err != nil {
		tb.Fatal(err)
	}
	b, ds := compiler.Compile([]byte(benchYAML))
	if len(ds) > 0 {
		tb.Fatalf("bench YAML: %v", ds)
	}
	data, err := os.Create(filepath.Join(dir, "data.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	dw := bufio.NewWriter(data)
	for i := range n {
		fmt.Fprintf(dw, `{"input":{"text":"example %d"},"expected":{"label":"a"}}`+"\n", i)
	}
	if err := dw.Flush(); err != nil {
		tb.Fatal(err)
	}
	data.Close()
	v, err := engine.DatasetDigest(context.Background(), b, dir, engine.Paths{Workspace: dir})
	if err != nil {
		tb.Fatal(err)
	}
	canon, err := ir.Marshal(b)
	if err != nil {
		tb.Fatal(err)
	}
	bh, _ := ir.BenchmarkHash(canon)
	sys := engine.NewSystem(b.AISystem, "", "bench", "sha256:0")
	out := filepath.Join(dir, "shards")
	ws := make([]*bufio.Writer, shards)
	for k := range shards {
		s := engine.Shard{K: k, N: shards}
		os.MkdirAll(Dir(out, s), 0o755)
		f, err := os.Create(filepath.Join(Dir(out, s), JournalFile))
		if err != nil {
			tb.Fatal(err)
		}
		defer f.Close()
		ws[k] = bufio.NewWriter(f)
		defer ws[k].Flush()
		now := time.Now().UTC().Format(time.RFC3339Nano)
		if err := WriteManifest(Dir(out, s), &Manifest{IRHash: ir.Hash(canon), BenchmarkHash: bh, DatasetDigest: v.Digest, System: &sys, Binding: "bench",
			K: k, N: shards, Total: n, Examples: s.Count(n), Concurrency: 1, StartedAt: now, FinishedAt: now, Complete: true, IR: canon}); err != nil {
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
	return &Want{IR: b, IRHash: ir.Hash(canon), BenchmarkHash: bh, System: sys, Binding: "bench", Dir: dir, Paths: engine.Paths{Workspace: dir}}
}

// BenchmarkMerge1M merges 1,000,000 results from 8 shards (issue 17's target: ≤ 10 s,
// peak heap ≤ 50 MB), every line scored again against the dataset of 1,000,000 rows, then
// written as the document, reporting the peak heap sampled as it goes.
func BenchmarkMerge1M(b *testing.B) {
	dir := b.TempDir()
	want := writeSet(b, dir, 1_000_000, 8)
	dir = filepath.Join(dir, "shards")
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
		rep, err := set.Report(want, nil)
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

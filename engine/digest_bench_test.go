//go:build unix

package engine

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/ir"
)

// The dataset digest's cost (issue 13: at most 10% over the validation pass). Each case is
// the validation pass as a run makes it (validateDataset, which digests) beside the same
// pass without digesting (openDataset(..., false), what the run's second pass reads with):
//
//	go test ./engine -run '^$' -bench BenchmarkValidation -benchtime 5x -count 5
//
// cpu-ns/op is the process's CPU time per pass, the steadier figure on a loaded machine.

// textBench is a classifier of text: the 1,000,000-row case.
const textBench = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: general, language: en}
program:
  input: {text: string}
  output:
    label: {enum: [de, en, es, fr, it, nl, pt]}
scoring: {weights: {label: 1}, aggregator: weighted_mean}
data: {path: ./data.jsonl}
ai-system: {type: external, id: sys}
`

// cpuTime is the process's user and system CPU time: beside ns/op, a measure of the work
// done that other processes on a shared machine disturb less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// validateOnly is the validation pass without the digest: every row read and checked, every
// artifact resolved and opened, nothing hashed.
func validateOnly(tb testing.TB, b *ir.Benchmark, dir string) int {
	d, a := openDataset(b, dir, Paths{}, false)
	if a != nil {
		tb.Fatal(a)
	}
	defer d.Close()
	n := 0
	for d.next() != nil {
		n++
	}
	if d.failed != nil {
		tb.Fatal(d.failed)
	}
	return n
}

// forgetSums empties the in-process cache of artifact sums: a process's first pass.
func forgetSums() {
	sums.mu.Lock()
	sums.m = nil
	sums.mu.Unlock()
}

func BenchmarkValidation(b *testing.B) {
	langs := []string{"de", "en", "es", "fr", "it", "nl", "pt"}
	textDir := b.TempDir()
	f, err := os.Create(filepath.Join(textDir, "data.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	const rows = 1_000_000
	for i := range rows {
		fmt.Fprintf(w, `{"input":{"text":"sentence number %d of the generated exam, in %s"},"expected":{"label":"%s"}}`+"\n", i, langs[i%7], langs[i%7])
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	info, _ := f.Stat()
	f.Close()
	text := compileYAML(b, textBench)

	invoicesDir := filepath.Join("..", "assets", "examples", "invoices")
	src, err := os.ReadFile(filepath.Join(invoicesDir, "benchmark.yaml"))
	if err != nil {
		b.Skip("no invoices example:", err)
	}
	invoices := compileYAML(b, string(src))
	var imageBytes int64
	if m, _ := filepath.Glob(filepath.Join(invoicesDir, "images", "*.png")); len(m) > 0 {
		for _, p := range m {
			if fi, err := os.Stat(p); err == nil {
				imageBytes += fi.Size()
			}
		}
	}
	jsonl, _ := os.Stat(filepath.Join(invoicesDir, "data", "invoices.jsonl"))

	digest := func(bb *ir.Benchmark, dir string, cold bool) func(*testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				if cold {
					forgetSums()
				}
				if _, err := validateDataset(context.Background(), bb, dir, Paths{}, 0); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	plain := func(bb *ir.Benchmark, dir string) func(*testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				validateOnly(b, bb, dir)
			}
		}
	}
	withBytes := func(n int64, f func(*testing.B)) func(*testing.B) {
		return func(b *testing.B) {
			b.SetBytes(n)
			before := cpuTime()
			f(b)
			if b.N > 0 {
				b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
			}
		}
	}
	// pair alternates the two passes, each iteration one of each, so that both meet the same
	// load: the overhead it reports is the steadier figure (medians of the per-pair ratios).
	pair := func(bb *ir.Benchmark, dir string, cold bool) func(*testing.B) {
		return func(b *testing.B) {
			var wall, cpu []float64
			for b.Loop() {
				t0, c0 := time.Now(), cpuTime()
				validateOnly(b, bb, dir)
				t1, c1 := time.Now(), cpuTime()
				if cold {
					forgetSums()
				}
				if _, err := validateDataset(context.Background(), bb, dir, Paths{}, 0); err != nil {
					b.Fatal(err)
				}
				t2, c2 := time.Now(), cpuTime()
				wall = append(wall, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
				cpu = append(cpu, float64(c2-c1)/float64(max(c1-c0, 1)))
			}
			b.ReportMetric(100*(median(wall)-1), "overhead-%")
			b.ReportMetric(100*(median(cpu)-1), "cpu-overhead-%")
		}
	}
	b.Run("text-1M/pair", pair(text, textDir, false))
	b.Run("invoices/pair-cold", pair(invoices, invoicesDir, true))
	b.Run("invoices/pair-warm", pair(invoices, invoicesDir, false))
	b.Run("text-1M/plain", withBytes(info.Size(), plain(text, textDir)))
	b.Run("text-1M/digest", withBytes(info.Size(), digest(text, textDir, false)))
	b.Run("invoices/plain", withBytes(jsonl.Size()+imageBytes, plain(invoices, invoicesDir)))
	b.Run("invoices/digest-cold", withBytes(jsonl.Size()+imageBytes, digest(invoices, invoicesDir, true)))
	forgetSums()
	validateDataset(context.Background(), invoices, invoicesDir, Paths{}, 0) // fills the cache
	b.Run("invoices/digest-warm", withBytes(jsonl.Size()+imageBytes, digest(invoices, invoicesDir, false)))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// BenchmarkValidatedUnchanged is what a server's page pays to trust a kept digest of a
// dataset of 65,536 distinct artifacts (the most a validation remembers), one stat each,
// beside validating it again:
//
//	go test ./engine -run '^$' -bench BenchmarkValidatedUnchanged -benchtime 5x
func BenchmarkValidatedUnchanged(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "files"), 0o755); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "data.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range maxSeen {
		name := fmt.Sprintf("files/%05d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(w, `{"input": {"doc": %q}, "expected": {"label": "yes"}}`+"\n", name)
	}
	w.Flush()
	f.Close()
	bench := compileYAML(b, `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: legal, language: en}
program:
  input: {doc: document}
  output: {label: {enum: [yes, no]}}
scoring: {weights: {label: 1}, aggregator: weighted_mean}
data: {path: ./data.jsonl}
ai-system: {type: external, id: sys}
`)
	time.Sleep(2100 * time.Millisecond) // old enough to be vouched for
	start := time.Now()
	v, err := DatasetDigest(context.Background(), bench, dir, Paths{})
	if err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	start = time.Now()
	if _, err := DatasetDigest(context.Background(), bench, dir, Paths{}); err != nil {
		b.Fatal(err)
	}
	b.Logf("validating: %v the first time, %v again (the sums kept)", first, time.Since(start))
	if v.Files() != maxSeen+1 || !v.Unchanged() {
		b.Fatalf("%d files, unchanged %v", v.Files(), v.Unchanged())
	}
	b.ResetTimer()
	for b.Loop() {
		if !v.Unchanged() {
			b.Fatal("changed")
		}
	}
}

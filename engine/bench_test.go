package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// invoiceText is the paper's invoice benchmark (section 9, the fixture
// testdata/invoice/benchmark.yaml) with a string input in place of the image, so that a
// large dataset needs no files.
func invoiceText(tb testing.TB) string {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "invoice", "benchmark.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	text := strings.Replace(string(src), "\n    image: image\n", "\n    text: string\n", 1)
	if text == string(src) {
		tb.Fatal("the invoice fixture has no image input to replace")
	}
	return text
}

// invoiceRow is example i of the generated dataset: about 150 bytes.
func invoiceRow(i int) string {
	return fmt.Sprintf(`{"input":{"text":"Factura F-%06d de Acme S.L."},"expected":{"invoice_number":"F-%06d","date":"2026-%02d-%02d","supplier":"Acme S.L.","subtotal":%d.5,"total":%d.21}}`,
		i, i, 1+i%12, 1+i%28, 100+i%900, 121+i%900)
}

// writeInvoices writes n generated examples under dir and returns the benchmark and, when
// answers is set, the right answer to each example, precomputed.
func writeInvoices(tb testing.TB, dir string, n int, answers bool) (*ir.Benchmark, []map[string]any) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		tb.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "data", "invoices.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var out []map[string]any
	for i := range n {
		row := invoiceRow(i)
		w.WriteString(row)
		w.WriteByte('\n')
		if answers {
			var r struct{ Expected map[string]any }
			dec := json.NewDecoder(strings.NewReader(row))
			dec.UseNumber()
			if err := dec.Decode(&r); err != nil {
				tb.Fatal(err)
			}
			out = append(out, r.Expected)
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return compileYAML(tb, invoiceText(tb)), out
}

// instant answers every example at once with its precomputed right answer.
type instant struct{ answers []map[string]any }

func (a instant) Invoke(_ context.Context, i int, _ map[string]any) (any, error) {
	return a.answers[i], nil
}
func (instant) Close() error { return nil }

const benchRows = 100_000

// BenchmarkRunInProcess runs the 100,000-example invoice benchmark against an in-process
// AI-system that answers instantly: the engine's own cost per example (two streaming passes,
// validation, scoring, the results stream).
func BenchmarkRunInProcess(b *testing.B) {
	dir := b.TempDir()
	bench, answers := writeInvoices(b, dir, benchRows, true)
	factory := func() (Adapter, error) { return instant{answers}, nil }
	b.ReportAllocs()
	cpu := testkit.CPUTime()
	for b.Loop() {
		rep, err := Run(context.Background(), bench, factory, Options{BenchmarkDir: dir, Concurrency: 1, Results: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		if rep.BenchmarkScore != 1 || rep.Summary.Valid != benchRows {
			b.Fatalf("report %+v", rep.Summary)
		}
	}
	b.ReportMetric(float64(benchRows*b.N)/b.Elapsed().Seconds(), "examples/s")
	b.ReportMetric(float64(benchRows*b.N)/(testkit.CPUTime()-cpu).Seconds(), "examples/cpu-s")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkFloor is the least any engine could do with the same file: decode each row into
// map[string]any (numbers as json.Number) and encode it again.
func BenchmarkFloor(b *testing.B) {
	dir := b.TempDir()
	writeInvoices(b, dir, benchRows, false)
	path := filepath.Join(dir, "data", "invoices.jsonl")
	b.ReportAllocs()
	cpu := testkit.CPUTime()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		dec := json.NewDecoder(bufio.NewReaderSize(f, 256<<10))
		dec.UseNumber()
		rows := 0
		for {
			var row map[string]any
			if err := dec.Decode(&row); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			out, err := json.Marshal(row)
			if err != nil {
				b.Fatal(err)
			}
			io.Discard.Write(out)
			rows++
		}
		f.Close()
		if rows != benchRows {
			b.Fatalf("%d rows", rows)
		}
	}
	b.ReportMetric(float64(benchRows*b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(benchRows*b.N)/(testkit.CPUTime()-cpu).Seconds(), "rows/cpu-s")
	b.ReportMetric(0, "ns/op")
}

// TestMemoryFlat measures the peak heap of runs of 10,000, 100,000 and 1,000,000 examples
// (an instant in-process AI-system, results to io.Discard): the engine streams, so the peak
// must stay under 100 MB and about the same at every size. The dataset is about 160 MB, so
// the test runs only when BENCHY_BIG=1.
func TestMemoryFlat(t *testing.T) {
	if os.Getenv("BENCHY_BIG") != "1" {
		t.Skip("set BENCHY_BIG=1 to run the 1,000,000-row memory test")
	}
	const rows = 1_000_000
	dir := t.TempDir()
	start := time.Now()
	bench, _ := writeInvoices(t, dir, rows, false)
	info, _ := os.Stat(filepath.Join(dir, "data", "invoices.jsonl"))
	t.Logf("generated %d rows, %d MB, in %v", rows, info.Size()>>20, time.Since(start).Round(time.Millisecond))

	// The answers are computed from the input, not stored: a precomputed table of 1M answers
	// would be the largest thing on the heap.
	factory := func() (Adapter, error) { return invoiceAnswerer{}, nil }
	var peaks []uint64
	for _, n := range []int{10_000, 100_000, rows} {
		runtime.GC()
		debug.FreeOSMemory()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		stop := make(chan struct{})
		done := make(chan [3]uint64)
		go func() { // sample the heap while the run goes
			var peakInuse, peakSys, peakLive uint64
			var m runtime.MemStats
			live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			tick := time.NewTicker(2 * time.Millisecond)
			defer tick.Stop()
			for {
				runtime.ReadMemStats(&m)
				metrics.Read(live)
				peakInuse, peakSys = max(peakInuse, m.HeapInuse), max(peakSys, m.Sys)
				peakLive = max(peakLive, live[0].Value.Uint64())
				select {
				case <-stop:
					done <- [3]uint64{peakInuse, peakSys, peakLive}
					return
				case <-tick.C:
				}
			}
		}()
		began := time.Now()
		rep, err := Run(context.Background(), bench, factory, Options{BenchmarkDir: dir, Concurrency: 4, Limit: n, Results: io.Discard})
		elapsed := time.Since(began)
		close(stop)
		peak := <-done
		if err != nil {
			t.Fatal(err)
		}
		if rep.Summary.Valid != n || rep.BenchmarkScore != 1 {
			t.Fatalf("%d rows: %+v", n, rep.Summary)
		}
		t.Logf("%9d rows: peak heap in use %5.1f MB (%4.1f MB before), peak live heap %4.1f MB, peak Sys %5.1f MB, %v, %.0f examples/s",
			n, mb(peak[0]), mb(before.HeapInuse), mb(peak[2]), mb(peak[1]), elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds())
		if peak[0] > 100<<20 {
			t.Errorf("%d rows: peak heap %.1f MB, want at most 100 MB", n, mb(peak[0]))
		}
		peaks = append(peaks, peak[2])
	}
	// What the collector found live is the steady measure: the heap in use also holds
	// garbage, more of it when the collector lags on a busy machine. Four bytes a row would
	// show as 4 MB.
	if peaks[2] > peaks[0]+4<<20 {
		t.Errorf("the live heap grows with the dataset: %.1f MB at 10,000 rows, %.1f MB at 1,000,000", mb(peaks[0]), mb(peaks[2]))
	}
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// invoiceAnswerer answers each invoice example correctly from its input alone.
type invoiceAnswerer struct{}

func (invoiceAnswerer) Invoke(_ context.Context, i int, _ map[string]any) (any, error) {
	return map[string]any{
		"invoice_number": fmt.Sprintf("F-%06d", i),
		"date":           fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28),
		"supplier":       "Acme S.L.",
		"subtotal":       json.Number(fmt.Sprintf("%d.5", 100+i%900)),
		"total":          json.Number(fmt.Sprintf("%d.21", 121+i%900)),
	}, nil
}

func (invoiceAnswerer) Close() error { return nil }

package provider

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// memoryChildEnv holds the artifact size, in MiB, when the test binary runs as the child
// process of BenchmarkArtifactMemory.
const memoryChildEnv = "BENCHY_ARTIFACT_MEMORY_MIB"

// BenchmarkArtifactMemory measures the peak resident memory (VmHWM, Linux) of a fresh
// process that sends one example with a PDF document of 1, 32 and 256 MiB to an
// OpenAI-compatible server on loopback, which reads and drops the body: peak-MiB is the
// whole process, baseline-MiB the same process before the example. Each size runs in its
// own process (the child is TestArtifactMemoryChild), since the peak only ever grows.
// Measured on 2 cores with Go 1.26, peak MiB for 1 / 32 / 256 MiB: 18 / 256 / 1634 when
// every artifact was read and sent whole; 17 / 214 / 9 (18 / 256 / 9 on a later run) with
// MaxArtifactBytes (the 256 MiB document is refused before it is read); 10 / 10 / 9 with
// the body streamed from the file (body.go), for a baseline of 8.5.
// TestHardeningStreamedBodyMemory holds the 32 MiB case to at most 40 MiB.
//
//	go test -run '^$' -bench ArtifactMemory -benchtime 1x ./adapter/provider/
func BenchmarkArtifactMemory(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("needs /proc/self/status (Linux)")
	}
	for _, mib := range []int{1, 32, 256} {
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			var m artifactMemory
			for b.Loop() {
				m = measureArtifactMemory(b, mib)
			}
			b.ReportMetric(m.peak, "peak-MiB")
			b.ReportMetric(m.base, "baseline-MiB")
			b.Logf("%d MiB document: peak %.0f MiB (baseline %.0f MiB): %s", mib, m.peak, m.base, m.outcome)
		})
	}
}

// artifactMemory is what one child of BenchmarkArtifactMemory measured, in MiB.
type artifactMemory struct {
	base, peak float64
	outcome    string
}

// measureArtifactMemory runs the child process for a document of mib MiB.
func measureArtifactMemory(tb testing.TB, mib int) artifactMemory {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestArtifactMemoryChild$", "-test.v")
	cmd.Env = append(os.Environ(), memoryChildEnv+"="+strconv.Itoa(mib), "TMPDIR="+tb.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("child: %v\n%s", err, out)
	}
	var m artifactMemory
	for line := range strings.Lines(string(out)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "artifact-memory "); ok {
			if _, err := fmt.Sscanf(v, "baseline=%g peak=%g", &m.base, &m.peak); err != nil {
				tb.Fatalf("child said %q: %v", v, err)
			}
			if _, o, ok := strings.Cut(v, " outcome="); ok {
				m.outcome = o
			}
		}
	}
	if m.peak == 0 {
		tb.Fatalf("child reported nothing:\n%s", out)
	}
	return m
}

// TestArtifactMemoryChild is BenchmarkArtifactMemory's child process; without its variable
// it does nothing.
func TestArtifactMemoryChild(t *testing.T) {
	v := os.Getenv(memoryChildEnv)
	if v == "" {
		t.Skip("the child of BenchmarkArtifactMemory")
	}
	mib, err := strconv.Atoi(v)
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "big.pdf")
	f, err := os.Create(doc)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("%PDF-1.7\n")
	chunk := []byte(strings.Repeat("0123456789abcdef", 4096))
	for n := int64(9); n < int64(mib)<<20; n += int64(len(chunk)) {
		w.Write(chunk[:min(int64(len(chunk)), int64(mib)<<20-n)])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, oaCompletion(`{"label": "x"}`, "stop"))
	}))
	defer srv.Close()
	task := Task{
		System: ir.AISystem{Type: ir.SystemModel, Provider: "local", Model: "m"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "doc", Type: ir.TypeDocument}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "label", Type: ir.TypeString}}},
	}
	ad := newModel(t, Config{Name: "local", Kind: KindOpenAI, BaseURL: srv.URL}, task, "")
	base := vmHWM(t)
	_, err = ad.Invoke(context.Background(), 0, map[string]any{"doc": doc})
	outcome := "answered"
	if err != nil {
		outcome = "refused: " + err.Error()
	}
	fmt.Printf("artifact-memory baseline=%.1f peak=%.1f outcome=%s\n", base, vmHWM(t), outcome)
}

// vmHWM is the process's peak resident set size so far, in MiB.
func vmHWM(t *testing.T) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb / 1024
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

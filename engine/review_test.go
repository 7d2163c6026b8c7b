package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
)

// TestOutputArtifactsAreConfined: an artifact the AI-system produces is found relative to
// the benchmark's directory; absolute paths count only inside it or the temporary
// directory, so a remote system cannot make Benchy probe the machine's files.
func TestOutputArtifactsAreConfined(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "made.png"), []byte("x"), 0o644)
	resolve := outputArtifacts(root)
	for _, tt := range []struct {
		value string
		ok    bool
	}{
		{"made.png", true},
		{filepath.Join(root, "made.png"), true},
		{"/etc/passwd", false},
		{"../../../../etc/passwd", false},
		{"missing.png", false},
	} {
		_, p := resolve(tt.value, []string{"img"})
		if (p == nil) != tt.ok || (p != nil && p.Code != diag.ArtifactNotFound) {
			t.Errorf("%s: %v, want ok=%v", tt.value, p, tt.ok)
		}
	}
}

// TestCancelWritesNoCancelledExample: examples cut short by a cancelled run are not written
// as the AI-system's failures.
func TestCancelWritesNoCancelledExample(t *testing.T) {
	b, root := resumeBenchmark(t, 40)
	ctx, cancel := context.WithCancel(context.Background())
	var c counter
	var out bytes.Buffer
	_, err := Run(ctx, b, c.factory(func(ctx context.Context, index int, input map[string]any) (any, error) {
		if index == 10 {
			cancel()
		}
		if index >= 10 {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return map[string]any{"a": input["text"], "b": index}, nil
	}), Options{BenchmarkDir: root, Concurrency: 4, Results: &out})
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("err = %v, want a cancelled run", err)
	}
	if strings.Contains(out.String(), "execution_error") || strings.Count(out.String(), "\n") > 10 {
		t.Errorf("written after the cancel:\n%s", out.String())
	}
}

// TestDatasetBOMAndFIFO: a byte order mark before the first row is not part of it; a FIFO
// in place of the dataset is refused at once, not waited on.
func TestDatasetBOMAndFIFO(t *testing.T) {
	b, root := resumeBenchmark(t, 3)
	data := filepath.Join(root, "data.jsonl")
	text, _ := os.ReadFile(data)
	os.WriteFile(data, append([]byte("\ufeff"), text...), 0o644)
	var c counter
	if _, err := run(t, b, root, &c, func(_ context.Context, i int, in map[string]any) (any, error) {
		return map[string]any{"a": in["text"], "b": i}, nil
	}, Options{}); err != nil {
		t.Errorf("BOM: %v", err)
	}
	os.Remove(data)
	if err := syscall.Mkfifo(data, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := validateDataset(context.Background(), b, root, Paths{}, 0); done <- err }()
	select {
	case err := <-done:
		if a, ok := err.(*Abort); !ok || a.Diagnostic.Code != diag.DataNotFound {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("a FIFO dataset blocks the run")
	}
}

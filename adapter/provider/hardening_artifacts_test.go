package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// TestHardeningArtifactSize (issue 11, finding 5): an artifact is sent base64-encoded
// inside the request, so one request carries at most MaxArtifactBytes of artifacts (the
// providers' limit): a larger document (one file, or several that add up) is an execution
// error before it is read and before any request, not a request that held 1.7 GB for a
// 256 MiB file when artifacts were read whole (BenchmarkArtifactMemory measures it). A FIFO in an artifact's place is refused without
// blocking.
func TestHardeningArtifactSize(t *testing.T) {
	dir := t.TempDir()
	sized := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("%PDF-1.7\n")
		if err := f.Truncate(size); err != nil { // sparse: no disk, no time
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	big := sized("big.pdf", 256<<20)
	over := sized("over.pdf", MaxArtifactBytes+1)
	half := sized("half.pdf", MaxArtifactBytes/2+1)
	small := sized("small.pdf", 1<<10)
	fifo := filepath.Join(dir, "fifo.pdf")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	task := Task{
		System: ir.AISystem{Type: ir.SystemModel, Provider: "local", Model: "m"},
		Input: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
			{Name: "a", Type: ir.TypeDocument}, {Name: "b", Type: ir.TypeDocument},
		}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "label", Type: ir.TypeString}}},
	}
	tests := []struct {
		name string
		a, b string
		want string // in the failure's message; "" for an answer
	}{
		{"a 256 MiB document", big, small, "big.pdf for a is 256 MiB: a request to a provider carries at most 32 MiB of artifacts"},
		{"one byte over the limit", small, over, "over.pdf for b is 32.0 MiB"},
		{"two that add up to more", half, half, "the input's other artifacts leave"},
		{"a FIFO", fifo, small, "fifo.pdf for a is not a regular file"},
		{"small documents", small, small, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newOAServer(t, oaResponse{body: oaCompletion(`{"label": "x"}`, "stop")})
			a, _ := oaAdapter(t, Config{BaseURL: srv.URL}, task)
			done := make(chan struct{})
			var out any
			var err error
			go func() {
				defer close(done)
				out, err = a.Invoke(context.Background(), 0, map[string]any{"a": tt.a, "b": tt.b})
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Invoke hangs")
			}
			if tt.want == "" {
				oaAnswer(t, out, err)
				if n := len(srv.requests()); n != 1 {
					t.Errorf("%d requests, want 1", n)
				}
				return
			}
			f := oaFailure(t, err)
			if f.Status != engine.StatusExecutionError || f.Code != diag.AdapterError || !strings.Contains(f.Message, tt.want) {
				t.Errorf("failure %s/%s %q, want an execution error saying %q", f.Status, f.Code, f.Message, tt.want)
			}
			if strings.Contains(f.Message, dir) {
				t.Errorf("the message shows the artifact's absolute path: %q", f.Message)
			}
			if n := len(srv.requests()); n != 0 {
				t.Errorf("refused, yet %d requests were sent", n)
			}
		})
	}
}

package adapter

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// TestHardeningPromptPaths (issue 11, finding 4): a model's prompt file is read within the
// run's workspace, after symbolic links, and is never the runtime file, .env or the run
// store, which would go to the provider as the system message. Each refusal comes before
// any adapter exists, and its message shows no byte of the file.
func TestHardeningPromptPaths(t *testing.T) {
	if RuntimeFile != engine.RuntimeFile {
		t.Fatalf("the engine refuses %q as data, but the runtime file is %q", engine.RuntimeFile, RuntimeFile)
	}
	const secret = "~SECRET~"
	top := t.TempDir()
	ws := filepath.Join(top, "ws")
	bench := filepath.Join(ws, "bench")
	for name, data := range map[string]string{
		"x.md":                         secret + " outside",
		"ws/benchy.runtime.yaml":       secret + ": runtime",
		"ws/.env":                      secret + "=1",
		"ws/.benchy/benchy.db":         secret + " store",
		"ws/prompts/shared.md":         "Answer briefly.",
		"ws/bench/prompt.md":           "Answer in JSON.",
		"ws/bench/.hidden/p.md":        secret + " hidden",
		"ws/bench/benchy.runtime.yaml": secret + ": a runtime file beside the benchmark",
	} {
		p := filepath.Join(top, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"out.md": filepath.Join(top, "x.md"), "env.md": filepath.Join(ws, ".env")} {
		if err := os.Symlink(target, filepath.Join(bench, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(bench, "fifo.md"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	rt, err := ParseRuntime([]byte("providers:\n  local: {kind: openai, base_url: http://127.0.0.1:9/v1}\n"), ws)
	if err != nil {
		t.Fatal(err)
	}
	inWS := engine.Paths{Workspace: ws}
	tests := []struct {
		prompt string
		paths  engine.Paths
		want   string // in the error; "" for none
	}{
		{"../../x.md", inWS, "lies outside the workspace"},
		{"../../x.md", engine.Paths{}, "lies outside the benchmark's directory"},
		{filepath.ToSlash(filepath.Join(top, "x.md")), inWS, "lies outside the workspace"},
		{"out.md", inWS, "lies outside the workspace"},
		{"../benchy.runtime.yaml", inWS, "is the runtime file"},
		{"benchy.runtime.yaml", engine.Paths{}, "is the runtime file"},
		{"../.env", inWS, "hidden"},
		{"../.benchy/benchy.db", inWS, "hidden"},
		{".hidden/p.md", engine.Paths{}, "hidden"},
		{"env.md", inWS, "hidden"},
		{"../.env", engine.Paths{Workspace: ws, AllowOutside: true}, "hidden"},
		{"fifo.md", inWS, "not a regular file"},

		{"prompt.md", engine.Paths{}, ""},
		{"../prompts/shared.md", inWS, ""},
		{"../../x.md", engine.Paths{Workspace: ws, AllowOutside: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			done := make(chan struct{})
			var f engine.Factory
			var err error
			go func() {
				defer close(done)
				f, _, err = rt.FactoryIn(modelBenchmark("local", tt.prompt), bench, tt.paths, nil)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("reading the prompt hangs")
			}
			if tt.want == "" {
				if err != nil || f == nil {
					t.Fatalf("FactoryIn: %v", err)
				}
				return
			}
			if err == nil || f != nil {
				t.Fatalf("FactoryIn = %v, %v; want a refusal", f != nil, err)
			}
			if !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "SECRET") {
				t.Errorf("err = %q, want it to say %q and show nothing of the file", err, tt.want)
			}
		})
	}
}

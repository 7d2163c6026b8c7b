package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/benchy-eval/benchy/ir"
)

// TestOneRuntimeRuleNearest: a benchmark binds through the nearest runtime file at or above
// its folder, never one above the workspace; a folder of that name does not count.
func TestOneRuntimeRuleNearest(t *testing.T) {
	fsys := fstest.MapFS{
		"benchy.runtime.yaml":          {Data: []byte("bindings: {}\n")},
		"a/benchy.runtime.yaml":        {Data: []byte("bindings: {}\n")},
		"a/b/c/x.yaml":                 {},
		"d/benchy.runtime.yaml/x.yaml": {}, // a folder named like the runtime file
	}
	tests := []struct{ dir, want string }{
		{".", "benchy.runtime.yaml"},
		{"a", "a/benchy.runtime.yaml"},
		{"a/b/c", "a/benchy.runtime.yaml"},
		{"d", "benchy.runtime.yaml"},
		{"e/f", "benchy.runtime.yaml"}, // a folder that does not exist: the rule still holds
	}
	for _, tt := range tests {
		if got, ok := Runtime(fsys, tt.dir); !ok || got != tt.want {
			t.Errorf("Runtime(%q) = %q %v, want %q", tt.dir, got, ok, tt.want)
		}
	}
	for _, dir := range []string{"..", "/a", "a/../.."} {
		if got, ok := Runtime(fsys, dir); ok {
			t.Errorf("Runtime(%q) = %q, want none: not a workspace path", dir, got)
		}
	}
	// The server's workspace is ws/inner: the runtime file of ws is above it.
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "benchy.runtime.yaml"), []byte("bindings: {}\n"), 0o644)
	os.MkdirAll(filepath.Join(ws, "inner", "sub"), 0o755)
	if got, ok := Runtime(os.DirFS(filepath.Join(ws, "inner")), "sub"); ok {
		t.Errorf("Runtime found %q above the workspace", got)
	}
}

// TestOneRuntimeRuleCLI: `benchy run`'s default is the same rule within the workspace Find
// gives, named as before (the benchmark's folder as given, or the workspace's absolute path).
func TestOneRuntimeRuleCLI(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{".benchy", "sub/deeper", "own"} {
		os.MkdirAll(filepath.Join(ws, d), 0o755)
	}
	if _, ok := RuntimeOf(filepath.Join(ws, "sub")); ok {
		t.Error("a runtime file found in a workspace that has none")
	}
	os.WriteFile(filepath.Join(ws, "benchy.runtime.yaml"), nil, 0o644)
	os.WriteFile(filepath.Join(ws, "own", "benchy.runtime.yaml"), nil, 0o644)
	t.Chdir(ws)
	tests := []struct{ dir, want string }{
		{filepath.Join(ws, "sub", "deeper"), filepath.Join(ws, "benchy.runtime.yaml")},
		{"sub", filepath.Join(ws, "benchy.runtime.yaml")},
		{"own", filepath.Join("own", "benchy.runtime.yaml")},
		{".", "benchy.runtime.yaml"},
	}
	for _, tt := range tests {
		if got, ok := RuntimeOf(tt.dir); !ok || got != tt.want {
			t.Errorf("RuntimeOf(%q) = %q %v, want %q", tt.dir, got, ok, tt.want)
		}
	}
	if got, ok := Find(filepath.Join(ws, "own")); !ok || got != filepath.Join(ws, "own") {
		t.Errorf("Find(own) = %q %v: a runtime file marks a workspace", got, ok)
	}
}

// TestOneRuntimeRuleMessage: the one message for a benchmark no runtime file binds.
func TestOneRuntimeRuleMessage(t *testing.T) {
	tests := []struct {
		sys  ir.AISystem
		want string
	}{
		{ir.AISystem{Type: ir.SystemExternal, ID: "x"}, "no benchy.runtime.yaml binds the ai-system x: "},
		{ir.AISystem{Type: ir.SystemModel, Provider: "oa"}, "no benchy.runtime.yaml binds the provider oa: "},
	}
	for _, tt := range tests {
		if got := NoRuntime(tt.sys); !strings.HasPrefix(got, tt.want) {
			t.Errorf("NoRuntime(%+v) = %q", tt.sys, got)
		}
	}
}

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
// its folder, never one above the workspace; anything of that name counts, a folder too (it
// is then refused when read, not passed over for the one above).
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
		{"d", "d/benchy.runtime.yaml"},
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
	if gotWS, p, _ := RuntimeOf(filepath.Join(ws, "sub")); p != "" || gotWS != ws {
		t.Errorf("RuntimeOf in a workspace without a runtime file = %q %q", gotWS, p)
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
		if gotWS, p, got := RuntimeOf(tt.dir); p == "" || got != tt.want || gotWS != ws {
			t.Errorf("RuntimeOf(%q) = %q %q %q, want %q in %q", tt.dir, gotWS, p, got, tt.want, ws)
		}
	}
	if got, ok := Find(filepath.Join(ws, "own")); !ok || got != ws {
		t.Errorf("Find(own) = %q %v: the store marks the workspace, a subfolder's runtime file does not", got, ok)
	}
}

// TestFindOutermost: the workspace is the outermost folder with a store, else the outermost
// with a runtime file; never a subfolder that has a runtime file of its own (`benchy run`
// took it for a workspace: its data confined to it, its runs in a store the server never
// reads), nor one whose store a run made before the folder above had one (which then won
// for good, though the server recorded the same benchmark's runs above).
func TestFindOutermost(t *testing.T) {
	ws := t.TempDir()
	deep := filepath.Join(ws, "sub", "deep")
	os.MkdirAll(deep, 0o755)
	os.WriteFile(filepath.Join(ws, "sub", "benchy.runtime.yaml"), nil, 0o644)
	if got, ok := Find(deep); !ok || got != filepath.Join(ws, "sub") {
		t.Errorf("Find(sub/deep), only sub has a runtime file = %q %v, want sub", got, ok)
	}
	os.WriteFile(filepath.Join(ws, "benchy.runtime.yaml"), nil, 0o644)
	if got, ok := Find(deep); !ok || got != ws {
		t.Errorf("Find(sub/deep) = %q %v, want %q", got, ok, ws)
	}
	os.Mkdir(filepath.Join(ws, "sub", ".benchy"), 0o755) // a run recorded in sub first
	if got, ok := Find(deep); !ok || got != filepath.Join(ws, "sub") {
		t.Errorf("Find(sub/deep) with only sub/.benchy = %q %v, want sub", got, ok)
	}
	os.Mkdir(filepath.Join(ws, ".benchy"), 0o755) // then the server served ws
	if got, ok := Find(deep); !ok || got != ws {
		t.Errorf("Find(sub/deep) with .benchy and sub/.benchy = %q %v, want %q", got, ok, ws)
	}
	if got, ok := Find(t.TempDir()); ok {
		t.Errorf("Find in no workspace = %q", got)
	}
}

// TestOneRuntimeRuleUnreadable: a runtime file that cannot be used where the rule finds it
// (a link leading out of the workspace, a folder) is an error for `benchy run`, as it is for
// the server; it never binds through the runtime file above it, nor through the link.
func TestOneRuntimeRuleUnreadable(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	os.MkdirAll(filepath.Join(ws, ".benchy"), 0o755)
	os.MkdirAll(filepath.Join(ws, "dir", "benchy.runtime.yaml"), 0o755)
	os.MkdirAll(filepath.Join(ws, "link"), 0o755)
	os.WriteFile(filepath.Join(ws, "benchy.runtime.yaml"), []byte("bindings:\n  root: {command: [sh]}\n"), 0o644)
	os.WriteFile(filepath.Join(base, "outside.yaml"), []byte("bindings:\n  outside: {command: [sh]}\n"), 0o644)
	if err := os.Symlink(filepath.Join(base, "outside.yaml"), filepath.Join(ws, "link", "benchy.runtime.yaml")); err != nil {
		t.Skip(err)
	}
	for dir, why := range map[string]string{"link": "is a link leading out of the workspace", "dir": "not a regular file"} {
		rt, name, err := RuntimeFor("", filepath.Join(ws, dir, "b.yaml"))
		if err == nil || rt != nil || !strings.Contains(err.Error(), filepath.Join(dir, "benchy.runtime.yaml")+" "+why) && !strings.Contains(err.Error(), why) {
			t.Errorf("%s: RuntimeFor = %v %q %v, want an error naming %s's runtime file and %q", dir, rt.Names(), name, err, dir, why)
		}
		if err != nil && strings.Count(err.Error(), "benchy.runtime.yaml") != 1 {
			t.Errorf("%s: %v: the path said more than once", dir, err)
		}
	}
	if rt, _, err := RuntimeFor("", filepath.Join(ws, "b.yaml")); err != nil || len(rt.Names()) != 1 || rt.Names()[0] != "root" {
		t.Errorf("the workspace's own runtime file: %v %v", rt.Names(), err)
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

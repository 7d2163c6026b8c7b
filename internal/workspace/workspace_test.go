package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/benchy-eval/benchy/adapter"
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

// TestFindNearest: the workspace is the nearest folder with a store, else the nearest with a
// runtime file, links resolved. A subfolder's runtime file does not make it a workspace
// once the folder above has a store (benchy run took it for one: its data confined to it,
// its runs in a store the server never reads); and a store or runtime file higher up (a
// stray or planted one in $HOME) never takes a project that has its own store: outermost
// rules let it widen what the run reads, bind the project's benchmarks through its
// commands, and take its runs.
func TestFindNearest(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	deep := filepath.Join(proj, "sub", "deep")
	os.MkdirAll(deep, 0o755)
	sub := filepath.Join(proj, "sub")
	os.WriteFile(filepath.Join(sub, "benchy.runtime.yaml"), nil, 0o644)
	tests := []struct {
		what  string
		setup string // a file or folder (ending in /) made before the check
		want  string
	}{
		{"only sub has a runtime file", "", sub},
		{"the project is served", "proj/.benchy/", proj},
		{"a stray store above", ".benchy/", proj},
		{"a stray runtime file above", "benchy.runtime.yaml", proj},
	}
	for _, tt := range tests {
		if tt.setup != "" {
			p := filepath.Join(home, filepath.FromSlash(tt.setup))
			if strings.HasSuffix(tt.setup, "/") {
				os.MkdirAll(p, 0o755)
			} else {
				os.WriteFile(p, nil, 0o644)
			}
		}
		if got, ok := Find(deep); !ok || got != tt.want {
			t.Errorf("%s: Find(proj/sub/deep) = %q %v, want %q", tt.what, got, ok, tt.want)
		}
	}
	// Through a link to the project: the real folders above count, not the link's.
	links := t.TempDir()
	os.Mkdir(filepath.Join(links, ".benchy"), 0o755)
	if err := os.Symlink(proj, filepath.Join(links, "proj")); err == nil {
		if got, ok := Find(filepath.Join(links, "proj", "sub")); !ok || got != proj {
			t.Errorf("Find through a link = %q %v, want %q", got, ok, proj)
		}
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
	// A link inside the workspace, to a file of another name (which the server would save).
	os.MkdirAll(filepath.Join(ws, "inlink"), 0o755)
	os.Symlink("../benchy.runtime.yaml", filepath.Join(ws, "inlink", "benchy.runtime.yaml"))
	for dir, why := range map[string]string{"link": "is a link", "inlink": "is a link", "dir": "not a regular file"} {
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

// TestLoadRuntimeTooLarge: a runtime file over the parser's bound is refused with the same
// diagnostic whether benchy run reads it by path (adapter.LoadRuntime) or the rule finds it
// in a workspace (LoadRuntime); the second read 8 MiB under a bound of its own.
func TestLoadRuntimeTooLarge(t *testing.T) {
	ws := t.TempDir()
	big := filepath.Join(ws, "benchy.runtime.yaml")
	os.WriteFile(big, []byte("bindings: {}\n"+strings.Repeat("#", 9<<20)+"\n"), 0o644)
	root, err := os.OpenRoot(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	_, inWS := LoadRuntime(root, "benchy.runtime.yaml", big)
	_, byPath := adapter.LoadRuntime(big)
	if inWS == nil || byPath == nil || inWS.Error() != byPath.Error() || !strings.Contains(inWS.Error(), "invalid_runtime") {
		t.Errorf("in the workspace: %v\nby path: %v\nwant the same invalid_runtime diagnostic", inWS, byPath)
	}
}

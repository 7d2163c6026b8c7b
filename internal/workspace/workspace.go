package workspace

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// Find returns the workspace a benchmark or a command in dir belongs to: the nearest folder
// from dir up to the filesystem root that has a .benchy folder or a runtime file.
func Find(dir string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if info, err := os.Stat(filepath.Join(dir, store.Dir)); err == nil && info.IsDir() {
			return dir, true
		}
		if info, err := os.Stat(filepath.Join(dir, adapter.RuntimeFile)); err == nil && !info.IsDir() {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Runtime returns the runtime file a benchmark in folder dir of workspace fsys binds
// through: the nearest at or above dir, never above fsys's root. dir and the path returned
// are slash-separated paths of fsys ("." is its root). A folder named like the runtime file
// does not count; any other file does, so that one that cannot be read is reported rather
// than passed over for the one above it.
func Runtime(fsys fs.FS, dir string) (string, bool) {
	if !fs.ValidPath(dir) {
		return "", false
	}
	for {
		p := path.Join(dir, adapter.RuntimeFile)
		if info, err := fs.Stat(fsys, p); err == nil && !info.IsDir() {
			return p, true
		}
		if dir == "." {
			return "", false
		}
		dir = path.Dir(dir)
	}
}

// RuntimeOf returns the runtime file a benchmark in folder dir binds through by default:
// Runtime within its workspace (Find). The name is dir's own runtime file as dir spells it,
// or an absolute path to the one above; false when dir is in no workspace or none binds it.
func RuntimeOf(dir string) (string, bool) {
	ws, ok := Find(dir)
	if !ok {
		return "", false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(ws, abs)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	p, ok := Runtime(os.DirFS(ws), rel)
	switch {
	case !ok:
		return "", false
	case path.Dir(p) == rel:
		return filepath.Join(dir, adapter.RuntimeFile), true
	}
	return filepath.Join(ws, filepath.FromSlash(p)), true
}

// NoRuntime says that no runtime file binds sys: the one message for a benchmark with none
// at or above its folder, in the CLI (which adds its --runtime flag) and in the server.
func NoRuntime(sys ir.AISystem) string {
	what := "the ai-system " + sys.ID
	if sys.Type == ir.SystemModel {
		what = "the provider " + sys.Provider
	}
	return "no " + adapter.RuntimeFile + " binds " + what + ": write one beside the benchmark, or in a folder above it within its workspace"
}

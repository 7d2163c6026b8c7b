package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// Find returns the workspace a benchmark or a command in dir belongs to: the nearest folder
// at or above dir (links resolved) that has a store (a .benchy folder), or else the nearest
// that has a runtime file. A store marks a workspace for good (the server makes one in its
// --workspace), so a subfolder's own runtime file does not make it a workspace of its own
// once the folder above has been served. Nearest, never outermost: a stray or planted store
// or runtime file higher up ($HOME, /tmp) must not widen what a run may read, bind a
// project's benchmarks through its commands, or take its runs.
func Find(dir string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real // the folders above are the real folder's, as the files' links resolve
	}
	bound := ""
	for {
		if info, err := os.Stat(filepath.Join(dir, store.Dir)); err == nil && info.IsDir() {
			return dir, true
		}
		if bound == "" && exists(os.DirFS(dir), adapter.RuntimeFile) {
			bound = dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return bound, bound != ""
		}
		dir = parent
	}
}

// exists reports whether fsys has an entry named p in any form: a file, a folder, a link
// (one leading nowhere, or out of fsys, too), or one that cannot be looked at.
func exists(fsys fs.FS, p string) bool {
	_, err := fs.Lstat(fsys, p)
	return !errors.Is(err, fs.ErrNotExist)
}

// Runtime returns the runtime file a benchmark in folder dir of workspace fsys binds
// through: the nearest at or above dir, never above fsys's root. dir and the path returned
// are slash-separated paths of fsys ("." is its root). Anything by the runtime file's name
// counts (a folder, a link, a file that cannot be read): reading it then says what is
// wrong, rather than the benchmark silently binding through the one above.
func Runtime(fsys fs.FS, dir string) (string, bool) {
	if !fs.ValidPath(dir) {
		return "", false
	}
	for {
		p := path.Join(dir, adapter.RuntimeFile)
		if exists(fsys, p) {
			return p, true
		}
		if dir == "." {
			return "", false
		}
		dir = path.Dir(dir)
	}
}

// RuntimeOf finds the runtime file a benchmark in folder dir binds through by default:
// Runtime within its workspace (Find). It returns the workspace, the runtime file's slash
// path inside it, and its name for messages: dir's own runtime file as dir spells it, or
// an absolute path to the one above. ws is "" when dir is in no workspace; p is "" when
// none binds it.
func RuntimeOf(dir string) (ws, p, name string) {
	ws, ok := Find(dir)
	if !ok {
		return "", "", ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ws, "", ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real // as Find found ws
	}
	rel, err := filepath.Rel(ws, abs)
	if err != nil {
		return ws, "", ""
	}
	rel = filepath.ToSlash(rel)
	root, err := os.OpenRoot(ws)
	if err != nil {
		return ws, "", ""
	}
	defer root.Close()
	p, ok = Runtime(root.FS(), rel)
	switch {
	case !ok:
		return ws, "", ""
	case path.Dir(p) == rel:
		return ws, p, filepath.Join(dir, adapter.RuntimeFile)
	}
	return ws, p, filepath.Join(ws, filepath.FromSlash(p))
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

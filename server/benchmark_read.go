package server

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
)

// A benchmark is read through the API by the rule its saves and the artifacts follow: no
// runtime file, by any name. GET /api/benchmarks/{path} refuses, and the listing leaves
// out, a file with more than one name (a hard link may be the runtime file's, .env's, or a
// file's outside the workspace: links_unix.go), a symbolic link leading to what is no
// benchmark path (the runtime file, a hidden file, a file of another kind), and a text that
// is a runtime file (bindings, providers or executors at its top: runtimeLike, as a save is refused).
// A refusal says which rule, never a byte of the file.

// readBenchmark reads benchmark p of the workspace for the API, with its version, unless a
// rule above refuses it (an *apiError); other errors are the file system's (fileError).
// Its text is compiled afterwards (checkBenchmarkText) by the caller, which needs the
// compile anyway.
func (s *Server) readBenchmark(p string) ([]byte, fs.FileInfo, error) {
	if engine.IsPrivate(p) { // the runtime file in another case: the same file on macOS
		return nil, nil, refuse(http.StatusBadRequest, api.BadPath, badPathMessage)
	}
	src, version, err := s.readRegular(p, s.maxBenchmarkFile())
	if err != nil {
		return nil, nil, err
	}
	if engine.ManyLinks(version) {
		return nil, nil, privateFile("%s has more than one name (a hard link), and may be another file (the runtime file, a hidden or private one): it is not read through the API", p)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(s.dir, filepath.FromSlash(p)))
	if err != nil {
		return nil, nil, refuse(http.StatusConflict, api.Unreadable, "%s changed while it was read", p)
	}
	if li, err := os.Lstat(real); err != nil || !os.SameFile(li, version) {
		return nil, nil, refuse(http.StatusConflict, api.Unreadable, "%s changed while it was read", p)
	}
	if rel, ok := s.workspaceRel(real); !ok || !validBenchmarkPath(rel) || engine.IsPrivate(rel) {
		return nil, nil, privateFile("%s is a link to a file that is no benchmark (the runtime file, a hidden file, or a file of another kind): it is not read through the API", p)
	}
	return src, version, nil
}

// benchmarkSource is readBenchmark for a handler: its refusal, or the file system's error
// as fileError words it.
func (s *Server) benchmarkSource(p string) ([]byte, fs.FileInfo, error) {
	src, version, err := s.readBenchmark(p)
	if refusal := (*apiError)(nil); err != nil && !errors.As(err, &refusal) {
		err = fileError("benchmark", p, err)
	}
	return src, version, err
}

// checkBenchmarkText refuses benchmark p, of text src, whose compile, ds, says it is a
// runtime file (runtimeLike).
func checkBenchmarkText(p string, src []byte, ds []api.Diagnostic) error {
	if runtimeLike(src, ds) || ds == nil && adapter.RuntimeText(src) {
		return privateFile("%s is a runtime file under another name (bindings, providers or executors at its top), which benchy run --runtime FILE reads: it is not read through the API", p)
	}
	return nil
}

// privateFile is the answer 403 private_file.
func privateFile(format string, args ...any) *apiError {
	return refuse(http.StatusForbidden, api.PrivateFile, format, args...)
}

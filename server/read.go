package server

import (
	"errors"
	"io/fs"
	"net/http"
	"os"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	ws "github.com/benchy-eval/benchy/internal/workspace"
)

// Workspace files are opened without blocking and checked to be regular files before a
// byte is read: a FIFO named benchmark.yaml would otherwise hold a request (and its
// goroutine and file descriptor) until something writes to it, and a device would never
// end. A file over the size the request may read is refused unread.

// openRegular opens a regular file of the workspace for reading.
func (s *Server) openRegular(p string) (*os.File, fs.FileInfo, error) {
	return engine.OpenRegularIn(s.wsRoot, p)
}

// readRegular reads a regular file of the workspace of at most max bytes, with the
// version (size, modification time) it was read at.
func (s *Server) readRegular(p string, max int64) ([]byte, fs.FileInfo, error) {
	return ws.ReadFile(s.wsRoot, p, max)
}

// maxBenchmarkFile is the largest benchmark file the server reads: what it would take in a
// save.
func (s *Server) maxBenchmarkFile() int64 { return s.cfg.MaxBody }

// fileError is the answer to a failed read of workspace file p (a workspace path, safe to
// show); what describes it ("benchmark").
func fileError(what, p string, err error) *apiError {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return refuse(http.StatusNotFound, api.NotFound, "no %s %s", what, p)
	case errors.Is(err, engine.ErrNotRegular):
		return refuse(http.StatusUnprocessableEntity, api.NotRegular, "%s is not a regular file", p)
	case errors.Is(err, ws.ErrRuntimeLink):
		return refuse(http.StatusForbidden, api.Unreadable, "%s is a link: the server reads a runtime file only as a file of its own, never the file a link leads to (which it would save under another name)", p)
	case errors.Is(err, ws.ErrLinkOut):
		return refuse(http.StatusForbidden, api.Unreadable, "%s is a link leading out of the workspace: the server does not read it", p)
	case errors.Is(err, ws.ErrTooLarge):
		return refuse(http.StatusRequestEntityTooLarge, api.TooLarge, "%s is larger than the server reads", p)
	}
	return refuse(http.StatusForbidden, api.Unreadable, "cannot read %s inside the workspace", p)
}

package server

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"

	"github.com/benchy-eval/benchy/api"
)

// Workspace files are opened without blocking and checked to be regular files before a
// byte is read: a FIFO named benchmark.yaml would otherwise hold a request (and its
// goroutine and file descriptor) until something writes to it, and a device would never
// end. A file over the size the request may read is refused unread.

var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = errors.New("over the size limit")
)

// openRegular opens a regular file of the workspace for reading.
func (s *Server) openRegular(p string) (*os.File, fs.FileInfo, error) {
	f, err := s.wsRoot.OpenFile(p, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, errNotRegular
	}
	return f, info, nil
}

// readRegular reads a regular file of the workspace of at most max bytes, with the
// version (size, modification time) it was read at.
func (s *Server) readRegular(p string, max int64) ([]byte, fs.FileInfo, error) {
	f, info, err := s.openRegular(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if info.Size() > max {
		return nil, nil, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > max {
		return nil, nil, errTooLarge // it grew while read
	}
	return data, info, nil
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
	case errors.Is(err, errNotRegular):
		return refuse(http.StatusUnprocessableEntity, api.NotRegular, "%s is not a regular file", p)
	case errors.Is(err, errTooLarge):
		return refuse(http.StatusRequestEntityTooLarge, api.TooLarge, "%s is larger than the server reads", p)
	}
	return refuse(http.StatusForbidden, api.Unreadable, "cannot read %s inside the workspace", p)
}

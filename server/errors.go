package server

import (
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/benchy-eval/benchy/api"
)

// internalError answers a failure of the server itself: the client gets the code and a
// plain sentence, the log gets the error (whose text may hold the server's own paths).
func (s *Server) internalError(w http.ResponseWriter, code api.Code, err error) {
	s.logf("%s: %v", code, err)
	writeError(w, http.StatusInternalServerError, code, "the server failed ("+strings.ReplaceAll(string(code), "_", " ")+"); its log says why")
}

// absPath finds absolute paths in a message: a slash after the start, a space or a quote,
// up to the next space, quote or bracket.
var absPath = regexp.MustCompile(`(^|[\s"'(\[=])(/[^\s"'()\[\],;]*)`)

// relative rewrites the absolute paths in a message sent to clients: a path inside the
// workspace becomes relative to it, any other its last element. Error texts of the
// adapters and the operating system name files by absolute path; the server's own layout
// is no business of its clients.
func (s *Server) relative(msg string) string {
	return absPath.ReplaceAllStringFunc(msg, func(m string) string {
		i := strings.IndexByte(m, '/')
		lead, p := m[:i], m[i:]
		for _, dir := range s.dirs {
			if p == dir {
				return lead + "."
			}
			if rel, ok := strings.CutPrefix(p, dir+string(filepath.Separator)); ok {
				return lead + filepath.ToSlash(rel)
			}
		}
		if p == "/" {
			return m
		}
		return lead + filepath.Base(p)
	})
}

// logf writes a note of the server to its log.
func (s *Server) logf(format string, args ...any) {
	fmt.Fprintf(s.cfg.Log, "benchy serve: "+format+"\n", args...)
}

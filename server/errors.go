package server

import (
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
)

// errorCodes are the codes of the API's error answers ({"error": {"code", "message"}}),
// each with its meaning: the one registry, as diag.Codes is for diagnostics. A test fails
// when a handler answers with a code that is not here. Diagnostic codes (diag.Codes) are
// used as they are where an answer is about a benchmark or the runtime file.
var errorCodes = map[string]string{
	"bad_format":           "an export format other than json, jsonl or csv",
	"bad_path":             "a workspace path that is not relative, has .. or a hidden folder, or is the wrong kind of file",
	"bad_request":          "a request body or query that is not what the endpoint takes",
	"busy":                 "more raw uploads at once than the server streams (half its connections); retry after Retry-After",
	"binding_unusable":     "the runtime file defines the AI-system, but it cannot be used here (a key's variable unset, say)",
	"cross_origin":         "a browser request whose Origin is not one of this server's own origins",
	"different_benchmarks": "two runs of different IRs cannot be compared",
	"different_lengths":    "two runs of different numbers of examples cannot be compared",
	"executable":           "the upload or save would replace an executable file",
	"forbidden_host":       "the Host header does not name this server (DNS rebinding, or a name not given with --allowed-host)",
	"internal":             "the server failed; its log says why",
	"invalid_benchmark":    "a run of a benchmark that does not compile",
	"json_required":        "a state-changing request whose body is not application/json (or octet-stream, for an upload)",
	"not_benchmark_data":   "an upload or save of a file the API does not write: code, configuration, or an unknown type",
	"not_completed":        "a comparison of a run that is not completed",
	"not_finished":         "a JSON export of a run without a report",
	"not_found":            "no such endpoint, benchmark or run",
	"not_regular":          "a workspace path that is not a regular file (a FIFO, a device, a folder)",
	"not_resumable":        "a resume of a run that is neither interrupted nor cancelled",
	"not_running":          "a cancel of a run that is neither queued nor running",
	"other_process":        "a cancel of a run another live process (a benchy run) executes: stop it there",
	"out_of_step":          "two runs whose examples do not line up",
	"queue_full":           "a run beyond the queue's bound (MaxQueued waiting beside --max-runs running); retry after Retry-After",
	"runs_program":         "the upload or save would replace a file a binding's command names",
	"shutting_down":        "the server is stopping and takes no more runs",
	"store_error":          "the run store failed; the server's log says why",
	"too_large":            "a request body or workspace file over the server's limit",
	"unauthorized":         "the server has a token and the request does not carry it",
	"unchecked":            "an upload or save the server cannot check against what the bindings run (too many files to walk, a runtime file too large)",
	"unreadable":           "a workspace file that cannot be read",
	"unwritable":           "a workspace file that cannot be written",
}

// internalError answers a failure of the server itself: the client gets the code and a
// plain sentence, the log gets the error (whose text may hold the server's own paths).
func (s *Server) internalError(w http.ResponseWriter, code string, err error) {
	s.logf("%s: %v", code, err)
	writeError(w, http.StatusInternalServerError, code, "the server failed ("+strings.ReplaceAll(code, "_", " ")+"); its log says why")
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

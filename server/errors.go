package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// The API's handlers return an error rather than write one (pkgsite's errorHandler): an
// *apiError is an answer of ours, safe to show; a *serverError, or any error of no kind
// answerError knows, is a failure of the server itself, whose text (an os or sqlite error,
// with the server's paths) is no business of its clients. answerError is the one place
// that turns either into an answer.

// apiError is an answer the API gives on purpose: a 4xx (or a 503, 429) with a registered
// code and a sentence for people.
type apiError struct {
	status  int
	code    api.Code
	message string
	body    any    // the whole answer, when it says more than the error (a benchmark's diagnostics)
	retry   string // Retry-After, in seconds
}

func (e *apiError) Error() string { return e.message }

// refuse is an answer of ours: status, a code registered in api.Codes (or a diagnostic's),
// and the message.
func refuse(status int, code api.Code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
}

// serverError is a failure of the server itself, answered 500 with its code.
type serverError struct {
	code api.Code // api.Internal or api.StoreError
	err  error
}

func (e *serverError) Error() string { return e.err.Error() }
func (e *serverError) Unwrap() error { return e.err }

// internalError is a failure of the server's own code.
func internalError(err error) error { return &serverError{code: api.Internal, err: err} }

// storeError is a failure of the run store, unless it is a run not found (a 404) or a part
// of an id several runs share (a 400): answerError looks through it.
func storeError(err error) error { return &serverError{code: api.StoreError, err: err} }

// handler is an API handler: it answers, or returns why it could not.
type handler func(w http.ResponseWriter, r *http.Request) error

// handle makes h an http.Handler whose errors answerError answers.
func (s *Server) handle(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.answerError(w, r, err)
		}
	}
}

// answerError is the one table from errors to answers: ours as they are, a run the store
// does not have as 404, a part of an id several runs share as 400 (store.FindRun's), the run manager's refusals as 503 and 429; anything else is the
// server's failure, logged with a new request id and answered 500 with its code, the
// message "internal error" and that id (also the X-Request-Id header), never its text.
func (s *Server) answerError(w http.ResponseWriter, r *http.Request, err error) {
	var e *apiError
	var failed *serverError
	switch {
	case errors.As(err, &e):
	case errors.Is(err, store.ErrNotFound):
		e = refuse(http.StatusNotFound, api.NotFound, "%s", err.Error()) // "run ID: no such run"
	case errors.Is(err, store.ErrAmbiguous):
		e = refuse(http.StatusBadRequest, api.BadRequest, "%s", err.Error()) // "run ID: names several runs (...): give more of its id"
	case errors.Is(err, errClosing):
		e = refuse(http.StatusServiceUnavailable, api.ShuttingDown, "%s", err.Error())
	case errors.Is(err, errQueueFull):
		e = refuse(http.StatusTooManyRequests, api.QueueFull, "%d runs wait to start beside the %d running, the most this server queues; retry once one has started", MaxQueued, s.cfg.MaxRuns)
		e.retry = queueFullRetry
	default:
		code := api.Internal
		if errors.As(err, &failed) {
			code = failed.code
		}
		id := requestID()
		s.logf("request %s: %s %s: %s: %v", id, r.Method, r.URL.Path, code, err)
		w.Header().Set("X-Request-Id", id)
		writeJSON(w, http.StatusInternalServerError, api.Error{Error: api.ErrorDetail{Code: code, Message: "internal error", RequestID: id}})
		return
	}
	if e.retry != "" {
		w.Header().Set("Retry-After", e.retry)
	}
	if e.body != nil {
		writeJSON(w, e.status, e.body)
		return
	}
	writeError(w, e.status, e.code, e.message)
}

// requestID names one failed request in the server's log and in its answer: 16 hex digits.
func requestID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
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
	fmt.Fprintf(s.cfg.Log, "benchy: "+format+"\n", args...)
}

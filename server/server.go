package server

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// Config configures a server.
type Config struct {
	Workspace string // the directory served; "" means the working directory
	Addr      string // host:port to listen on
	Token     string // required as "Authorization: Bearer <token>" when set; MinTokenLength at least
	MaxBody   int64  // bytes a request body may have; 0 means DefaultMaxBody
	MaxRuns   int    // runs executing at once, MaxQueued more queued; 0 means DefaultMaxRuns
	MaxConns  int    // connections open at once (Listen); 0 means DefaultMaxConns
	// AllowedHosts are names the server answers to beyond its own address (see hosts.go):
	// NAME at any port, NAME:PORT at that port only. A reverse proxy's name goes here.
	AllowedHosts []string
	// Log receives the stderr of the AI-systems' commands, line by line, and the server's
	// own notes (runs found interrupted at start). Nil: discarded.
	Log io.Writer
}

// DefaultAddr is loopback: nothing outside this machine can reach a server by default.
const (
	DefaultAddr     = "127.0.0.1:8080"
	DefaultMaxBody  = 8 << 20
	DefaultMaxRuns  = 2
	DefaultMaxConns = 2048
	MinTokenLength  = 16 // characters: with the 62 of letters and digits, over 95 bits
)

// Server serves one workspace.
type Server struct {
	cfg     Config
	dir     string   // the workspace, absolute: runs resolve data and artifacts against it
	dirs    []string // dir, and its real path when that differs: what clients never see
	wsRoot  *os.Root // dir opened as an os.Root: the file handlers reach the workspace through it
	st      *store.Store
	runs    *manager
	mux     *http.ServeMux
	hosts   *hostPolicy
	rows    rowCache     // where each example of a dataset starts, for pages of results
	chartsC chartsCache  // completed runs' charts (charts.go)
	lists   compileCache // each benchmark file's listing entry, by version
	cmps    compareCache // comparisons of finished runs

	uploads chan struct{} // a slot per raw upload streaming (maxUploads)
	reports chan struct{} // a slot per HTML report being built (maxReports)

	closeOnce sync.Once
	closeErr  error
}

// ErrTokenRequired is returned by New for a non-loopback address without a token.
var ErrTokenRequired = errors.New("listening beyond loopback needs a token (--token or BENCHY_TOKEN)")

// ErrTokenShort is returned by New for a token shorter than MinTokenLength: a short one is
// guessed.
var ErrTokenShort = fmt.Errorf("a token needs at least %d characters (make one with: openssl rand -hex 16)", MinTokenLength)

// New checks the configuration and opens the workspace and its run store. Runs the store
// shows as queued or running belonged to a server that is gone: they become interrupted,
// ready to resume.
func New(cfg Config) (*Server, error) {
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Workspace == "" {
		cfg.Workspace = "."
	}
	if cfg.MaxRuns <= 0 {
		cfg.MaxRuns = DefaultMaxRuns
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	loopback, err := isLoopback(cfg.Addr)
	if err != nil {
		return nil, err
	}
	if !loopback && cfg.Token == "" {
		return nil, ErrTokenRequired
	}
	if cfg.Token != "" && utf8.RuneCountInString(cfg.Token) < MinTokenLength {
		return nil, ErrTokenShort
	}
	hosts, err := newHostPolicy(cfg.Addr, cfg.AllowedHosts)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(cfg.Workspace)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	wsRoot, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	st, err := openStore(wsRoot, dir)
	if err != nil {
		wsRoot.Close()
		return nil, err
	}
	// Only stale runs: a run another live process executes (a benchy run in this workspace)
	// keeps going.
	n, err := st.MarkInterrupted()
	if err != nil {
		st.Close()
		wsRoot.Close()
		return nil, fmt.Errorf("run store: %w", err)
	}
	if n > 0 {
		fmt.Fprintf(cfg.Log, "benchy: %d run(s) whose process is gone were marked interrupted; resume them with POST /api/runs/{id}/resume\n", n)
	}
	s := &Server{cfg: cfg, dir: dir, dirs: []string{dir}, wsRoot: wsRoot, st: st, mux: http.NewServeMux(), hosts: hosts}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		s.dirs = append(s.dirs, real)
	}
	s.uploads = make(chan struct{}, s.maxUploads())
	s.reports = make(chan struct{}, maxReports)
	s.removeStaleTemps()
	s.runs = newManager(st, dir, cfg.MaxRuns, cfg.Log)
	s.resumeClusterRuns() // cluster.go: runs on executors whose jobs may still go on
	s.routes()
	return s, nil
}

// openStore opens the workspace's run store. Its folder must be a real folder of the
// workspace, not a link leading out of it.
func openStore(wsRoot *os.Root, dir string) (*store.Store, error) {
	folder := store.Dir
	if err := wsRoot.MkdirAll(folder, 0o755); err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	if info, err := wsRoot.Lstat(folder); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("run store: %s in the workspace is not a folder", folder)
	}
	st, err := store.Open(store.Path(dir))
	if err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	return st, nil
}

// Shutdown stops taking runs and ends the runs of this server: queued runs at once, running
// ones once the examples they have started are done and stored, or at ctx's deadline
// (then the examples still going are dropped). Every run it ends is interrupted, ready to
// resume; its results are flushed to the store. It returns ctx's error if the deadline cut
// examples short. Call it before the HTTP server's own Shutdown, so that event streams end.
func (s *Server) Shutdown(ctx context.Context) error { return s.runs.shutdown(ctx) }

// Close ends the runs still going at once (as Shutdown with no grace period), then closes
// the store and the workspace.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s.runs.shutdown(ctx)
		s.closeErr = errors.Join(s.st.Close(), s.wsRoot.Close())
	})
	return s.closeErr
}

// isLoopback reports whether addr's host is a loopback address or localhost.
func isLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// Handler is the server's HTTP handler, every safety check included: the Host and Origin
// of every request (hosts.go) come first, for the app's pages as for the API.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if code, msg, ok := s.hosts.check(r); !ok {
			s.answerError(w, r, refuse(http.StatusForbidden, code, "%s", msg))
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			// Every answer of the API is inert, the mux's own (a 405) too; a handler that
			// sends a document (the report) sets its own policy.
			w.Header().Set("Content-Security-Policy", artifactCSP)
			// The mux would redirect a path that is not clean (an artifact's "0/../x.png",
			// "0//x") with an HTML body of its own: it is refused instead.
			if p := r.URL.EscapedPath(); cleanPath(p) != p {
				s.answerError(w, r, refuse(http.StatusBadRequest, api.BadRequest, "the URL's path has a . or .. segment or an empty one (//): ask for the path itself"))
				return
			}
			if !s.authorized(r) {
				s.answerError(w, r, refuse(http.StatusUnauthorized, api.Unauthorized, "this server needs Authorization: Bearer <token>"))
				return
			}
			if changesState(r) && !bodyTypeAccepted(r) {
				s.answerError(w, r, refuse(http.StatusUnsupportedMediaType, api.JSONRequired, "send the request body as application/json (an upload may also be application/octet-stream)"))
				return
			}
			limit := s.cfg.MaxBody
			if isUpload(r) {
				limit = MaxUpload // streamed to disk, not held
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
			// url.Query drops a pair it cannot parse without a word (a raw ';', a bad
			// escape): a filter would vanish and an export would send the whole run.
			if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
				s.answerError(w, r, refuse(http.StatusBadRequest, api.BadRequest, "the query has a ';' or bad escape: %v; escape ';' as %%3B", err))
				return
			}
		}
		s.mux.ServeHTTP(w, r)
	})
}

// cleanPath is p as http.ServeMux cleans it before matching: path.Clean, keeping a
// trailing slash.
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}

func (s *Server) authorized(r *http.Request) bool {
	if s.cfg.Token == "" {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Token)) == 1
}

func changesState(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// bodyTypeAccepted: state changes send JSON, which a plain HTML form cannot; a file upload
// may send its raw bytes instead, which a form cannot either.
func bodyTypeAccepted(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "application/json") {
		return true
	}
	return isUpload(r) && strings.HasPrefix(ct, "application/octet-stream")
}

func isUpload(r *http.Request) bool {
	return r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, "/api/files/")
}

// writeError answers an error: code is registered in api.Codes, or a diagnostic's.
// Handlers return their errors instead (answerError writes them).
func writeError(w http.ResponseWriter, status int, code api.Code, message string) {
	if writeJSON(w, status, api.Error{Error: api.ErrorDetail{Code: code, Message: message}}) != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, unencodable)
	}
}

// unencodable is the answer when an error cannot be written as JSON.
const unencodable = `{"error":{"code":"internal","message":"internal error"}}` + "\n"

// writeJSON answers v as JSON with status. It encodes v before anything is sent, so that a
// value that cannot be encoded is returned as the server's failure (answered 500 by
// answerError), never sent as a 200 with an empty body.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return internalError(fmt.Errorf("the answer could not be written as JSON: %w", err))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	w.Write(buf.Bytes())
	return nil
}

// readJSON decodes a request body strictly: one JSON value (nothing after it), UTF-8, no
// key twice in an object, no field the request does not define, names matched exactly
// (encoding/json would take "YAML" for "yaml", and keep the last of two). A body over the
// limit is a 413.
func readJSON(r *http.Request, v any) error {
	body, err := readBody(r)
	if err != nil {
		return err
	}
	return decodeJSON(body, v)
}

// readOptionalJSON is readJSON for a body that may be left out: an empty one leaves v as
// it is.
func readOptionalJSON(r *http.Request, v any) error {
	body, err := readBody(r)
	if err != nil || len(bytes.TrimSpace(body)) == 0 {
		return err
	}
	return decodeJSON(body, v)
}

// readBody reads a request's body, answering one too large or cut short as the API does.
func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, refuse(http.StatusRequestEntityTooLarge, api.TooLarge, "the request body is larger than %d bytes", tooBig.Limit)
		}
		return nil, refuse(http.StatusBadRequest, api.BadRequest, "the request body could not be read (cut short, or too slow)")
	}
	return body, nil
}

// decodeJSON decodes a request body strictly: an unknown member is refused.
func decodeJSON(body []byte, v any) error {
	if err := jsonv2.Unmarshal(body, v, jsonv2.RejectUnknownMembers(true)); err != nil {
		return refuse(http.StatusBadRequest, api.BadRequest, "the request body is not the expected JSON: %s", jsonProblem(err))
	}
	return nil
}

// jsonProblem says what is wrong with a request body in the API's terms, not Go's.
func jsonProblem(err error) string {
	var syn *jsontext.SyntacticError
	var sem *jsonv2.SemanticError
	switch {
	case errors.As(err, &syn):
		msg := strings.TrimPrefix(syn.Err.Error(), "jsontext: ")
		if errors.Is(syn.Err, io.ErrUnexpectedEOF) {
			msg = "it is cut short"
		}
		if syn.JSONPointer != "" {
			msg += " at " + string(syn.JSONPointer)
		}
		return fmt.Sprintf("%s (after byte %d)", msg, syn.ByteOffset)
	case errors.As(err, &sem) && errors.Is(sem.Err, jsonv2.ErrUnknownName):
		return fmt.Sprintf("the request has no member %q", sem.JSONPointer.LastToken())
	case errors.As(err, &sem):
		where := string(sem.JSONPointer)
		if where == "" {
			where = "the top level"
		}
		return fmt.Sprintf("%s does not belong at %s", kindNames[sem.JSONKind], where)
	}
	return "it does not decode"
}

var kindNames = map[jsontext.Kind]string{'"': "a string", '0': "a number", '{': "an object", '[': "an array",
	't': "true", 'f': "false", 'n': "null", 0: "a value"}

package server

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/benchy-eval/benchy/store"
)

// Config configures a server.
type Config struct {
	Workspace string // the directory served; "" means the working directory
	Addr      string // host:port to listen on
	Token     string // required as "Authorization: Bearer <token>" when set
	MaxBody   int64  // bytes a request body may have; 0 means DefaultMaxBody
	MaxRuns   int    // runs executing at once, the rest queued; 0 means DefaultMaxRuns
	// Log receives the stderr of the AI-systems' commands, line by line, and the server's
	// own notes (runs found interrupted at start). Nil: discarded.
	Log io.Writer
}

// DefaultAddr is loopback: nothing outside this machine can reach a server by default.
const (
	DefaultAddr    = "127.0.0.1:8080"
	DefaultMaxBody = 8 << 20
	DefaultMaxRuns = 2
)

// Server serves one workspace.
type Server struct {
	cfg  Config
	dir  string // the workspace, absolute: runs resolve data and artifacts against it
	root *os.Root
	st   *store.Store
	runs *manager
	mux  *http.ServeMux
	rows rowCache // where each example of a dataset starts, for pages of results

	closeOnce sync.Once
	closeErr  error
}

// ErrTokenRequired is returned by New for a non-loopback address without a token.
var ErrTokenRequired = errors.New("listening beyond loopback needs a token (--token or BENCHY_TOKEN)")

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
	dir, err := filepath.Abs(cfg.Workspace)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	st, err := openStore(root, dir)
	if err != nil {
		root.Close()
		return nil, err
	}
	n, err := st.MarkInterrupted()
	if err != nil {
		st.Close()
		root.Close()
		return nil, fmt.Errorf("run store: %w", err)
	}
	if n > 0 {
		fmt.Fprintf(cfg.Log, "benchy: %d run(s) of an earlier server were interrupted; resume them with POST /api/runs/{id}/resume\n", n)
	}
	s := &Server{cfg: cfg, dir: dir, root: root, st: st, mux: http.NewServeMux()}
	s.runs = newManager(st, dir, cfg.MaxRuns, cfg.Log)
	s.routes()
	return s, nil
}

// openStore opens the workspace's run store. Its folder must be a real folder of the
// workspace, not a link leading out of it.
func openStore(root *os.Root, dir string) (*store.Store, error) {
	folder := store.Dir
	if err := root.MkdirAll(folder, 0o755); err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	if info, err := root.Lstat(folder); err != nil || !info.IsDir() {
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
		s.closeErr = errors.Join(s.st.Close(), s.root.Close())
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

// Handler is the server's HTTP handler, every safety check included.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if strings.HasPrefix(r.URL.Path, "/api/") {
			if !s.authorized(r) {
				writeError(w, http.StatusUnauthorized, "unauthorized", "this server needs Authorization: Bearer <token>")
				return
			}
			if changesState(r) {
				if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					writeError(w, http.StatusUnsupportedMediaType, "json_required", "send the request body as application/json")
					return
				}
				if !sameOrigin(r) {
					writeError(w, http.StatusForbidden, "cross_origin", "requests that change state must come from this server's own pages")
					return
				}
			}
			limit := s.cfg.MaxBody
			if strings.HasPrefix(r.URL.Path, "/api/files/") {
				limit = max(limit, int64(base64.StdEncoding.EncodedLen(MaxUpload))+1024) // uploads: data files
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		s.mux.ServeHTTP(w, r)
	})
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

// sameOrigin accepts requests without an Origin (not from a browser) and browser requests
// whose Origin is this server.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	rest, ok := strings.CutPrefix(origin, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(origin, "https://")
	}
	return ok && rest == r.Host
}

// apiError is the body of every error response.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	var e apiError
	e.Error.Code, e.Error.Message = code, message
	writeJSON(w, status, e)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// readJSON decodes a request body strictly; a body over the limit is a 413.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("the request body is larger than %d bytes", tooBig.Limit))
			return false
		}
		writeError(w, http.StatusBadRequest, "bad_request", "the request body is not the expected JSON: "+err.Error())
		return false
	}
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", "the request body is too large")
		return false
	}
	return true
}

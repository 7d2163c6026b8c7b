package server

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestErrorsInternalRequestID: a failure of the server itself (its store closed under it)
// is answered 500 with its code, the message "internal error" and a request id, in the
// body and the X-Request-Id header, and never with the Go error's text; the server's log
// has that id on the line that gives the error. An answer of ours (a 404) has no id.
func TestErrorsInternalRequestID(t *testing.T) {
	dir, _ := workspace(t)
	var log testkit.Buffer
	s, srv := serve(t, Config{Workspace: dir, Log: &log})
	r := ask(t, srv, "GET", "/api/runs/nope", "")
	if r.status != http.StatusNotFound || r.id != "" || r.body.Error.RequestID != "" || strings.Contains(r.raw, "request_id") {
		t.Errorf("GET a run that is not there: %d %s (X-Request-Id %q): want a 404 without a request id", r.status, r.raw, r.id)
	}

	s.st.Close()
	hex := regexp.MustCompile(`^[0-9a-f]{16}$`)
	ids := map[string]bool{}
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/runs"},
		{"GET", "/api/runs/x"},
		{"GET", "/api/runs/x/results"},
		{"GET", "/api/runs/x/results?format=csv"},
		{"GET", "/api/runs/x/events"},
		{"GET", "/api/runs/compare?a=x&b=y"},
		{"POST", "/api/runs/x/cancel"},
		{"POST", "/api/runs/x/resume"},
	} {
		r := ask(t, srv, c.method, c.path, "{}")
		e := r.body.Error
		if r.status != http.StatusInternalServerError || e.Code != api.StoreError || e.Message != "internal error" {
			t.Errorf("%s %s with the store closed: %d %s, want 500 store_error \"internal error\"", c.method, c.path, r.status, r.raw)
			continue
		}
		if !hex.MatchString(e.RequestID) || r.id != e.RequestID || ids[e.RequestID] {
			t.Errorf("%s %s: request id %q, header %q: want 16 hex digits, the same in both, new for each request", c.method, c.path, e.RequestID, r.id)
		}
		ids[e.RequestID] = true
		if strings.Contains(r.raw, "sql") || strings.Contains(r.raw, "closed") || strings.Contains(r.raw, dir) {
			t.Errorf("%s %s: the answer shows the Go error: %s", c.method, c.path, r.raw)
		}
		line := logLine(log.String(), e.RequestID)
		if !strings.Contains(line, c.method+" "+strings.SplitN(c.path, "?", 2)[0]) || !strings.Contains(line, "store_error") || !strings.Contains(line, "closed") {
			t.Errorf("%s %s: the log line of request %s: %q\nlog:\n%s", c.method, c.path, e.RequestID, line, log.String())
		}
	}
}

// TestErrorsInternalCode: a handler's error of no kind answerError knows is the server's
// failure: 500 internal, "internal error", its text (a path) only in the log.
func TestErrorsInternalCode(t *testing.T) {
	dir, _ := workspace(t)
	var log testkit.Buffer
	s, _ := serve(t, Config{Workspace: dir, Log: &log})
	rec := httptest.NewRecorder()
	s.handle(func(http.ResponseWriter, *http.Request) error {
		return errors.New("open /srv/secret/benchy.db: permission denied")
	})(rec, httptest.NewRequest("GET", "/api/x", nil))
	var e api.Error
	if err := jsonv2.Unmarshal(rec.Body.Bytes(), &e, jsonv2.RejectUnknownMembers(true)); err != nil || rec.Code != http.StatusInternalServerError ||
		e.Error.Code != api.Internal || e.Error.Message != "internal error" || strings.Contains(rec.Body.String(), "secret") {
		t.Fatalf("%d %s (%v)", rec.Code, rec.Body.String(), err)
	}
	if line := logLine(log.String(), e.Error.RequestID); !strings.Contains(line, "/srv/secret/benchy.db") {
		t.Errorf("the log has no line of request %s with the error: %q", e.Error.RequestID, log.String())
	}
}

// answer is an error answer as a client reads it.
type answer struct {
	status int
	id     string // X-Request-Id
	raw    string
	body   api.Error
}

func ask(t *testing.T, srv *httptest.Server, method, path, body string) answer {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, id: resp.Header.Get("X-Request-Id"), raw: string(data)}
	if err := json.Unmarshal(data, &a.body); err != nil {
		t.Errorf("%s %s: %d %s is not an error answer: %v", method, path, resp.StatusCode, data, err)
	}
	return a
}

// logLine is the line of log that names request id, or "".
func logLine(log, id string) string {
	for line := range strings.Lines(log) {
		if id != "" && strings.Contains(line, "request "+id+":") {
			return line
		}
	}
	return ""
}

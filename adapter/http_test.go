package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// httpFactoryFor binds "api" to url and returns the binding's factory.
func httpFactoryFor(t testing.TB, url, timeout string) engine.Factory {
	t.Helper()
	src := fmt.Sprintf("bindings:\n  api:\n    http: %q\n    timeout: %s\n", url, timeout)
	return bindFactory(t, src, t.TempDir(), "api", nil)
}

func newHTTP(t testing.TB, url, timeout string) engine.Adapter {
	t.Helper()
	return started(t, httpFactoryFor(t, url, timeout))
}

func TestHTTPSuccess(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want a JSON POST, got "+r.Method+" "+r.Header.Get("Content-Type"), http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, `{"echo": %s, "n": 121.0}`, body)
	}))
	defer srv.Close()
	a := newHTTP(t, srv.URL+"/invoke", "5s")
	input := map[string]any{"text": "a <b> & c", "n": json.Number("121")}
	out, err := a.Invoke(context.Background(), 0, input)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"echo": input, "n": json.Number("121.0")}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("output = %#v\nwant %#v", out, want)
	}
}

func TestHTTPFailures(t *testing.T) {
	tests := []struct {
		name       string
		handler    http.HandlerFunc
		timeout    string
		status     engine.Status
		code       diag.Code
		message    string
		prediction any
	}{
		{"a 200 body that is not JSON", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "positive <b>")
		}, "5s", engine.StatusInvalidOutput, diag.InvalidValue, `the response is not JSON (HTTP 200 OK, Content-Type "text/plain"`, "positive <b>"},
		{"an empty 200 body", func(w http.ResponseWriter, r *http.Request) {}, "5s",
			engine.StatusInvalidOutput, diag.InvalidValue, "the response is not JSON", ""},
		{"a 500", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "the model is overloaded", http.StatusInternalServerError)
		}, "5s", engine.StatusExecutionError, diag.ProviderError, "HTTP 500 Internal Server Error: the model is overloaded", nil},
		{"a 404", http.NotFound, "5s", engine.StatusExecutionError, diag.ProviderError, "HTTP 404 Not Found: 404 page not found", nil},
		{"a 429 without a body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTooManyRequests)
		}, "5s", engine.StatusExecutionError, diag.ProviderError, "HTTP 429 Too Many Requests", nil},
		{"a slow server", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // so that the server notices the client hanging up
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}, "150ms", engine.StatusExecutionError, diag.Timeout, "no answer within 150ms", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			a := newHTTP(t, srv.URL, tt.timeout)
			start := time.Now()
			out, err := a.Invoke(context.Background(), 0, map[string]any{"text": "great"})
			if out != nil {
				t.Errorf("output = %v, want none", out)
			}
			f := failureOf(t, err)
			if f.Status != tt.status || f.Code != tt.code || !strings.Contains(f.Message, tt.message) {
				t.Errorf("failure = %s %s %q, want %s %s containing %q", f.Status, f.Code, f.Message, tt.status, tt.code, tt.message)
			}
			if f.Prediction != tt.prediction {
				t.Errorf("prediction = %#v, want %#v", f.Prediction, tt.prediction)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("the failure took %v", d)
			}
		})
	}
}

func TestHTTPConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/secret-token-in-path"
	srv.Close()
	a := newHTTP(t, url, "5s")
	_, err := a.Invoke(context.Background(), 0, map[string]any{})
	f := failureOf(t, err)
	if f.Status != engine.StatusExecutionError || f.Code != diag.ProviderError || !strings.Contains(f.Message, "connection refused") {
		t.Errorf("failure = %s %s %q, want provider_error: connection refused", f.Status, f.Code, f.Message)
	}
	if strings.Contains(f.Message, "secret-token") {
		t.Errorf("the message shows the URL: %q", f.Message)
	}
}

func TestHTTPContextEnds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer srv.Close()
	a := newHTTP(t, srv.URL, "30s")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := a.Invoke(ctx, 0, map[string]any{})
	if f := failureOf(t, err); f.Code != diag.Timeout || !strings.Contains(f.Message, "the run ended") {
		t.Errorf("failure = %s %q, want timeout: the run ended", f.Code, f.Message)
	}
}

func TestHTTPLongNonJSONBodyIsClipped(t *testing.T) {
	body := strings.Repeat("é", 40_000) // 80,000 bytes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	defer srv.Close()
	_, err := newHTTP(t, srv.URL, "5s").Invoke(context.Background(), 0, map[string]any{})
	f := failureOf(t, err)
	p, _ := f.Prediction.(string)
	if f.Status != engine.StatusInvalidOutput || len(p) != maxPrediction || !strings.HasPrefix(body, p) {
		t.Errorf("failure = %s, prediction of %d bytes, want invalid_output with the first %d bytes", f.Status, len(p), maxPrediction)
	}
}

// TestHTTPReusesConnections checks that concurrent workers share kept-alive connections
// instead of dialling per request, which is what makes 64 workers fast.
func TestHTTPReusesConnections(t *testing.T) {
	var dials atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Millisecond)
		io.WriteString(w, `{"ok": true}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dials.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	f := httpFactoryFor(t, srv.URL, "5s")
	const workers, each = 32, 20
	var wg sync.WaitGroup
	for w := range workers {
		a, err := f()
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			defer a.Close()
			for i := range each {
				if _, err := a.Invoke(context.Background(), w*each+i, map[string]any{}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	// Dialling per request would open 640; a loaded machine may open a few spare ones.
	if n := dials.Load(); n > 2*workers {
		t.Errorf("%d connections for %d workers making %d requests: connections are not reused", n, workers, workers*each)
	}
}

// TestHTTPDoesNotFollowRedirects: a 302 is a provider_error, not a GET elsewhere.
func TestHTTPDoesNotFollowRedirects(t *testing.T) {
	var gets atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
	}))
	defer srv.Close()
	a, err := httpFactoryFor(t, srv.URL, "5s")()
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Invoke(context.Background(), 0, map[string]any{})
	if f := failureOf(t, err); f.Code != diag.ProviderError || !strings.Contains(f.Message, "302") || gets.Load() != 0 {
		t.Errorf("failure %+v after %d GETs", f, gets.Load())
	}
}

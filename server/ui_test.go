package server

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAcceptsEncoding(t *testing.T) {
	for _, c := range []struct {
		header, token string
		want          bool
	}{
		{"gzip, deflate, br, zstd", "br", true},
		{"gzip, deflate, br, zstd", "gzip", true},
		{"gzip;q=0.8", "gzip", true},
		{"gzip;q=0", "gzip", false},
		{"br; q=0.0, gzip", "br", false},
		{"BR", "br", true},
		{"", "gzip", false},
		{"identity", "gzip", false},
		{"x-gzip", "gzip", false},
	} {
		if got := acceptsEncoding(c.header, c.token); got != c.want {
			t.Errorf("acceptsEncoding(%q, %q) = %v, want %v", c.header, c.token, got, c.want)
		}
	}
}

func get(t *testing.T, h http.Handler, method, path string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	req.Host = DefaultAddr // the server's own name, as New's default address says
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

// The app's files: static ones always, app.wasm compressed as accepted (when the binary
// was built with it), revalidated by the version's ETag, nothing outside web/.
func TestUIFiles(t *testing.T) {
	dir, _ := workspace(t)
	s, err := New(Config{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := s.Handler()
	u := appUI()

	res := get(t, h, "GET", "/web/benchy.css", nil)
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(body), "--accent") || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/css") {
		t.Fatalf("benchy.css: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	etag := res.Header.Get("ETag")
	if etag != `"`+u.version+`"` {
		t.Fatalf("ETag %q, want the version %q", etag, u.version)
	}
	if res := get(t, h, "GET", "/web/benchy.css", map[string]string{"If-None-Match": etag}); res.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d, want 304", res.StatusCode)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("CSP %q", csp)
	}
	for _, p := range []string{"/web/../server.go", "/web/%2e%2e/server.go", "/web/..%2fserver.go"} {
		if res := get(t, h, "GET", p, nil); res.StatusCode == http.StatusOK {
			t.Errorf("GET %s: 200", p)
		}
	}
	for _, p := range []string{"/web/nope.css", "/web/app.wasm.gz", "/web/app.wasm.br"} {
		if res := get(t, h, "GET", p, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, res.StatusCode)
		}
	}
	if res := get(t, h, "POST", "/web/benchy.css", nil); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", res.StatusCode)
	}

	if !u.built {
		t.Log("app.wasm is not embedded (run make wasm): its encodings are not checked")
		if res := get(t, h, "GET", "/", nil); res.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("page without the app: %d, want 503", res.StatusCode)
		}
		return
	}
	raw, _ := fs.ReadFile(u.files, "app.wasm")
	for _, c := range []struct{ accept, enc string }{{"gzip, deflate, br", "br"}, {"gzip", "gzip"}, {"", ""}, {"br;q=0, gzip", "gzip"}} {
		res := get(t, h, "GET", "/web/app.wasm", map[string]string{"Accept-Encoding": c.accept})
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != c.enc || res.Header.Get("Content-Type") != "application/wasm" {
			t.Errorf("Accept-Encoding %q: %d, encoding %q, type %q", c.accept, res.StatusCode, res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"))
		}
		if c.enc == "" && len(b) != len(raw) || c.enc != "" && len(b) >= len(raw)/2 {
			t.Errorf("Accept-Encoding %q: %d bytes of %d", c.accept, len(b), len(raw))
		}
		if res.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("Vary %q", res.Header.Get("Vary"))
		}
	}
	res = get(t, h, "GET", "/", nil)
	page, _ := io.ReadAll(res.Body)
	for _, want := range []string{"/web/benchy.css", "/app.js", `id="benchy"`, "YAML"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"raw.githubusercontent.com", "fonts.googleapis", "cdn."} {
		if strings.Contains(string(page), bad) {
			t.Errorf("page refers to %q: the app must work with no internet", bad)
		}
	}
	worker := get(t, h, "GET", "/app-worker.js", nil)
	js, _ := io.ReadAll(worker.Body)
	for _, want := range []string{u.version, "/web/app.wasm", "/ontology", "/web/icon-192.png"} {
		if !strings.Contains(string(js), want) {
			t.Errorf("service worker does not cache %q", want)
		}
	}
	if strings.Contains(string(js), "https://") {
		t.Error("service worker caches a remote URL: its install fails offline")
	}
	if res := get(t, h, "GET", "/no-such-page", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("unrouted page: %d, want 404", res.StatusCode)
	}
}

// The loader hands app.wasm's response to the compiler (streaming compilation, cached
// compiled code) instead of go-app's progress-reading copy.
func TestAppJSStreamsWasm(t *testing.T) {
	res := get(t, http.HandlerFunc(appUI().serveAppJS), "GET", "/app.js", nil) // also without app.wasm
	js, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(js), "instantiateStreaming(\n      "+loaderStreaming) && !strings.Contains(string(js), loaderStreaming) {
		t.Fatal("app.js does not fetch app.wasm directly")
	}
	if strings.Contains(string(js), loaderWithProgress) {
		t.Fatal("app.js still reads app.wasm through fetchWithProgress: go-app's loader changed")
	}
	if res.Header.Get("Content-Type") != "application/javascript" {
		t.Errorf("Content-Type %q", res.Header.Get("Content-Type"))
	}
}

// BenchmarkServeWasm serves the compressed app.wasm: the bytes come from the binary's
// embedded data, not a fresh copy per request.
func BenchmarkServeWasm(b *testing.B) {
	u := appUI()
	if !u.built {
		b.Skip("app.wasm is not embedded (make wasm)")
	}
	req := httptest.NewRequest("GET", "/web/app.wasm", nil)
	req.Header.Set("Accept-Encoding", "br")
	b.ReportAllocs()
	for b.Loop() {
		u.ServeHTTP(discard{}, req)
	}
}

type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}

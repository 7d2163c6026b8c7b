package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/assets"
	"github.com/benchy-eval/benchy/web"
)

// The browser app's policy: everything from this server, WebAssembly allowed, nothing else.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; " +
	"worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

// ui serves the browser app: its pages (prerendered by go-app), scripts and service
// worker, and the embedded files under /web/, app.wasm compressed as the browser accepts.
type ui struct {
	files   fs.FS
	version string
	built   bool // app.wasm is embedded
	pages   *app.Handler
	static  http.Handler

	appJSOnce sync.Once
	appJS     []byte
}

func init() { web.Routes() }

// appUI is built once per process: hashing the embedded app takes a few milliseconds.
var appUI = sync.OnceValue(newUI)

// newUI reads the embedded app. Its version is a hash of every embedded file, so that it
// changes exactly when the app does: browsers keep their cached copy until then.
func newUI() *ui {
	files, _ := fs.Sub(assets.Web, "web")
	u := &ui{files: files, static: http.FileServerFS(files)}
	h := sha256.New()
	var names []string
	fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	var wasmSize int64
	for _, name := range names {
		b, _ := fs.ReadFile(files, name)
		h.Write([]byte(name + "\x00" + strconv.Itoa(len(b)) + "\x00"))
		h.Write(b)
		if name == "app.wasm" {
			u.built, wasmSize = true, int64(len(b))
		}
	}
	u.version = hex.EncodeToString(h.Sum(nil))[:20]
	u.pages = web.Handler(u.version, wasmSize)
	return u
}

func (u *ui) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("Referrer-Policy", "no-referrer")
	if !u.built && !strings.HasPrefix(r.URL.Path, "/web/") {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("Benchy's web app is not in this binary: build it with `make build` (it compiles web/ to WebAssembly first). The API under /api/ works.\n"))
		return
	}
	if name, ok := strings.CutPrefix(r.URL.Path, "/web/"); ok {
		u.serveFile(w, r, name)
		return
	}
	if r.URL.Path == "/app.js" {
		u.serveAppJS(w, r)
		return
	}
	u.pages.ServeHTTP(w, r)
}

// go-app's loader reads app.wasm through a JavaScript stream to show a percentage, and
// compiles the copy: the download is slower, compiling cannot start until it ends, and the
// browser never caches the compiled code, so every visit compiles 10 MB again. The server's
// app.js hands the response to the compiler directly instead.
const (
	loaderWithProgress = `fetchWithProgress("/web/app.wasm", showProgress)`
	loaderStreaming    = `fetch("/web/app.wasm")`
)

// serveAppJS serves go-app's app.js with the loader streaming app.wasm to the compiler.
func (u *ui) serveAppJS(w http.ResponseWriter, r *http.Request) {
	u.appJSOnce.Do(func() {
		rec := &bodyBuffer{header: http.Header{}}
		req, _ := http.NewRequest(http.MethodGet, "/app.js", nil) // not r: it may be conditional
		u.pages.ServeHTTP(rec, req)
		js := strings.Replace(rec.body.String(), loaderWithProgress, loaderStreaming, 1)
		// A mark for the browser tests: compiled and instantiated, before Go starts.
		js = strings.Replace(js, "go.run(wasm.instance);", `performance.mark("benchy-instantiated"); go.run(wasm.instance);`, 1)
		u.appJS = []byte(js)
	})
	w.Header().Set("Content-Type", "application/javascript")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", `"`+u.version+`"`)
	if r.Header.Get("If-None-Match") == `"`+u.version+`"` {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write(u.appJS)
}

// bodyBuffer is an http.ResponseWriter that keeps the body a handler writes and drops
// its status.
type bodyBuffer struct {
	header http.Header
	body   bytes.Buffer
}

func (r *bodyBuffer) Header() http.Header         { return r.header }
func (r *bodyBuffer) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *bodyBuffer) WriteHeader(int)             {}

// serveFile serves an embedded file; app.wasm goes out as its brotli or gzip copy when the
// browser accepts one. Files are revalidated by ETag, the app's version.
func (u *ui) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	if strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") || !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	etag := `"` + u.version + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if name == "app.wasm" {
		w.Header().Set("Content-Type", "application/wasm")
		accept := r.Header.Get("Accept-Encoding")
		for _, enc := range []struct{ token, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !acceptsEncoding(accept, enc.token) {
				continue
			}
			f, err := u.files.Open(name + enc.suffix)
			if err != nil {
				continue
			}
			defer f.Close()
			info, err := f.Stat()
			if err != nil {
				continue
			}
			w.Header().Set("Content-Encoding", enc.token)
			w.Header().Set("Content-Length", strconv.FormatInt(info.Size(), 10))
			if r.Method != http.MethodHead {
				io.Copy(w, f) // straight from the embedded bytes, no copy per request
			}
			return
		}
	}
	r2 := *r
	r2.URL.Path = "/" + path.Clean(name)
	u.static.ServeHTTP(w, &r2)
}

// acceptsEncoding reports whether an Accept-Encoding header accepts token (q=0 refuses).
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), token) {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

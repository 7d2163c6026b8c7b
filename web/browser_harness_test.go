package web_test

// The harness of the browser tests (browser_test.go): the real benchy binary, built once per
// test process; `benchy serve` on a loopback port that can be stopped and started again on
// the same port; the invoice example's stand-in adapter; and a headless Chromium per test,
// driven with chromedp, that records console errors, uncaught exceptions and the network
// transfers of the page.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/benchy-eval/benchy/internal/testkit"
)

const chromiumPath = "/usr/bin/chromium"

// suite holds what the browser tests of one test process share. Everything is made on first
// use, so that `go test ./web/ -run TestReadEvents` builds and starts nothing.
var suite struct {
	dir string // temporary, removed by TestMain

	binOnce sync.Once
	bin     string
	binErr  error

	adapterOnce sync.Once
	adapter     string
	adapterErr  error

	sharedOnce sync.Once
	shared     *benchyServer
	sharedErr  error
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "benchy-browser-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	suite.dir = dir
	code := m.Run()
	if suite.shared != nil {
		suite.shared.stop()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

var moduleRoot = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("go env GOMOD: not inside a module")
	}
	return filepath.Dir(gomod), nil
})

func root(t testing.TB) string {
	t.Helper()
	dir, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// requireBrowser skips the test when Chromium or the built app is missing, or fails it when
// BENCHY_BROWSER=1 (set by `make test`) says the browser tests must run.
func requireBrowser(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test: starts Chromium and the benchy binary")
	}
	must := os.Getenv("BENCHY_BROWSER") == "1"
	missing := func(msg string) {
		t.Helper()
		if must {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		missing("install chromium (apt-get install -y chromium)")
	}
	wasm := filepath.Join(root(t), "assets", "web", "app.wasm")
	info, err := os.Stat(wasm)
	if err != nil {
		missing("run make wasm first")
	}
	warnStale(t, info.ModTime())
}

var staleOnce sync.Once

// warnStale says when web/ or wasm/ changed after app.wasm was built: the binary embeds the
// app.wasm on disk, so the tests would run the old app.
func warnStale(t *testing.T, built time.Time) {
	staleOnce.Do(func() {
		var newer []string
		for _, dir := range []string{"web", "wasm"} { // and their packages: a page is a folder
			filepath.WalkDir(filepath.Join(root(t), dir), func(f string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
					return nil
				}
				if info, err := d.Info(); err == nil && info.ModTime().After(built) {
					rel, _ := filepath.Rel(root(t), f)
					newer = append(newer, rel)
				}
				return nil
			})
		}
		if len(newer) > 0 {
			t.Logf("WARNING: %s changed after assets/web/app.wasm was built; run make build (or make wasm) for the browser tests to test them", strings.Join(newer, ", "))
		}
	})
}

// benchyBinary builds ./cmd/benchy once per test process.
func benchyBinary(t testing.TB) string {
	t.Helper()
	suite.binOnce.Do(func() {
		suite.bin = filepath.Join(suite.dir, "benchy")
		cmd := exec.Command("go", "build", "-o", suite.bin, "./cmd/benchy")
		cmd.Dir = root(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			suite.binErr = fmt.Errorf("go build ./cmd/benchy: %v\n%s", err, out)
		}
	})
	if suite.binErr != nil {
		t.Fatal(suite.binErr)
	}
	return suite.bin
}

// invoiceAdapter builds the invoice example's stand-in AI-system
// (engine/testdata/invoice-adapter) once per test process.
func invoiceAdapter(t testing.TB) string {
	t.Helper()
	suite.adapterOnce.Do(func() {
		suite.adapter = filepath.Join(suite.dir, "invoice-adapter")
		cmd := exec.Command("go", "build", "-o", suite.adapter, "./engine/testdata/invoice-adapter")
		cmd.Dir = root(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			suite.adapterErr = fmt.Errorf("building the invoice adapter: %v\n%s", err, out)
		}
	})
	if suite.adapterErr != nil {
		t.Fatal(suite.adapterErr)
	}
	return suite.adapter
}

// invoiceWorkspace copies the paper's invoice example (engine/testdata/invoice) into dir;
// withAdapter adds the built stand-in adapter as ./invoice-adapter, which the example's
// benchy.runtime.yaml binds invoice-extractor-v7 to.
func invoiceWorkspace(t testing.TB, dir string, withAdapter bool) string {
	t.Helper()
	testkit.CopyTree(t, filepath.Join(root(t), "engine", "testdata", "invoice"), dir)
	if withAdapter {
		bin, err := os.ReadFile(invoiceAdapter(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "invoice-adapter"), bin, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sharedServer is one `benchy serve` for the tests that only read, or only add runs: on a
// copy of the invoice example with its adapter. TestMain stops it.
func sharedServer(t *testing.T) *benchyServer {
	t.Helper()
	suite.sharedOnce.Do(func() {
		dir := invoiceWorkspace(t, filepath.Join(suite.dir, "shared-ws"), true)
		s := &benchyServer{bin: benchyBinary(t), dir: dir, addr: "127.0.0.1:0"}
		if err := s.start(); err != nil {
			suite.sharedErr = err
			return
		}
		suite.shared = s
	})
	if suite.sharedErr != nil {
		t.Fatal(suite.sharedErr)
	}
	return suite.shared
}

// benchyServer is a `benchy serve` process. The first start listens on a free loopback port;
// later starts listen on the same one, so that the browser sees the same origin (its
// service worker, its storage) again.
type benchyServer struct {
	bin, dir string
	addr     string // host:port; "127.0.0.1:0" before the first start

	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
	log  *serverLog
}

// startServer starts `benchy serve --workspace dir` for one test; it is stopped at the end.
func startServer(t *testing.T, dir string) *benchyServer {
	t.Helper()
	s := &benchyServer{bin: benchyBinary(t), dir: dir, addr: "127.0.0.1:0"}
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// URL is the server's address with path.
func (s *benchyServer) URL(path string) string { return "http://" + s.addr + path }

// start runs the server and waits until it answers GET /api/ontology.
func (s *benchyServer) start() error {
	if s.cmd != nil {
		return errors.New("benchy serve: already running")
	}
	s.log = &serverLog{addr: make(chan string, 1)}
	cmd := exec.Command(s.bin, "serve", "--workspace", s.dir, "--addr", s.addr, "--grace", "2s")
	cmd.Stdout, cmd.Stderr = s.log, s.log
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(s.done) }()

	deadline := time.After(20 * time.Second)
	select {
	case addr := <-s.log.addr:
		s.addr = addr
	case <-s.done:
		s.cmd = nil
		return fmt.Errorf("benchy serve exited: %v\n%s", cmd.ProcessState, s.log)
	case <-deadline:
		s.stop()
		return fmt.Errorf("benchy serve did not say where it listens\n%s", s.log)
	}
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		resp, err := client.Get(s.URL("/api/ontology"))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.done:
			s.cmd = nil
			return fmt.Errorf("benchy serve exited: %v\n%s", cmd.ProcessState, s.log)
		case <-deadline:
			s.stop()
			return fmt.Errorf("benchy serve does not answer GET /api/ontology (last: %v)\n%s", err, s.log)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop ends the server with SIGTERM, as a user's Ctrl-C would, and waits for it; it kills it
// when it takes more than 15 s.
func (s *benchyServer) stop() error {
	if s.cmd == nil {
		return nil
	}
	defer func() { s.cmd = nil }()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		return fmt.Errorf("benchy serve did not stop within 15 s of SIGTERM\n%s", s.log)
	}
	if st := s.cmd.ProcessState; st != nil && !st.Success() {
		return fmt.Errorf("benchy serve: %v after SIGTERM\n%s", st, s.log)
	}
	return nil
}

// getJSON reads an API answer of the server.
func (s *benchyServer) getJSON(t testing.TB, path string, v any) {
	t.Helper()
	resp, err := http.Get(s.URL(path))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// postJSON sends body to the server's API and decodes the answer into v.
func (s *benchyServer) postJSON(t testing.TB, path, body string, v any) {
	t.Helper()
	resp, err := http.Post(s.URL(path), "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("POST %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
}

// serverLog keeps what a process writes, and finds the address benchy serve says it
// listens on.
type serverLog struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	addr chan string
	sent bool
}

var listenLine = regexp.MustCompile(` on http://(\S+)\n`)

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if !l.sent && l.addr != nil {
		if m := listenLine.FindSubmatch(l.buf.Bytes()); m != nil {
			l.sent = true
			l.addr <- string(m[1])
		}
	}
	return len(p), nil
}

func (l *serverLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// benchyCLI runs the built binary with args in dir and returns its output and exit code.
func benchyCLI(t testing.TB, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(benchyBinary(t), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("benchy %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), code
}

// browser is one headless Chromium with one tab, for one test. It records the page's console
// errors and uncaught exceptions, failing the test with them at its end, and the network
// transfers of the page.
type browser struct {
	t      *testing.T
	ctx    context.Context
	output *serverLog // Chromium's own output, shown when the test fails

	mu       sync.Mutex
	problems []string          // console errors, uncaught exceptions, error log entries
	dialogs  []page.DialogType // the JavaScript dialogs the page opened (answerDialog)
	ignore   []string          // substrings of problems that are expected
	requests map[network.RequestID]*request
	order    []network.RequestID
}

// request is one network request of the page, as CDP reported it.
type request struct {
	URL        string
	Status     int64
	Encoding   string // the Content-Encoding of the response
	MIME       string
	FromSW     bool    // answered by the service worker
	FromCache  bool    // answered from the disk cache
	Encoded    float64 // bytes received: headers and the encoded body (loadingFinished)
	Finished   bool
	FailedText string
}

// newBrowser starts Chromium with a fresh profile and opens a tab. Everything ends at the
// deadline of timeout, or at the end of the test.
func newBrowser(t *testing.T, timeout time.Duration) *browser {
	t.Helper()
	b := &browser{t: t, output: &serverLog{}, requests: map[network.RequestID]*request{}}
	deadline, cancelDeadline := context.WithTimeout(context.Background(), timeout)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(deadline,
		chromedp.ExecPath(chromiumPath),
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.CombinedOutput(b.output),
	)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	b.ctx = ctx
	t.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
		cancelDeadline()
	})
	if err := chromedp.Listen(ctx, b.event); err != nil {
		t.Fatalf("starting Chromium: %v\n%s", err, b.output)
	}
	b.run(chromedp.EmulateViewport(1280, 900))
	t.Cleanup(b.finish)
	return b
}

// finish runs at the end of the test: a screenshot when it failed, then the console check.
func (b *browser) finish() {
	t := b.t
	if t.Failed() && b.ctx.Err() == nil {
		b.screenshot(sanitize(t.Name()) + "-failed")
		var lines []string
		for _, l := range strings.Split(b.output.String(), "\n") {
			if l != "" && !strings.Contains(l, "bus.cc") && !strings.Contains(l, "object_proxy.cc") {
				lines = append(lines, l) // not the noise of a machine without D-Bus
			}
		}
		if len(lines) > 0 {
			t.Logf("Chromium's output:\n%s", tail(strings.Join(lines, "\n"), 3000))
		}
	}
	// Give the events queued by the last actions a moment to arrive.
	time.Sleep(100 * time.Millisecond)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Errorf("browser console: %s", p)
	}
}

// ignoreConsole stops console errors containing substr from failing the test.
func (b *browser) ignoreConsole(substr string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ignore = append(b.ignore, substr)
}

// event sees every CDP event of the tab; it runs on chromedp's reading goroutine, so it only
// records.
func (b *browser) event(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		text := consoleText(ev.Args)
		switch {
		case ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert:
			b.problem("console." + string(ev.Type) + ": " + text + where(ev.StackTrace))
		case strings.HasPrefix(text, "panic: ") || strings.HasPrefix(text, "fatal error: "):
			// Go's runtime writes a crash of the WebAssembly app to stderr, which
			// wasm_exec.js logs with console.log.
			b.problem("Go crash: " + text)
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		b.problem(fmt.Sprintf("uncaught exception: %s (%s:%d:%d)", text, d.URL, d.LineNumber+1, d.ColumnNumber+1))
	case *log.EventEntryAdded:
		// Content-Security-Policy violations and failed loads come this way.
		if e := ev.Entry; e.Level == log.EntryLevelError {
			b.problem(fmt.Sprintf("%s error: %s %s", e.Source, e.Text, e.URL))
		}
	case *network.EventRequestWillBeSent:
		if _, ok := b.requests[ev.RequestID]; !ok {
			b.order = append(b.order, ev.RequestID)
		}
		b.requests[ev.RequestID] = &request{URL: ev.Request.URL}
	case *network.EventResponseReceived:
		r := b.req(ev.RequestID, ev.Response.URL)
		r.Status, r.MIME, r.FromSW = ev.Response.Status, ev.Response.MimeType, ev.Response.FromServiceWorker
		r.FromCache = ev.Response.FromDiskCache
		r.Encoding = header(ev.Response.Headers, "Content-Encoding")
	case *network.EventLoadingFinished:
		r := b.req(ev.RequestID, "")
		r.Encoded, r.Finished = ev.EncodedDataLength, true
	case *network.EventLoadingFailed:
		b.req(ev.RequestID, "").FailedText = ev.ErrorText
	case *page.EventJavascriptDialogOpening:
		b.dialogs = append(b.dialogs, ev.Type)
		go b.answerDialog()
	}
}

func (b *browser) req(id network.RequestID, url string) *request {
	r, ok := b.requests[id]
	if !ok {
		r = &request{URL: url}
		b.requests[id] = r
		b.order = append(b.order, id)
	}
	return r
}

func (b *browser) problem(p string) {
	for _, s := range b.ignore {
		if strings.Contains(p, s) {
			return
		}
	}
	b.problems = append(b.problems, p)
}

// resetNetwork forgets the requests seen so far, before a navigation to account for.
func (b *browser) resetNetwork() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.requests = map[network.RequestID]*request{}
	b.order = nil
}

// finished returns the finished or failed requests whose URL path ends with suffix ("" for
// all), in the order they were sent.
func (b *browser) finished(suffix string) []request {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []request
	for _, id := range b.order {
		r := b.requests[id]
		path := r.URL
		if i := strings.IndexAny(path, "?#"); i >= 0 {
			path = path[:i]
		}
		if (r.Finished || r.FailedText != "") && strings.HasSuffix(path, suffix) {
			out = append(out, *r)
		}
	}
	return out
}

// waitRequest waits until a request for a URL path ending with suffix has finished.
func (b *browser) waitRequest(suffix string) request {
	b.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if rs := b.finished(suffix); len(rs) > 0 {
			return rs[len(rs)-1]
		}
	}
	b.t.Fatalf("no finished request for %s", suffix)
	return request{}
}

// run runs actions in the tab, failing the test on an error.
func (b *browser) run(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression in the page, awaiting a promise it returns.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", short(expr), err)
	}
	return v
}

// poll waits until the expression is truthy and returns its value; on a timeout the test
// fails with what describe (a JavaScript expression) says about the page.
func poll[T any](b *browser, what, expr string, timeout time.Duration, describe string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Poll[T](expr, chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(5*time.Millisecond)))
	if err != nil {
		state := ""
		if describe != "" {
			if s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](describe)); err == nil {
				state = "; " + s
			}
		}
		b.t.Fatalf("waiting for %s: %v%s", what, err, state)
	}
	return v
}

// exists reports whether the page has an element matching the CSS selector.
func (b *browser) exists(selector string) bool {
	b.t.Helper()
	return eval[bool](b, fmt.Sprintf("document.querySelector(%s) !== null", js(selector)))
}

// readyJS is true once the page is interactive: the WebAssembly app runs (go-app removes its
// loader after starting it) and has rendered; on the editor, once it has compiled the first
// time and set data-benchy-ready="1" on the body. Pages other than the editor have no ready
// marker yet; the app's frame (#benchy) stands for one.
const readyJS = `(() => {
	if (!document.body || document.getElementById("app-wasm-loader")) return false;
	if (document.getElementById("yaml")) return document.body.getAttribute("data-benchy-ready") === "1";
	return document.getElementById("benchy") !== null;
})()`

// stateJS describes the loading state, for a timeout's message.
const stateJS = `(() => {
	const l = document.getElementById("app-wasm-loader-label");
	return "location " + location.href + ", loader: " + (l ? JSON.stringify(l.innerText) : "gone") +
		", #benchy: " + (document.getElementById("benchy") !== null) +
		", data-benchy-ready: " + (document.body && document.body.getAttribute("data-benchy-ready"));
})()`

// open navigates to url and waits until the page is interactive; it returns the time from
// the navigation's start to then, as Go saw it and as the page's clock says.
func (b *browser) open(url string) (wall time.Duration, page float64) {
	b.t.Helper()
	start := time.Now()
	b.run(chromedp.Navigate(url))
	page = poll[float64](b, "the app at "+url+" to be interactive", readyJS+` && performance.now()`, 30*time.Second, stateJS)
	return time.Since(start), page
}

// waitServiceWorker waits until the service worker controls the page and has cached the
// app, so that the next load can come from it.
func (b *browser) waitServiceWorker() {
	b.t.Helper()
	poll[bool](b, "the service worker to control the page",
		`navigator.serviceWorker.controller !== null`, 15*time.Second,
		`"registration: " + typeof goappServiceWorkerRegistration`)
	// go-app's worker caches in an install handler that does not extend the install
	// event, so it can control the page before the cache is filled: wait for the cache.
	poll[bool](b, "the service worker's cache to hold the app",
		`Promise.all(["/", "/web/app.wasm", "/app.js", "/wasm_exec.js"].map(u => caches.match(u))).then(rs => rs.every(r => r !== undefined))`,
		15*time.Second, `"caches present"`)
}

// screenshot saves the page as web/testdata/out/<name>.png.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	dir := filepath.Join("testdata", "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// screenshotWidths saves the page as <name>.png at the tests' width, 1280 px, and as
// <name>-1024.png at 1024 px, a laptop's; at each width the text of every selector in
// oneLine must stay on one line (numbers, ids, intervals, headers, labels).
func (b *browser) screenshotWidths(name string, oneLine ...string) {
	b.t.Helper()
	for _, w := range []int64{1024, 1280} {
		b.run(chromedp.EmulateViewport(w, 900))
		eval[bool](b, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
		b.oneLine(fmt.Sprint(w, " px"), oneLine...)
		if w == 1280 {
			b.screenshot(name)
		} else {
			b.screenshot(fmt.Sprint(name, "-", w))
		}
	}
}

// lines is how many lines the text of the element matching selector that takes most
// takes (0 when none matches): its text boxes, grouped by the line they sit on.
func (b *browser) lines(selector string) int {
	b.t.Helper()
	return eval[int](b, `Math.max(0, ...[...document.querySelectorAll(`+js(selector)+`)].map(e => {
		const tops = [], walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			const r = document.createRange();
			r.selectNodeContents(n);
			for (const x of r.getClientRects()) if (x.width > 0) tops.push(x.top);
		}
		tops.sort((a, b) => a - b);
		return tops.filter((t, i) => i === 0 || t - tops[i - 1] > 4).length;
	}))`)
}

// oneLine fails the test for each selector whose text wraps onto more than one line.
func (b *browser) oneLine(width string, selectors ...string) {
	b.t.Helper()
	for _, sel := range selectors {
		if n := b.lines(sel); n > 1 {
			b.t.Errorf("at %s, %s takes %d lines, want 1", width, sel, n)
		}
	}
}

// consoleText is the text DevTools would show for the arguments of a console call.
func consoleText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		var s string
		switch {
		case a.Type == runtime.RemoteObjectTypeString && json.Unmarshal(a.Value, &s) == nil:
		case a.Description != "":
			s = a.Description
		case len(a.Value) > 0:
			s = string(a.Value)
		default:
			s = string(a.Type)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func where(st *runtime.StackTrace) string {
	if st == nil || len(st.CallFrames) == 0 {
		return ""
	}
	f := st.CallFrames[0]
	return fmt.Sprintf(" (%s:%d:%d)", f.URL, f.LineNumber+1, f.ColumnNumber+1)
}

func header(h network.Headers, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return fmt.Sprint(v)
		}
	}
	return ""
}

// js quotes s as a JavaScript string literal.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' {
			return '-'
		}
		return r
	}, name)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// answerDialog accepts the JavaScript dialog the page opened. The editor asks before a
// navigation would lose unsaved edits (beforeunload), and Chromium shows that question once
// the page had a user gesture, which every poll gives: a test that navigates away from edits
// goes on, leaving them. b.dialogs records the question for the tests of it.
func (b *browser) answerDialog() {
	chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		return err
	}))
}

// seenDialogs is what dialogs the page has opened.
func (b *browser) seenDialogs() []page.DialogType {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.dialogs)
}

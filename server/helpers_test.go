package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"

	"github.com/benchy-eval/benchy/store"
)

// binDir holds the test adapters, built once per test binary (see adapterBinaries).
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "benchy-server-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var build struct {
	once sync.Once
	err  error
}

// adapterBinaries builds the invoice stand-in (engine/testdata) and the slow adapter
// (testdata/slow-adapter) once, for the tests that run benchmarks.
func adapterBinaries(t *testing.T) (invoice, slow string) {
	t.Helper()
	invoice, slow = filepath.Join(binDir, "invoice-adapter"), filepath.Join(binDir, "slow-adapter")
	build.once.Do(func() {
		for _, b := range [][2]string{{invoice, "../engine/testdata/invoice-adapter"}, {slow, "./testdata/slow-adapter"}} {
			if out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
				build.err = fmt.Errorf("building %s: %v\n%s", b[1], err, out)
				return
			}
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return invoice, slow
}

var benchy struct {
	once sync.Once
	err  error
}

// benchyBinary builds cmd/benchy once, for the tests that run the real binary; with -short
// they are skipped.
func benchyBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the benchy binary")
	}
	bin := filepath.Join(binDir, "benchy")
	benchy.once.Do(func() {
		if out, err := exec.Command("go", "build", "-o", bin, "../cmd/benchy").CombinedOutput(); err != nil {
			benchy.err = fmt.Errorf("go build ../cmd/benchy: %v\n%s", err, out)
		}
	})
	if benchy.err != nil {
		t.Fatal(benchy.err)
	}
	return bin
}

// storeBeside opens workspace dir's store beside the server, as another process would;
// it is closed when the test ends.
func storeBeside(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(store.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// slowYAML is the benchmark of the slow adapter (testdata/slow-adapter/benchmark.yaml),
// over slowData's examples.
var slowYAML = func() string {
	src, err := os.ReadFile("testdata/slow-adapter/benchmark.yaml")
	if err != nil {
		panic(err)
	}
	return string(src)
}()

const slowExamples = 12

// slowData has right, half-right and failing examples, so that a resumed run that mixed
// them up would show.
func slowData() string {
	var b strings.Builder
	for i := range slowExamples {
		text := fmt.Sprintf("ex-%02d", i)
		total := len(text)
		switch i % 4 {
		case 1:
			total++ // the total is wrong
		case 3:
			text = "fail-" + text // the adapter answers with an error
		}
		fmt.Fprintf(&b, `{"input": {"text": %q}, "expected": {"number": %q, "total": %d}}`+"\n", text, text, total)
	}
	return b.String()
}

// slow configures the slow adapter of a workspace.
type slow struct {
	from  int // the first index the gate holds
	gate  bool
	delay int // ms per example
}

// runWorkspace copies the paper's invoice example (engine/testdata/invoice) with its built
// stand-in adapter into a temporary workspace, adds slow/benchmark.yaml for the slow
// adapter, and binds both in benchy.runtime.yaml. The slow adapter logs every call to
// calls.log and, with a gate, holds its answers until the file "gate" exists.
func runWorkspace(t *testing.T, cfg slow) string {
	t.Helper()
	invoice, slowBin := adapterBinaries(t)
	dir := filepath.Join(t.TempDir(), "ws")
	testkit.CopyTree(t, "../engine/testdata/invoice", dir)
	bin, err := os.ReadFile(invoice)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{slowBin, "-log", filepath.Join(dir, "calls.log"), "-delay", strconv.Itoa(cfg.delay)}
	if cfg.gate {
		args = append(args, "-gate", filepath.Join(dir, "gate"), "-from", strconv.Itoa(cfg.from))
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = strconv.Quote(a)
	}
	files := map[string]string{
		"invoice-adapter":        string(bin),
		"slow/benchmark.yaml":    slowYAML,
		"slow/data.jsonl":        slowData(),
		"unbound/benchmark.yaml": strings.Replace(slowYAML, "id: slow-system", "id: nobody", 1),
		"broken.yaml":            "version: 1.0\n",
		RuntimeFile: "bindings:\n  invoice-extractor-v7:\n    command: [./invoice-adapter]\n    timeout: 10s\n" +
			"  slow-system:\n    command: [" + strings.Join(quoted, ", ") + "]\n    timeout: 60s\n",
	}
	testkit.WriteFiles(t, dir, files)
	if err := os.Chmod(filepath.Join(dir, "invoice-adapter"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// openGate lets the slow adapter of workspace dir answer.
func openGate(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "gate"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// calls returns the indices the slow adapter was asked for, in the order asked.
func calls(t *testing.T, dir string) []int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "calls.log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []int
	for _, line := range strings.Fields(string(data)) {
		n, err := strconv.Atoi(line)
		if err != nil {
			t.Fatalf("calls.log: %q", line)
		}
		out = append(out, n)
	}
	return out
}

// serve starts a server on workspace dir. Cleanup closes it (ending its runs) before the
// HTTP server, so that no event stream is left open.
func serve(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(func() { s.Close() })
	return s, srv
}

// decode is call, decoding a JSON answer of the wanted status into v.
func decode(t *testing.T, srv *httptest.Server, method, path, body string, want int, v any) {
	t.Helper()
	r := call(t, srv, method, path, body)
	if r.status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, r.status, r.body, want)
	}
	if v != nil {
		if err := json.Unmarshal([]byte(r.body), v); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, path, err, r.body)
		}
	}
}

func startRun(t *testing.T, srv *httptest.Server, body string) string {
	t.Helper()
	var got struct{ ID string }
	decode(t, srv, "POST", "/api/runs", body, http.StatusAccepted, &got)
	if got.ID == "" {
		t.Fatal("no run id")
	}
	return got.ID
}

func getRun(t *testing.T, srv *httptest.Server, id string) api.Run {
	t.Helper()
	var v api.Run
	decode(t, srv, "GET", "/api/runs/"+id, "", http.StatusOK, &v)
	return v
}

// waitRun polls run id until ok says so.
func waitRun(t *testing.T, srv *httptest.Server, id, what string, ok func(api.Run) bool) api.Run {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		v := getRun(t, srv, id)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s never became %s: %s, %d/%d", id, what, v.Status, v.Done, v.Total)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitStatus(t *testing.T, srv *httptest.Server, id string, st store.Status) api.Run {
	t.Helper()
	return waitRun(t, srv, id, string(st), func(v api.Run) bool { return v.Status == string(st) })
}

// results pages through every result of run id with the given filter.
func results(t *testing.T, srv *httptest.Server, id, query string, limit int) []int {
	t.Helper()
	var idx []int
	after := -1
	for pages := 0; ; pages++ {
		var p struct {
			Results []struct{ Index int }
			Next    int
		}
		decode(t, srv, "GET", fmt.Sprintf("/api/runs/%s/results?%safter=%d&limit=%d", id, query, after, limit), "", http.StatusOK, &p)
		if len(p.Results) > limit || pages > 100 {
			t.Fatalf("page of %d results, limit %d", len(p.Results), limit)
		}
		for _, r := range p.Results {
			idx = append(idx, r.Index)
		}
		if p.Next < 0 {
			return idx
		}
		after = p.Next
	}
}

func export(t *testing.T, srv *httptest.Server, id, format string) (string, string) {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + "/api/runs/" + id + "/results?format=" + format)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("export %s: %d %v %s", format, resp.StatusCode, err, body)
	}
	return resp.Header.Get("Content-Type"), string(body)
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	name string
	data string
}

// events opens the event stream of run id and returns a reader of its events.
func events(t *testing.T, srv *httptest.Server, id string) (next func() (sseEvent, bool), close func()) {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + "/api/runs/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	sc := bufio.NewScanner(resp.Body)
	next = func() (sseEvent, bool) {
		var e sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "" && e.name != "":
				return e, true
			case strings.HasPrefix(line, "event: "):
				e.name = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				e.data = line[len("data: "):]
			}
		}
		return e, false
	}
	return next, func() { resp.Body.Close() }
}

// untilDone reads events up to the stream's done event and returns it.
func untilDone(t *testing.T, next func() (sseEvent, bool)) api.Done {
	t.Helper()
	for {
		e, ok := next()
		if !ok {
			t.Fatal("the stream ended without done")
		}
		if e.name == "done" {
			var d api.Done
			if err := json.Unmarshal([]byte(e.data), &d); err != nil {
				t.Fatalf("done %s: %v", e.data, err)
			}
			return d
		}
	}
}

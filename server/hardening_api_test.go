package server

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/store"
)

// TestHardeningListingCachesCompiles: GET /api/benchmarks compiles a benchmark file once
// per version (size, modification time): a second listing compiles nothing, a save's
// compile is the listing's, and only a changed file is compiled again.
func TestHardeningListingCachesCompiles(t *testing.T) {
	dir, _ := workspace(t)
	rs := serveReal(t, Config{Workspace: dir}, nil)
	compiles := func() int64 { return rs.lists.compiles.Load() }
	list := func() {
		if status, code := rs.ask(t, "GET", "/api/benchmarks", "", ""); status != http.StatusOK {
			t.Fatalf("list: %d %s", status, code)
		}
	}
	list()
	if got := compiles(); got != 2 {
		t.Fatalf("the first listing compiled %d files, want the workspace's 2", got)
	}
	list()
	if got := compiles(); got != 2 {
		t.Errorf("a second listing compiled %d files again", got-2)
	}
	if status, _ := rs.ask(t, "PUT", "/api/benchmarks/new.yaml", "", `{"yaml": "version: \"1.0\"\n"}`); status != http.StatusOK {
		t.Fatal("save failed")
	}
	list()
	if got := compiles(); got != 3 {
		t.Errorf("a save and a listing compiled %d files, want 1 (the save's)", got-2)
	}
	p := filepath.Join(dir, "broken.yaml")
	os.WriteFile(p, []byte("version: 2.0\n"), 0o644)
	os.Chtimes(p, time.Now(), time.Now().Add(time.Second))
	list()
	if got := compiles(); got != 4 {
		t.Errorf("a listing after one file changed compiled %d, want 1", got-3)
	}
}

// TestHardeningNoEmptyAnswer: an answer that cannot be encoded is a 500 with a JSON error,
// never a 200 with an empty body (past depth 10,000 encoding/json refuses a value), and no
// endpoint answers 200 with an empty body however deep the benchmark sent.
func TestHardeningNoEmptyAnswer(t *testing.T) {
	rs := serveReal(t, Config{}, nil)
	deep := json.RawMessage(strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001))
	for name, v := range map[string]any{"depth 10,001": deep, "NaN": math.NaN()} {
		rec := httptest.NewRecorder()
		rs.handle(func(w http.ResponseWriter, r *http.Request) error { return writeJSON(w, http.StatusOK, v) })(rec, httptest.NewRequest("GET", "/api/x", nil))
		var e api.Error
		if rec.Code != http.StatusInternalServerError || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error.Code != "internal" {
			t.Errorf("%s: %d %q, want 500 with a JSON error", name, rec.Code, rec.Body.String())
		}
	}

	const depth = 10_001
	nested := strings.Repeat("{a: ", depth) + "string" + strings.Repeat("}", depth)
	body, _ := json.Marshal(map[string]string{"yaml": strings.Replace(invoiceYAML, "{image: image}", nested, 1)})
	began := time.Now()
	resp, err := http.Post(rs.base+"/api/compile", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Errorf("compile of a program %d deep: %d and no JSON body (%v)", depth, resp.StatusCode, err)
	}
	t.Logf("compile of a program %d deep: %d in %v", depth, resp.StatusCode, time.Since(began).Round(time.Millisecond))
}

// TestHardeningStrictJSONBodies: an API body is exactly one JSON value, UTF-8, with no
// key twice: trailing data and duplicate keys are refused (400), not silently read.
func TestHardeningStrictJSONBodies(t *testing.T) {
	srv := newTestServer(t, Config{})
	for body, want := range map[string]int{
		`{"yaml": "a: 1\n"}`:                   http.StatusOK,
		`{"yaml": "a: 1\n"}` + "\n \t\r\n":     http.StatusOK,
		`{"yaml": "a: 1\n"} {"yaml": "b: 2"}`:  http.StatusBadRequest,
		`{"yaml": "a: 1\n"}x`:                  http.StatusBadRequest,
		`{"yaml": "a: 1\n"}]`:                  http.StatusBadRequest,
		`{"yaml": "a: 1\n", "yaml": "b: 2\n"}`: http.StatusBadRequest,
		`{"yaml": "a: 1\n", "YAML": "b: 2\n"}`: http.StatusBadRequest, // encoding/json matches either case
		"{\"yaml\": \"\xff\"}":                 http.StatusBadRequest,
		`{"yaml": "a", "extra": 1}`:            http.StatusBadRequest,
		`{"yaml": "a: 1\n"`:                    http.StatusBadRequest,
	} {
		r := call(t, srv, "POST", "/api/compile", body)
		if r.status != want || (want == http.StatusBadRequest && !strings.Contains(r.body, `"code":"bad_request"`)) {
			t.Errorf("POST /api/compile %q: %d %s, want %d", body, r.status, r.body, want)
		}
	}
}

// TestHardeningShortToken: a token shorter than MinTokenLength is refused at start.
func TestHardeningShortToken(t *testing.T) {
	dir, _ := workspace(t)
	for token, ok := range map[string]bool{"x": false, strings.Repeat("x", MinTokenLength-1): false, strings.Repeat("x", MinTokenLength): true} {
		s, err := New(Config{Workspace: dir, Addr: "0.0.0.0:0", Token: token})
		if ok != (err == nil) || (!ok && !errors.Is(err, ErrTokenShort)) {
			t.Errorf("token of %d characters: %v", len(token), err)
		}
		if s != nil {
			s.Close()
		}
	}
}

// TestHardeningFIFO: a FIFO (or a link to one) where the server reads a workspace file, a
// benchmark, the runtime file or a dataset, is refused at once, never waited on.
func TestHardeningFIFO(t *testing.T) {
	dir, _ := workspace(t)
	for _, name := range []string{"pipe.yaml", "data/rows.jsonl"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
	}
	os.Symlink("pipe.yaml", filepath.Join(dir, "link.yaml"))
	rs := serveReal(t, Config{Workspace: dir}, nil)
	for _, c := range []struct{ method, path, body, code string }{
		{"GET", "/api/benchmarks/pipe.yaml", "", "not_regular"},
		{"GET", "/api/benchmarks/link.yaml", "", "not_regular"},
		{"POST", "/api/runs", `{"benchmark": "pipe.yaml"}`, "not_regular"},
		{"GET", "/api/benchmarks", "", ""},
		{"PUT", "/api/benchmarks/pipe.yaml", `{"yaml": "a: 1\n"}`, "not_regular"},
		{"PUT", "/api/files/data/rows.jsonl", `{"base64": ""}`, "not_regular"},
	} {
		began := time.Now()
		status, code := rs.ask(t, c.method, c.path, "", c.body)
		if code != c.code || time.Since(began) > 2*time.Second {
			t.Errorf("%s %s: %d %s after %v, want %s at once", c.method, c.path, status, code, time.Since(began), c.code)
		}
	}
	// The runtime file as a FIFO.
	os.Remove(filepath.Join(dir, RuntimeFile))
	syscall.Mkfifo(filepath.Join(dir, RuntimeFile), 0o644)
	began := time.Now()
	if status, code := rs.ask(t, "GET", "/api/bindings", "", ""); code != "not_regular" || time.Since(began) > 2*time.Second {
		t.Errorf("GET /api/bindings with a FIFO runtime file: %d %s after %v", status, code, time.Since(began))
	}
}

// TestHardeningNoServerPaths: no answer carries the server's absolute paths or a Go error
// string: an adapter's error names workspace files relative to it, and a failure of the
// server itself (its store closed under it) says only that it failed.
func TestHardeningNoServerPaths(t *testing.T) {
	dir, _ := workspace(t)
	rs := serveReal(t, Config{Workspace: dir}, nil)
	req, _ := http.NewRequest("POST", rs.base+"/api/runs", strings.NewReader(`{"benchmark": "invoices/benchmark.yaml"}`))
	req.Header.Set("Content-Type", "application/json")
	r := do(t, req)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "missing_binding") {
		t.Fatalf("run with its program missing: %d %s", r.status, r.body)
	}
	if strings.Contains(r.body, dir) || strings.Contains(r.body, filepath.Dir(dir)) || !strings.Contains(r.body, "runs extract,") {
		t.Errorf("the answer shows the server's paths: %s", r.body)
	}
	if got := rs.relative("open " + dir + "/a/b.jsonl: no; see /etc/x.conf and " + dir); got != "open a/b.jsonl: no; see x.conf and ." {
		t.Errorf("relative: %q", got)
	}
	rs.st.Close()
	for _, path := range []string{"/api/runs", "/api/runs/x", "/api/runs/x/results"} {
		req, _ := http.NewRequest("GET", rs.base+path, nil)
		r := do(t, req)
		if r.status != http.StatusInternalServerError || !strings.Contains(r.body, `"code":"store_error"`) ||
			strings.Contains(r.body, "sql") || strings.Contains(r.body, "/") {
			t.Errorf("GET %s with the store closed: %d %s", path, r.status, r.body)
		}
	}
}

func do(t *testing.T, req *http.Request) reply {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, string(data)}
}

// TestHardeningKilledSave: a save's temporary file is in the store's folder, never beside
// the workspace's files, and what a killed save left there is gone at the next start.
func TestHardeningKilledSave(t *testing.T) {
	dir, _ := workspace(t)
	stale := filepath.Join(dir, filepath.FromSlash(tempDir), "0123456789abcdef-benchmark.yaml")
	os.MkdirAll(filepath.Dir(stale), 0o755)
	os.WriteFile(stale, []byte("half a save"), 0o644)
	rs := serveReal(t, Config{Workspace: dir}, nil)
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a killed save's temporary file is still there after a start: %v", err)
	}
	// A save cut short: the body ends before its length.
	c := dial(t, rs)
	defer c.Close()
	c.Write([]byte("PUT /api/files/data/cut.jsonl HTTP/1.1\r\nHost: 127.0.0.1:" + rs.port +
		"\r\nContent-Type: application/octet-stream\r\nContent-Length: 100\r\n\r\n{\"half\":"))
	time.Sleep(100 * time.Millisecond)
	entries, _ := os.ReadDir(filepath.Join(dir, "data"))
	for _, e := range entries {
		t.Errorf("beside the file being saved: %s", e.Name())
	}
	c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		left, _ := os.ReadDir(filepath.Join(dir, filepath.FromSlash(tempDir)))
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a save cut short left %v", left)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "cut.jsonl")); err == nil {
		t.Error("a save cut short was stored")
	}
}

// TestHardeningCompareCached: the comparison of two completed runs is computed once; the
// second answer comes from the cache (here: the store's results of one run deleted behind
// the server's back, which a new comparison would find of a different length).
func TestHardeningCompareCached(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, a, store.Completed)
	b := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, b, store.Completed)
	first := call(t, srv, "GET", "/api/runs/compare?a="+a+"&b="+b, "")
	if first.status != http.StatusOK {
		t.Fatalf("compare: %d %s", first.status, first.body)
	}
	db := openDB(t, dir)
	if _, err := db.Exec(`DELETE FROM results WHERE run_id = ? AND idx > 4`, b); err != nil {
		t.Fatal(err)
	}
	second := call(t, srv, "GET", "/api/runs/compare?a="+a+"&b="+b, "")
	if second != first {
		t.Errorf("the second comparison was computed again: %d %s", second.status, second.body)
	}
	// The other way round is another comparison.
	if r := call(t, srv, "GET", "/api/runs/compare?a="+b+"&b="+a, ""); r.status != http.StatusConflict {
		t.Errorf("b against a: %d %s", r.status, r.body)
	}
}

// TestHardeningErrorCodesRegistered: every error code a handler answers with is in
// api.Codes (or the diagnostics' registry), with a meaning. A code may be a string literal
// or one of api's Code constants.
func TestHardeningErrorCodesRegistered(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	consts := apiCodeConsts(t, fset)
	used := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var lit ast.Expr
			switch n := n.(type) {
			case *ast.CallExpr:
				fn := ""
				switch f := n.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				}
				switch {
				case fn == "writeError" && len(n.Args) >= 3:
					lit = n.Args[2]
				case fn == "refuse" && len(n.Args) >= 2:
					lit = n.Args[1]
				}
			case *ast.AssignStmt:
				if sel, ok := n.Lhs[0].(*ast.SelectorExpr); ok && sel.Sel.Name == "Code" && len(n.Rhs) == 1 {
					lit = n.Rhs[0]
				}
			case *ast.KeyValueExpr:
				if key, ok := n.Key.(*ast.Ident); ok && (key.Name == "Code" || key.Name == "code") {
					lit = n.Value
				}
			}
			if sel, ok := lit.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "api" {
					used++
					code, ok := consts[sel.Sel.Name]
					if !ok || !api.Registered(api.Code(code)) {
						t.Errorf("%s: api.%s is not a registered error code", fset.Position(sel.Pos()), sel.Sel.Name)
					}
				}
			}
			if bl, ok := lit.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				code, _ := strconv.Unquote(bl.Value)
				used++
				if !api.Registered(api.Code(code)) && !diag.Registered(diag.Code(code)) {
					t.Errorf("%s: error code %q is not registered in api.Codes", fset.Position(bl.Pos()), code)
				}
			}
			return true
		})
	}
	if used < 20 {
		t.Errorf("found only %d error codes: is the scan still looking at the right calls?", used)
	}
	for code, meaning := range api.Codes {
		if meaning == "" || strings.ToLower(string(code)) != string(code) {
			t.Errorf("code %q: meaning %q", code, meaning)
		}
	}
}

// apiCodeConsts reads the Code constants of package api: name to value.
func apiCodeConsts(t *testing.T, fset *token.FileSet) map[string]string {
	f, err := parser.ParseFile(fset, "../api/errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if typ, ok := vs.Type.(*ast.Ident); !ok || typ.Name != "Code" {
				continue
			}
			for i, name := range vs.Names {
				if bl, ok := vs.Values[i].(*ast.BasicLit); ok {
					out[name.Name], _ = strconv.Unquote(bl.Value)
				}
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("found only %d Code constants in api/errors.go", len(out))
	}
	return out
}

// TestHardeningDurableSave: a save syncs the temporary file before renaming it over the
// target, and the target's folder after (watched with strace, in a child process that
// makes one upload).
func TestHardeningDurableSave(t *testing.T) {
	straceBin, err := exec.LookPath("strace")
	if err != nil || testing.Short() {
		t.Skip("needs strace")
	}
	dir, _ := workspace(t)
	trace := filepath.Join(t.TempDir(), "trace")
	cmd := exec.Command(straceBin, "-f", "-o", trace, "-e", "trace=openat,fsync,fdatasync,renameat,renameat2,rename",
		os.Args[0], "-test.run=^TestDurableSaveChild$")
	cmd.Env = append(os.Environ(), "BENCHY_DURABLE_CHILD="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("strace cannot run the child here: %v\n%s", err, out)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var tmpFD, dirFD string
	synced := map[string]bool{}
	renamed, syncedAfter := false, false
	for _, line := range joinResumed(strings.Split(string(data), "\n")) {
		switch {
		case strings.Contains(line, "openat(") && strings.Contains(line, `.tmp"`) && strings.Contains(line, "O_CREAT"): // randomName
			tmpFD = retval(line)
		case strings.Contains(line, "fsync(") || strings.Contains(line, "fdatasync("):
			fd, _, _ := strings.Cut(line[strings.IndexByte(line, '(')+1:], ")")
			synced[fd] = true
			if renamed && fd == dirFD {
				syncedAfter = true
			}
		case strings.Contains(line, "rename") && strings.Contains(line, `"saved.jsonl"`):
			if tmpFD == "" || !synced[tmpFD] {
				t.Errorf("renamed before the temporary file (fd %q) was synced:\n%s", tmpFD, line)
			}
			renamed = true
		case renamed && strings.Contains(line, "openat(") && strings.Contains(line, `"data"`) && strings.Contains(line, "O_RDONLY"):
			dirFD = retval(line)
		}
	}
	if !renamed || !syncedAfter {
		t.Errorf("renamed %v, folder synced after the rename %v\n%s", renamed, syncedAfter, data)
	}
}

// retval is the result of a system call strace shows.
// joinResumed puts together the calls strace -f splits when threads interleave:
// "PID fsync(7 <unfinished ...>" and, later, "PID <... fsync resumed>) = 0" become
// "PID fsync(7) = 0", so that each call is one line (a split one made the parse panic).
func joinResumed(lines []string) []string {
	open := map[string]string{} // by pid: the start of a call not finished
	var out []string
	for _, line := range lines {
		pid, _, _ := strings.Cut(line, " ")
		if start, ok := strings.CutSuffix(line, " <unfinished ...>"); ok {
			open[pid] = start
			continue
		}
		if i := strings.Index(line, " resumed>"); i >= 0 && strings.Contains(line, "<... ") {
			line = open[pid] + line[i+len(" resumed>"):]
			delete(open, pid)
		}
		out = append(out, line)
	}
	return out
}

func retval(line string) string {
	i := strings.LastIndex(line, "= ")
	if i < 0 {
		return ""
	}
	return strings.Fields(line[i+2:])[0]
}

// TestDurableSaveChild is TestHardeningDurableSave's child: one upload.
func TestDurableSaveChild(t *testing.T) {
	dir := os.Getenv("BENCHY_DURABLE_CHILD")
	if dir == "" {
		t.Skip("run by TestHardeningDurableSave")
	}
	srv := newTestServer(t, Config{Workspace: dir})
	if r := call(t, srv, "PUT", "/api/files/data/saved.jsonl", `{"base64": "e30K"}`); r.status != http.StatusOK {
		t.Fatalf("upload: %d %s", r.status, r.body)
	}
}

// TestJoinResumed: a call strace split between two threads' lines is one line again, and
// a line the split left without its ')' no longer panics the durable-save parse.
func TestJoinResumed(t *testing.T) {
	got := joinResumed([]string{
		`101 openat(AT_FDCWD, "data/x.tmp", O_RDWR|O_CREAT|O_EXCL, 0600 <unfinished ...>`,
		`102 fsync(9 <unfinished ...>`,
		`101 <... openat resumed>) = 7`,
		`102 <... fsync resumed>) = 0`,
		`101 fsync(7) = 0`,
	})
	want := []string{
		`101 openat(AT_FDCWD, "data/x.tmp", O_RDWR|O_CREAT|O_EXCL, 0600) = 7`,
		`102 fsync(9) = 0`,
		`101 fsync(7) = 0`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("joinResumed:\n%q\nwant\n%q", got, want)
	}
	if retval(got[0]) != "7" {
		t.Errorf("retval(%q) = %q, want 7", got[0], retval(got[0]))
	}
}

package server

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/internal/testkit"
)

const invoiceYAML = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: finance, language: es}
program:
  input: {image: image}
  output: {invoice_number: string, total: float}
scoring:
  weights: {invoice_number: 1, total: 5}
  aggregator: weighted_mean
data: {path: data/invoices.jsonl}
ai-system: {type: external, id: invoice-extractor-v7}
`

// workspace makes a workspace with a valid and an invalid benchmark, a runtime file, a
// hidden store folder and a secret outside it.
func workspace(t *testing.T) (dir, outside string) {
	t.Helper()
	base := t.TempDir()
	dir, outside = filepath.Join(base, "ws"), filepath.Join(base, "secret.yaml")
	files := map[string]string{
		"invoices/benchmark.yaml": invoiceYAML,
		"broken.yaml":             "version: 1.0\n",
		RuntimeFile:               "bindings:\n  invoice-extractor-v7:\n    command: [./extract, --token=s3cret]\nproviders:\n  local: {kind: openai, base_url: \"http://10.0.0.1:8000/v1\"}\n",
		".benchy/ignored.yaml":    invoiceYAML,
	}
	testkit.WriteFiles(t, dir, files)
	os.WriteFile(outside, []byte("version: \"1.0\"\n# outside the workspace\n"), 0o644)
	return dir, outside
}

func newTestServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	if cfg.Workspace == "" {
		cfg.Workspace, _ = workspace(t)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv
}

type reply struct {
	status int
	body   string
}

func call(t *testing.T, srv *httptest.Server, method, path, body string, header ...string) reply {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, string(data)}
}

func TestNewRefusesOpenAddressWithoutToken(t *testing.T) {
	dir, _ := workspace(t)
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8080", "", true},
		{"localhost:0", "", true},
		{"[::1]:9000", "", true},
		{"0.0.0.0:8080", "", false},
		{"192.168.1.5:8080", "", false},
		{":8080", "", false},
		{"0.0.0.0:8080", testToken, true},
	}
	for _, tt := range tests {
		s, err := New(Config{Workspace: dir, Addr: tt.addr, Token: tt.token})
		if (err == nil) != tt.ok || (!tt.ok && !errors.Is(err, ErrTokenRequired)) {
			t.Errorf("New(%s, token %q) = %v, want ok=%v", tt.addr, tt.token, err, tt.ok)
		}
		if s != nil {
			s.Close()
		}
	}
}

// testToken is a token long enough for New.
const testToken = "t0k3n-t0k3n-t0k3n"

func TestToken(t *testing.T) {
	srv := newTestServer(t, Config{Addr: "0.0.0.0:0", Token: testToken})
	if r := call(t, srv, "GET", "/api/ontology", ""); r.status != http.StatusUnauthorized || !strings.Contains(r.body, `"code":"unauthorized"`) {
		t.Errorf("no token: %d %s", r.status, r.body)
	}
	if r := call(t, srv, "GET", "/api/ontology", "", "Authorization", "Bearer wrong"); r.status != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", r.status)
	}
	if r := call(t, srv, "GET", "/api/ontology", "", "Authorization", "Bearer "+testToken); r.status != http.StatusOK {
		t.Errorf("right token: %d %s", r.status, r.body)
	}
}

func TestCompileMatchesTheCLI(t *testing.T) {
	srv := newTestServer(t, Config{})
	body, _ := json.Marshal(map[string]string{"yaml": invoiceYAML})
	r := call(t, srv, "POST", "/api/compile", string(body))
	var got api.Compiled
	if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &got) != nil {
		t.Fatalf("%d %s", r.status, r.body)
	}
	canonical, hash, _ := compiler.CompileCanonical([]byte(invoiceYAML))
	if got.IRHash != hash || string(got.IR) != string(canonical) || len(got.Diagnostics) != 0 {
		t.Errorf("compile: hash %s (want %s), diagnostics %v", got.IRHash, hash, got.Diagnostics)
	}
	body, _ = json.Marshal(map[string]string{"yaml": "version: 1.0\n"})
	r = call(t, srv, "POST", "/api/compile", string(body))
	if !strings.Contains(r.body, `"ir":null`) || !strings.Contains(r.body, `"code":"unsupported_version"`) || !strings.Contains(r.body, `"line":1`) {
		t.Errorf("invalid: %s", r.body)
	}
}

func TestStateChangesNeedJSONFromSameOrigin(t *testing.T) {
	srv := newTestServer(t, Config{})
	body := `{"yaml": "version: \"1.0\"\n"}`
	req := func(header ...string) int {
		h := append([]string{"Content-Type", "application/json"}, header...)
		return call(t, srv, "POST", "/api/compile", body, h...).status
	}
	if got := req("Content-Type", "text/plain"); got != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain: %d", got)
	}
	if got := req("Origin", "http://evil.example"); got != http.StatusForbidden {
		t.Errorf("other origin: %d", got)
	}
	if got := req("Origin", srv.URL); got != http.StatusOK {
		t.Errorf("same origin: %d", got)
	}
	if got := req(); got != http.StatusOK {
		t.Errorf("no origin (not a browser): %d", got)
	}
}

func TestBodyLimit(t *testing.T) {
	srv := newTestServer(t, Config{MaxBody: 1 << 10})
	big := `{"yaml": "` + strings.Repeat("a", 4<<10) + `"}`
	if r := call(t, srv, "POST", "/api/compile", big); r.status != http.StatusRequestEntityTooLarge || !strings.Contains(r.body, "too_large") {
		t.Errorf("oversized body: %d %s", r.status, r.body)
	}
	if r := call(t, srv, "PUT", "/api/benchmarks/x.yaml", big); r.status != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized save: %d", r.status)
	}
}

func TestListBenchmarks(t *testing.T) {
	srv := newTestServer(t, Config{})
	r := call(t, srv, "GET", "/api/benchmarks", "")
	var list []api.Benchmark
	if err := json.Unmarshal([]byte(r.body), &list); err != nil {
		t.Fatal(r.body)
	}
	if len(list) != 2 || list[0].Path != "broken.yaml" || list[0].Valid || list[1].Path != "invoices/benchmark.yaml" ||
		!list[1].Valid || list[1].Task != "extract" || list[1].Domain != "finance" || !strings.HasPrefix(list[1].IRHash, "sha256:") {
		t.Errorf("list: %s", r.body)
	}
}

func TestReadAndSaveBenchmarks(t *testing.T) {
	dir, _ := workspace(t)
	srv := newTestServer(t, Config{Workspace: dir})
	r := call(t, srv, "GET", "/api/benchmarks/invoices/benchmark.yaml", "")
	if r.status != http.StatusOK || !strings.Contains(r.body, `"ir_hash":"sha256:`) || !strings.Contains(r.body, `"yaml":"version:`) {
		t.Errorf("get: %d %s", r.status, r.body)
	}
	// Saving an invalid benchmark works and returns its diagnostics.
	body, _ := json.Marshal(map[string]string{"yaml": "version: \"2.0\"\n"})
	r = call(t, srv, "PUT", "/api/benchmarks/new/draft.yaml", string(body))
	if r.status != http.StatusOK || !strings.Contains(r.body, "unsupported_version") {
		t.Errorf("put: %d %s", r.status, r.body)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "new", "draft.yaml")); string(data) != "version: \"2.0\"\n" {
		t.Errorf("saved %q", data)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "new"))
	if len(entries) != 1 {
		t.Errorf("a temporary file was left behind: %v", entries)
	}
	if r := call(t, srv, "GET", "/api/benchmarks/none.yaml", ""); r.status != http.StatusNotFound {
		t.Errorf("missing: %d", r.status)
	}
}

// TestPathsStayInTheWorkspace: no way out through .., absolute paths, hidden folders or
// symbolic links, for reading or writing.
func TestPathsStayInTheWorkspace(t *testing.T) {
	dir, outside := workspace(t)
	os.Symlink(outside, filepath.Join(dir, "link.yaml"))
	os.Symlink(filepath.Dir(outside), filepath.Join(dir, "up"))
	srv := newTestServer(t, Config{Workspace: dir})
	for _, p := range []string{
		"/api/benchmarks/../secret.yaml",
		"/api/benchmarks/%2e%2e/secret.yaml",
		"/api/benchmarks/..%2fsecret.yaml",
		"/api/benchmarks//etc/passwd.yaml",
		"/api/benchmarks/.benchy/ignored.yaml",
		"/api/benchmarks/link.yaml",
		"/api/benchmarks/up/secret.yaml",
		"/api/benchmarks/" + RuntimeFile,
		"/api/benchmarks/notes.txt",
	} {
		r := call(t, srv, "GET", p, "")
		if r.status == http.StatusOK || strings.Contains(r.body, "outside the workspace") {
			t.Errorf("GET %s: %d %s", p, r.status, r.body)
		}
		w := call(t, srv, "PUT", p, `{"yaml": "pwned: true\n"}`)
		if w.status == http.StatusOK && !strings.Contains(p, "//etc") { // that one is ws/etc/passwd.yaml
			t.Errorf("PUT %s: %d %s", p, w.status, w.body)
		}
	}
	if data, _ := os.ReadFile(outside); strings.Contains(string(data), "pwned") {
		t.Error("a file outside the workspace was written")
	}
	if info, err := os.Lstat(filepath.Join(dir, "link.yaml")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Error("saving over a symbolic link replaced it")
	}
}

func TestBindingsShowNamesOnly(t *testing.T) {
	srv := newTestServer(t, Config{})
	r := call(t, srv, "GET", "/api/bindings", "")
	if r.status != http.StatusOK || r.body != `{"bindings":["invoice-extractor-v7"],"providers":["local"]}`+"\n" {
		t.Errorf("bindings: %d %s", r.status, r.body)
	}
	for _, secret := range []string{"s3cret", "--token", "10.0.0.1", "command"} {
		if strings.Contains(r.body, secret) {
			t.Errorf("bindings reveal %q", secret)
		}
	}
}

func TestUnknownEndpoint(t *testing.T) {
	srv := newTestServer(t, Config{})
	if r := call(t, srv, "GET", "/api/nothing", ""); r.status != http.StatusNotFound || !strings.Contains(r.body, `"code":"not_found"`) {
		t.Errorf("%d %s", r.status, r.body)
	}
}

// An invalid runtime file is answered with each problem at its place in that file, named
// by its workspace path, as benchy run prints it.
func TestInvalidRuntimeNamesItsFile(t *testing.T) {
	dir, _ := workspace(t)
	os.WriteFile(filepath.Join(dir, "invoices", RuntimeFile), []byte("bindings:\n  x: {comand: [./a]}\n"), 0o644)
	srv := newTestServer(t, Config{Workspace: dir})
	r := call(t, srv, "POST", "/api/runs", `{"benchmark":"invoices/benchmark.yaml"}`)
	want := `"message":"invoices/` + RuntimeFile + `:2:7: invalid_runtime: `
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, want) {
		t.Errorf("POST /api/runs: %d %s, want 422 with %q", r.status, r.body, want)
	}
}

// TestBindingsPerBenchmark: the run page's binding check asks for the runtime file the
// benchmark binds through, by the rule runs start by, not the workspace root's (which said
// "no binding" for a run that then started, and "defined" for one then refused).
func TestBindingsPerBenchmark(t *testing.T) {
	dir, _ := workspace(t)
	testkit.WriteFiles(t, dir, map[string]string{
		"sub/" + RuntimeFile:  "bindings:\n  sub-only: {command: [./a]}\n",
		"bad/" + RuntimeFile:  "bindings:\n  x: {comand: [./a]}\n",
		"sub/deep/only.yaml":  "x",
		"invoices/other.yaml": "x",
	})
	srv := newTestServer(t, Config{Workspace: dir})
	tests := []struct {
		query      string
		status     int
		bodyPrefix string
	}{
		{"", 200, `{"bindings":["invoice-extractor-v7"],"providers":["local"]}` + "\n"}, // as before: no runtime_file
		{"?benchmark=sub/deep/only.yaml", 200, `{"bindings":["sub-only"],"providers":[],"runtime_file":"sub/` + RuntimeFile + `"}`},
		{"?benchmark=invoices/other.yaml", 200, `{"bindings":["invoice-extractor-v7"],"providers":["local"],"runtime_file":"` + RuntimeFile + `"}`},
		{"?benchmark=bad/b.yaml", 422, `{"error":{"code":"invalid_runtime","message":"bad/` + RuntimeFile + `:2:7: invalid_runtime: `},
		{"?benchmark=../x.yaml", 400, `{"error":{"code":"bad_path"`},
	}
	for _, tt := range tests {
		r := call(t, srv, "GET", "/api/bindings"+tt.query, "")
		if r.status != tt.status || !strings.HasPrefix(r.body, tt.bodyPrefix) {
			t.Errorf("GET /api/bindings%s: %d %s, want %d %s…", tt.query, r.status, r.body, tt.status, tt.bodyPrefix)
		}
	}
}

// TestRuntimeLinkRefused: a runtime file that is a link leading out of the workspace is
// refused where the rule finds it, for runs and for the binding check alike; the benchmark
// does not silently bind through the workspace's runtime file above it (as it did), nor
// through the link (as benchy run did: both now read it by workspace.LoadRuntime).
func TestRuntimeLinkRefused(t *testing.T) {
	dir, outside := workspace(t)
	os.MkdirAll(filepath.Join(dir, "sym"), 0o755)
	os.WriteFile(filepath.Join(dir, "sym", "b.yaml"), []byte(invoiceYAML), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "sym", RuntimeFile)); err != nil {
		t.Skip(err)
	}
	srv := newTestServer(t, Config{Workspace: dir})
	for _, c := range [][3]string{
		{"POST", "/api/runs", `{"benchmark":"sym/b.yaml"}`},
		{"GET", "/api/bindings?benchmark=sym/b.yaml", ""},
	} {
		r := call(t, srv, c[0], c[1], c[2])
		if r.status != http.StatusForbidden || !strings.Contains(r.body, `"unreadable"`) || !strings.Contains(r.body, "sym/"+RuntimeFile+" is a link") {
			t.Errorf("%s %s: %d %s, want 403 unreadable naming sym/%s", c[0], c[1], r.status, r.body, RuntimeFile)
		}
	}
}

// TestMissingBindingNamesFile: a runtime file that lacks the benchmark's binding is named
// in the refusal, as benchy run names it: with runtime files in subfolders, "the runtime
// file" alone does not say which.
func TestMissingBindingNamesFile(t *testing.T) {
	dir, _ := workspace(t)
	testkit.WriteFiles(t, dir, map[string]string{
		"sub/" + RuntimeFile: "bindings:\n  other: {command: [sh]}\n",
		"sub/b.yaml":         invoiceYAML,
	})
	srv := newTestServer(t, Config{Workspace: dir})
	r := call(t, srv, "POST", "/api/runs", `{"benchmark":"sub/b.yaml"}`)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, `"message":"sub/`+RuntimeFile+`: `) {
		t.Errorf("POST /api/runs: %d %s, want 422 missing_binding naming sub/%s", r.status, r.body, RuntimeFile)
	}
}

// TestRuntimeLinkInsideRefused: a runtime file that is a link to another file of the
// workspace is refused as the runtime file. Its target has another name, so the server saves
// it like any .yaml (PUT /api/benchmarks), and nothing guards what it runs: a client could
// write a command there and start a run that executes it.
func TestRuntimeLinkInsideRefused(t *testing.T) {
	dir, _ := workspace(t)
	testkit.WriteFiles(t, dir, map[string]string{
		"conf/real.yaml": "bindings:\n  invoice-extractor-v7: {command: [./extract]}\n",
		"sub/b.yaml":     invoiceYAML,
	})
	if err := os.Symlink("../conf/real.yaml", filepath.Join(dir, "sub", RuntimeFile)); err != nil {
		t.Skip(err)
	}
	srv := newTestServer(t, Config{Workspace: dir})
	pwned := filepath.Join(dir, "PWNED")
	cmd := "bindings:\n  invoice-extractor-v7: {command: [sh, -c, \"touch " + pwned + "\"]}\n"
	body, _ := json.Marshal(map[string]string{"yaml": cmd})
	call(t, srv, "PUT", "/api/benchmarks/conf/real.yaml", string(body)) // a .yaml like any other
	r := call(t, srv, "POST", "/api/runs", `{"benchmark":"sub/b.yaml"}`)
	if r.status != http.StatusForbidden || !strings.Contains(r.body, "sub/"+RuntimeFile+" is a link") {
		t.Errorf("POST /api/runs: %d %s, want 403: the runtime file is a link", r.status, r.body)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("the command saved through the API ran")
	}
}

// TestSaveNeverWritesARuntimeFile: a save whose text is a runtime file (bindings or
// providers at its top) is refused under any name: benchy run --runtime ci.runtime.yaml
// reads one of any name, so a client could otherwise write the commands a run executes.
func TestSaveNeverWritesARuntimeFile(t *testing.T) {
	srv := newTestServer(t, Config{})
	for _, text := range []string{
		"bindings:\n  x: {command: [sh, -c, id]}\n",
		"providers:\n  p: {kind: openai, base_url: \"http://127.0.0.1:1/v1\"}\n",
		"# a comment first\nbindings: {}\n",
	} {
		body, _ := json.Marshal(map[string]string{"yaml": text})
		r := call(t, srv, "PUT", "/api/benchmarks/ci.runtime.yaml", string(body))
		if r.status != http.StatusForbidden || !strings.Contains(r.body, `"not_benchmark_data"`) {
			t.Errorf("save of %q: %d %s, want 403 not_benchmark_data", text, r.status, r.body)
		}
	}
	body, _ := json.Marshal(map[string]string{"yaml": "version: 1.0\n"}) // a draft with problems is saved
	if r := call(t, srv, "PUT", "/api/benchmarks/draft.yaml", string(body)); r.status != http.StatusOK {
		t.Errorf("save of a draft: %d %s", r.status, r.body)
	}
}

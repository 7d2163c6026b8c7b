package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// saveBody is a PUT /api/benchmarks body of text.
func saveBody(text string) string {
	b, _ := json.Marshal(map[string]string{"yaml": text})
	return string(b)
}

// sha256Tag is the etag a file of text must have: its bytes' sha256, quoted.
func sha256Tag(text string) string {
	sum := sha256.Sum256([]byte(text))
	return `"sha256:` + hex.EncodeToString(sum[:]) + `"`
}

// TestGetBenchmarkETag: GET answers the strong etag of the file's bytes, in the ETag
// header and in the JSON alike.
func TestGetBenchmarkETag(t *testing.T) {
	dir, _ := workspace(t)
	srv := newTestServer(t, Config{Workspace: dir})
	resp, err := srv.Client().Get(srv.URL + api.BenchmarkPath("invoices/benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var f api.BenchmarkFile
	json.NewDecoder(resp.Body).Decode(&f)
	want := sha256Tag(invoiceYAML)
	if got := resp.Header.Get("ETag"); got != want {
		t.Errorf("ETag header %q, want %q", got, want)
	}
	if f.ETag != want {
		t.Errorf("etag %q in the JSON, want %q", f.ETag, want)
	}
}

// TestSavePreconditions: each way a save may name what it replaces, and what the server
// answers: the file on disk changes only on a 200.
func TestSavePreconditions(t *testing.T) {
	const existing, mine = "version: \"1.0\"\n# on disk\n", "version: \"1.0\"\n# mine\n"
	tests := []struct {
		name   string
		exists bool
		header []string
		status int
		code   api.Code // of an error answer
	}{
		{"an overwrite without a precondition is refused", true, nil, http.StatusPreconditionRequired, api.PreconditionRequired},
		{"an overwrite of the version read is saved", true, []string{"If-Match", sha256Tag(existing)}, http.StatusOK, ""},
		{"an overwrite of a version among several is saved", true, []string{"If-Match", `"sha256:00", ` + sha256Tag(existing)}, http.StatusOK, ""},
		{"an overwrite of another version is a conflict", true, []string{"If-Match", sha256Tag("version: \"1.0\"\n")}, http.StatusPreconditionFailed, api.EditConflict},
		{"a weak etag never matches", true, []string{"If-Match", "W/" + sha256Tag(existing)}, http.StatusPreconditionFailed, api.EditConflict},
		{"If-Match: * overwrites whatever is there", true, []string{"If-Match", "*"}, http.StatusOK, ""},
		{"a create over an existing file is a conflict", true, []string{"If-None-Match", "*"}, http.StatusPreconditionFailed, api.EditConflict},
		{"a create of a new file is saved", false, []string{"If-None-Match", "*"}, http.StatusOK, ""},
		{"a new file needs no precondition", false, nil, http.StatusOK, ""},
		{"an overwrite of a file gone is a conflict", false, []string{"If-Match", sha256Tag(existing)}, http.StatusPreconditionFailed, api.EditConflict},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "b.yaml")
			if tc.exists {
				os.WriteFile(file, []byte(existing), 0o644)
			}
			srv := newTestServer(t, Config{Workspace: dir})
			r := call(t, srv, "PUT", api.BenchmarkPath("b.yaml"), saveBody(mine), tc.header...)
			if r.status != tc.status {
				t.Fatalf("%d %s, want %d", r.status, r.body, tc.status)
			}
			data, err := os.ReadFile(file)
			switch {
			case tc.status == http.StatusOK:
				var f api.BenchmarkFile
				strict(t, "PUT", strings.TrimSuffix(r.body, "\n"), &f)
				if f.ETag != sha256Tag(mine) {
					t.Errorf("etag %q, want the new version's %q", f.ETag, sha256Tag(mine))
				}
				if string(data) != mine {
					t.Errorf("the file holds %q, want %q", data, mine)
				}
				return
			case tc.exists && string(data) != existing:
				t.Errorf("a refused save changed the file: %q", data)
			case !tc.exists && err == nil:
				t.Errorf("a refused save created the file")
			}
			if tc.code != api.EditConflict {
				if !strings.Contains(r.body, `"code":"`+string(tc.code)+`"`) {
					t.Errorf("%s, want code %s", r.body, tc.code)
				}
				return
			}
			var c api.EditConflictError
			strict(t, "PUT", strings.TrimSuffix(r.body, "\n"), &c)
			wantYAML, wantTag := "", ""
			if tc.exists {
				wantYAML, wantTag = existing, sha256Tag(existing)
			}
			if c.Error.Error.Code != api.EditConflict || c.YAML != wantYAML || c.ETag != wantTag {
				t.Errorf("conflict %+v, want the file as it is: %q, etag %q", c, wantYAML, wantTag)
			}
		})
	}
}

// TestSaveAnswersNewETag: the etag a save answers is the one the next save names; the
// etag it replaced is stale from then on.
func TestSaveAnswersNewETag(t *testing.T) {
	dir, _ := workspace(t)
	srv := newTestServer(t, Config{Workspace: dir})
	p := api.BenchmarkPath("invoices/benchmark.yaml")
	var f api.BenchmarkFile
	json.Unmarshal([]byte(call(t, srv, "GET", p, "").body), &f)
	old := f.ETag
	resp, err := func() (*http.Response, error) {
		req, _ := http.NewRequest("PUT", srv.URL+p, strings.NewReader(saveBody(invoiceYAML+"# one\n")))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("If-Match", old)
		return srv.Client().Do(req)
	}()
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	next := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || next != sha256Tag(invoiceYAML+"# one\n") {
		t.Fatalf("first save: %s, ETag %q", resp.Status, next)
	}
	if r := call(t, srv, "PUT", p, saveBody(invoiceYAML+"# two\n"), "If-Match", old); r.status != http.StatusPreconditionFailed {
		t.Errorf("a save naming the replaced version: %d %s", r.status, r.body)
	}
	if r := call(t, srv, "PUT", p, saveBody(invoiceYAML+"# two\n"), "If-Match", next); r.status != http.StatusOK {
		t.Errorf("a save naming the new version: %d %s", r.status, r.body)
	}
}

// TestSaveRefusalsBeforePrecondition: what PUT refused before it took preconditions it
// refuses as it did, with or without one: a bad path, a runtime-like text, a body too
// large; a file that is not a benchmark is not a conflict.
func TestSaveRefusalsBeforePrecondition(t *testing.T) {
	dir, _ := workspace(t)
	srv := newTestServer(t, Config{Workspace: dir, MaxBody: 8 << 10})
	runtime := saveBody("bindings:\n  a:\n    command: [./x]\n")
	for _, header := range [][]string{nil, {"If-Match", `"sha256:00"`}, {"If-None-Match", "*"}} {
		tests := []struct {
			path, body string
			status     int
			code       api.Code
		}{
			{"/api/benchmarks/..%2Fx.yaml", saveBody("a: 1\n"), http.StatusBadRequest, api.BadPath},
			{"/api/benchmarks/invoices/benchmark.yaml", runtime, http.StatusForbidden, api.NotBenchmarkData},
			{"/api/benchmarks/invoices/benchmark.yaml", saveBody(strings.Repeat("#", 16<<10)), http.StatusRequestEntityTooLarge, api.TooLarge},
		}
		for _, tc := range tests {
			r := call(t, srv, "PUT", tc.path, tc.body, header...)
			if r.status != tc.status || !strings.Contains(r.body, `"code":"`+string(tc.code)+`"`) {
				t.Errorf("PUT %s with %q: %d %.200s, want %d %s", tc.path, header, r.status, r.body, tc.status, tc.code)
			}
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "invoices", "benchmark.yaml")); string(data) != invoiceYAML {
		t.Errorf("a refused save changed the file")
	}
}

// TestSaveTwoWriters: two tabs that read one version and save at once: one save wins, the
// other is told of the conflict with the winner's text; never both, whatever the timing
// (the read, compare and write of one path run under its lock).
func TestSaveTwoWriters(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "b.yaml")
	srv := newTestServer(t, Config{Workspace: dir})
	text := "version: \"1.0\"\n"
	os.WriteFile(file, []byte(text), 0o644)
	for round := range 40 {
		tag := sha256Tag(text)
		mine := [2]string{text + "# A\n", text + "# B\n"}
		var replies [2]reply
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range 2 {
			done.Go(func() {
				start.Wait()
				replies[i] = call(t, srv, "PUT", api.BenchmarkPath("b.yaml"), saveBody(mine[i]), "If-Match", tag)
			})
		}
		start.Done()
		done.Wait()
		won := -1
		for i, r := range replies {
			switch r.status {
			case http.StatusOK:
				if won >= 0 {
					t.Fatalf("round %d: both saves of one version succeeded", round)
				}
				won = i
			case http.StatusPreconditionFailed:
			default:
				t.Fatalf("round %d: %d %s", round, r.status, r.body)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: neither save succeeded: %v", round, replies)
		}
		var c api.EditConflictError
		json.Unmarshal([]byte(replies[1-won].body), &c)
		if c.YAML != mine[won] || c.ETag != sha256Tag(mine[won]) {
			t.Errorf("round %d: the conflict carries %q %s, want the winner's text", round, c.YAML, c.ETag)
		}
		data, _ := os.ReadFile(file)
		if string(data) != mine[won] {
			t.Fatalf("round %d: the file holds %q, want the winner's %q", round, data, mine[won])
		}
		text = string(data)
	}
}

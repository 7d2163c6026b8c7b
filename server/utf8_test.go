package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
)

// notUTF8YAML is the invoice benchmark with one byte that is not UTF-8 in its domain.
var notUTF8YAML = strings.Replace(invoiceYAML, "domain: finance", "domain: fin\xffance", 1)

// utf8Workspace is the test workspace with invoices/utf.yaml, notUTF8YAML.
func utf8Workspace(t *testing.T) string {
	t.Helper()
	dir, _ := workspace(t)
	if err := os.WriteFile(filepath.Join(dir, "invoices", "utf.yaml"), []byte(notUTF8YAML), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGetBenchmarkNotUTF8: a file that is not UTF-8 is refused, 422 invalid_yaml at the
// compiler's line and column, and no text is handed out: JSON would carry U+FFFD for the
// byte, which an editor saving it back would write over the file.
func TestGetBenchmarkNotUTF8(t *testing.T) {
	dir := utf8Workspace(t)
	if !strings.Contains(notUTF8YAML, "\xff") {
		t.Fatal("the test file lost its bad byte")
	}
	_, ds := compiler.Compile([]byte(notUTF8YAML))
	if len(ds) == 0 || ds[0].Code != diag.InvalidYAML || !strings.Contains(ds[0].Message, "not valid UTF-8") {
		t.Fatalf("the compiler says %v, want invalid_yaml: not valid UTF-8", ds)
	}
	srv := newTestServer(t, Config{Workspace: dir})
	r := call(t, srv, "GET", api.BenchmarkPath("invoices/utf.yaml"), "")
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422: %s", r.status, r.body)
	}
	var e api.Error
	if err := json.Unmarshal([]byte(r.body), &e); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
	want := fmt.Sprintf("the file is not valid UTF-8 at line %d, column %d: fix it outside the editor", ds[0].Line, ds[0].Column)
	if e.Error.Code != api.InvalidYAML || !strings.Contains(e.Error.Message, want) {
		t.Errorf("answer %+v, want code invalid_yaml and a message with %q", e.Error, want)
	}
	for _, leak := range []string{"fin", "\ufffd", `"yaml":`, "program"} {
		if strings.Contains(r.body, leak) {
			t.Errorf("the refusal carries %q of the text: %s", leak, r.body)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "invoices", "utf.yaml")); string(got) != notUTF8YAML {
		t.Error("the read changed the file")
	}
	// A valid file of the same workspace still opens, with its etag.
	ok := call(t, srv, "GET", api.BenchmarkPath("invoices/benchmark.yaml"), "")
	var f api.BenchmarkFile
	json.Unmarshal([]byte(ok.body), &f)
	if ok.status != http.StatusOK || f.YAML != invoiceYAML || f.ETag != sha256Tag(invoiceYAML) {
		t.Errorf("the valid file: status %d, etag %q", ok.status, f.ETag)
	}
}

// TestBenchmarksListNotUTF8: the listing shows a file that is not UTF-8 as invalid, with
// its diagnostic counted.
func TestBenchmarksListNotUTF8(t *testing.T) {
	srv := newTestServer(t, Config{Workspace: utf8Workspace(t)})
	var list []api.Benchmark
	decode(t, srv, "GET", "/api/benchmarks", "", http.StatusOK, &list)
	for _, b := range list {
		if b.Path == "invoices/utf.yaml" {
			if b.Valid || b.Diagnostics == 0 || b.IRHash != "" {
				t.Errorf("listed as %+v, want invalid with its diagnostic", b)
			}
			return
		}
	}
	t.Errorf("invoices/utf.yaml is not listed: %+v", list)
}

// TestSaveNotUTF8: a save whose text is not UTF-8 (a raw byte, or an escaped lone
// surrogate) is refused before anything is written, over a file or as a new one.
func TestSaveNotUTF8(t *testing.T) {
	dir := utf8Workspace(t)
	srv := newTestServer(t, Config{Workspace: dir})
	bodies := map[string]string{
		"a raw byte":           "{\"yaml\": \"version: \\\"1.0\\\"\\n# fin\xffance\\n\"}",
		"an escaped surrogate": `{"yaml": "version: \"1.0\"\n# fin\udcffance\n"}`,
	}
	for name, body := range bodies {
		for _, p := range []string{"invoices/utf.yaml", "invoices/benchmark.yaml", "new.yaml"} {
			t.Run(name+" over "+p, func(t *testing.T) {
				file := filepath.Join(dir, filepath.FromSlash(p))
				before, beforeErr := os.ReadFile(file)
				r := call(t, srv, "PUT", api.BenchmarkPath(p), body, "If-Match", "*")
				var e api.Error
				json.Unmarshal([]byte(r.body), &e)
				if r.status != http.StatusBadRequest || e.Error.Code != api.BadRequest {
					t.Errorf("status %d %s, want 400 bad_request", r.status, r.body)
				}
				after, afterErr := os.ReadFile(file)
				if string(after) != string(before) || (beforeErr == nil) != (afterErr == nil) {
					t.Errorf("the file changed: %q, was %q", after, before)
				}
			})
		}
	}
}

package server

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestUploadFiles: datasets and assets can be uploaded into the workspace, atomically and
// confined; the runtime file (which names the commands that run) and hidden folders cannot.
func TestUploadFiles(t *testing.T) {
	dir, outside := workspace(t)
	srv := newTestServer(t, Config{Workspace: dir})
	body := `{"base64": "` + base64.StdEncoding.EncodeToString([]byte("{\"input\": {}}\n")) + `"}`
	if r := call(t, srv, "PUT", "/api/files/invoices/data/new.jsonl", body); r.status != http.StatusOK || !strings.Contains(r.body, `"size":14`) {
		t.Fatalf("upload: %d %s", r.status, r.body)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "invoices", "data", "new.jsonl")); string(data) != "{\"input\": {}}\n" {
		t.Errorf("stored %q", data)
	}
	for _, p := range []string{RuntimeFile, "sub/" + RuntimeFile, ".benchy/benchy.db", "../secret.yaml", "%2e%2e/secret.yaml"} {
		if r := call(t, srv, "PUT", "/api/files/"+p, body); r.status == http.StatusOK {
			t.Errorf("PUT %s accepted", p)
		}
	}
	if data, _ := os.ReadFile(outside); strings.Contains(string(data), "input") {
		t.Error("a file outside the workspace was written")
	}
	if r := call(t, srv, "PUT", "/api/files/x.jsonl", `{"base64": "***"}`); r.status != http.StatusBadRequest {
		t.Errorf("bad base64: %d", r.status)
	}
	if r := call(t, srv, "PUT", "/api/files/x.jsonl", body, "Content-Type", "text/plain"); r.status != http.StatusUnsupportedMediaType {
		t.Errorf("neither JSON nor raw bytes: %d", r.status)
	}
}

// TestSaveBesideRuntimeComments: what keeps a file from being written is what a binding's
// command names, not any word of the runtime file. The examples' runtime file, whose
// comments name invoices, translation and language-id, lets a benchmark be saved as
// invoices/paper.yaml (the README's headline flow) and data be uploaded to language-id/;
// a folder a command names is still refused, and a runtime file that does not parse still
// counts every word.
func TestSaveBesideRuntimeComments(t *testing.T) {
	examples, err := os.ReadFile(filepath.Join("..", "assets", "examples", RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := workspace(t)
	testkit.WriteFiles(t, dir, map[string]string{
		RuntimeFile: string(examples),
		"commented/" + RuntimeFile: "# ../data/ is named here, in a comment only\n" +
			"bindings:\n  x:                # reads ../notes/\n    command: [./tool, ../tools/]\n",
		"broken/" + RuntimeFile: "bindings: [\n  # ../media/\n",
	})
	srv := newTestServer(t, Config{Workspace: dir})
	yaml, _ := json.Marshal(map[string]string{"yaml": invoiceYAML})
	data := b64("{\"input\": {}}\n")
	for _, tt := range []struct {
		method, path, body string
		want               int
	}{
		{"PUT", "/api/benchmarks/invoices/paper.yaml", string(yaml), http.StatusOK},
		{"PUT", "/api/benchmarks/translation/new.yaml", string(yaml), http.StatusOK},
		{"PUT", "/api/files/language-id/data/more.jsonl", data, http.StatusOK},
		{"PUT", "/api/files/data/x.jsonl", data, http.StatusOK},       // named in commented/'s comments only
		{"PUT", "/api/files/notes/x.txt", data, http.StatusOK},        // likewise
		{"PUT", "/api/files/tools/x.txt", data, http.StatusForbidden}, // commented/'s command names ../tools/
		{"PUT", "/api/files/media/x.txt", data, http.StatusForbidden}, // broken/ does not parse: every word counts
	} {
		r := call(t, srv, tt.method, tt.path, tt.body)
		if r.status != tt.want || tt.want == http.StatusForbidden && !strings.Contains(r.body, `"runs_program"`) {
			t.Errorf("%s %s: %d %s, want %d", tt.method, tt.path, r.status, r.body, tt.want)
		}
	}
}

// TestUploadNamedByPathsBackIn: a command word that leaves the workspace and comes back in
// (../ws/run.txt from its root, /WS/../ws/run.txt, //WS/run.txt) names the file it reaches,
// so uploading that file is refused; only the exact workspace spelling was matched.
func TestUploadNamedByPathsBackIn(t *testing.T) {
	dir, _ := workspace(t)
	name := filepath.Base(dir)
	testkit.WriteFiles(t, dir, map[string]string{
		RuntimeFile: "bindings:\n  a: {command: [sh, ../" + name + "/a.txt]}\n" +
			"  b: {command: [sh, " + dir + "/../" + name + "/b.txt]}\n" +
			"  c: {command: [sh, /" + dir + "/c.txt]}\n" +
			"  d: {command: [sh, -c, \"sh sub/../d.txt\"]}\n",
	})
	srv := newTestServer(t, Config{Workspace: dir})
	for _, f := range []string{"a.txt", "b.txt", "c.txt", "d.txt"} {
		r := call(t, srv, "PUT", "/api/files/"+f, b64("x"))
		if r.status != http.StatusForbidden || !strings.Contains(r.body, `"runs_program"`) {
			t.Errorf("PUT %s: %d %s, want 403 runs_program", f, r.status, r.body)
		}
	}
	if r := call(t, srv, "PUT", "/api/files/e.txt", b64("x")); r.status != http.StatusOK {
		t.Errorf("PUT e.txt, named by no command: %d %s", r.status, r.body)
	}
}

package server

import (
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestUploadRefusesRuntimeText: PUT /api/files writes no text that is a runtime file
// (bindings or providers at its top), whatever its extension, raw or as base64: benchy run
// --runtime FILE would run its commands. It is refused 403 not_benchmark_data, as a
// benchmark save of such a text is, and nothing is written, not even a temporary file.
// Prose that mentions bindings, data and media are written.
func TestUploadRefusesRuntimeText(t *testing.T) {
	dir, _ := workspace(t)
	rs := serveReal(t, Config{Workspace: dir}, nil)
	own := "127.0.0.1:" + rs.port
	runtimeText := "bindings:\n  pwn:\n    command: [sh, -c, \"touch pwned\"]\n"
	refused := map[string]string{
		"notes.txt":     runtimeText,
		"prompts/x.md":  "# a comment first\n" + runtimeText,
		"providers.txt": "providers:\n  p: {kind: openai, base_url: \"http://127.0.0.1:9/v1\"}\n",
		"data/rt.jsonl": `{"bindings": {"pwn": {"command": ["sh", "-c", "touch pwned"]}}}` + "\n",
		"long.txt":      runtimeText + strings.Repeat("# padding past the first 512 bytes\n", 100),
	}
	for name, text := range refused {
		for _, raw := range []bool{false, true} {
			body, header := b64(text), []string{}
			if raw {
				body, header = text, []string{"Content-Type", "application/octet-stream"}
			}
			status, code := rs.ask(t, "PUT", "/api/files/"+name, own, body, header...)
			if status != http.StatusForbidden || code != string(api.NotBenchmarkData) {
				t.Errorf("PUT /api/files/%s (raw %v): %d %s, want 403 not_benchmark_data", name, raw, status, code)
			}
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				t.Errorf("%s was written", name)
				os.Remove(filepath.Join(dir, name))
			}
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, tempDir)); len(entries) != 0 {
		t.Errorf("temporary files left: %v", entries)
	}
	accepted := map[string]string{
		"prose.txt":      "The bindings: a runtime file says where each AI-system is.\n",
		"indented.md":    "notes:\n  bindings: not at the top\n",
		"data/ok.jsonl":  `{"input": {"bindings": 1}, "expected": {"n": 1}}` + "\n" + `{"input": {"providers": 2}, "expected": {"n": 2}}` + "\n",
		"img/a.png":      "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00\xff", 300),
		"prompts/sys.md": "You read invoices.\n---user---\n{{text}}\n",
	}
	for name, text := range accepted {
		status, code := rs.ask(t, "PUT", "/api/files/"+name, own, text, "Content-Type", "application/octet-stream")
		if status != http.StatusOK {
			t.Errorf("PUT /api/files/%s: %d %s, want 200", name, status, code)
		}
	}
}

package server

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// uploadWorkspace is workspace with a runtime file whose command runs a script and names
// a rules file and a folder of word lists, a script it runs, an executable text file and a
// folder that is a link.
func uploadWorkspace(t *testing.T) string {
	t.Helper()
	dir, _ := workspace(t)
	files := map[string]string{
		RuntimeFile: "bindings:\n  invoice-extractor-v7:\n    command: [python3, adapters/extract.py, --rules=conf/rules.txt, \"lists/\"]\n" +
			"  other:\n    command: [sh, -c, \"./run.sh < conf/input.jsonl\"]\n",
		"adapters/extract.py":      "print('hello')\n",
		"conf/rules.txt":           "rule\n",
		"lists/words.txt":          "word\n",
		"sub/" + RuntimeFile:       "bindings:\n  x:\n    command: [./sub-tool, notes.md]\n",
		"data/existing.jsonl":      "{}\n",
		"invoices/config.yaml":     "a: 1\n",
		"invoices/benchmark2.yaml": invoiceYAML,
	}
	testkit.WriteFiles(t, dir, files)
	os.WriteFile(filepath.Join(dir, "tool.txt"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "invoices", "run.yaml"), []byte("#!/bin/sh\n"), 0o755)
	os.Symlink(filepath.Join(dir, ".benchy"), filepath.Join(dir, "linked"))
	return dir
}

func b64(s string) string {
	return `{"base64": "` + base64.StdEncoding.EncodeToString([]byte(s)) + `"}`
}

// TestHardeningUploadsAreData: uploads and saves write benchmark content only. Scripts,
// libraries, .pth files, files without an extension, hidden files, the runtime file and
// whatever a binding's command names are refused with a registered code and not written;
// data, prompts and media are written 0644, never executable.
func TestHardeningUploadsAreData(t *testing.T) {
	dir := uploadWorkspace(t)
	rs := serveReal(t, Config{Workspace: dir}, nil)
	own := "127.0.0.1:" + rs.port
	refused := map[string]string{}
	for _, name := range []string{"json.py", "evil.pth", "lib.so", "run.sh", "app.js", "x.pyc", "x.rb", "x.pl",
		"lib.dylib", "x.exe", "x.bat", "x.jar", "x.mjs", "x.cjs", "x.wasm", "x.ps1", "x.php", "x.lua", "X.class",
		"sitecustomize.py", "data/json.py", "invoices/decimal.py", "extract", "Makefile", "x.json", "x.toml",
		"x.cfg", "x.ini", "x.yaml", "x.jsonl.py"} {
		refused[name] = "not_benchmark_data"
	}
	for _, name := range []string{".env", "data/.hidden.jsonl", ".git/hooks/x.txt", "node_modules/x/y.txt",
		".benchy/x.jsonl", RuntimeFile, "sub/" + RuntimeFile} {
		refused[name] = "bad_path"
	}
	refused["linked/x.jsonl"] = "bad_path"       // a folder on the way is a link (to .benchy)
	refused["conf/rules.txt"] = "runs_program"   // named by a command
	refused["lists/new.txt"] = "runs_program"    // under a folder a command names
	refused["conf/input.jsonl"] = "runs_program" // inside a shell command's string
	refused["sub/notes.md"] = "runs_program"     // named by the runtime file beside it
	refused["tool.txt"] = "executable"           // an executable file is not replaced
	for name, want := range refused {
		for _, raw := range []bool{false, true} {
			body, header := b64("print('pwned')\n"), []string{}
			if raw {
				body, header = "print('pwned')\n", []string{"Content-Type", "application/octet-stream"}
			}
			status, code := rs.ask(t, "PUT", "/api/files/"+name, own, body, header...)
			if status < 400 || status >= 500 || code != want {
				t.Errorf("PUT /api/files/%s (raw %v): %d %q, want 4xx %s", name, raw, status, code, want)
			}
			if !api.Registered(api.Code(code)) {
				t.Errorf("PUT /api/files/%s: unregistered code %q", name, code)
			}
		}
		if data, _ := os.ReadFile(filepath.Join(dir, name)); strings.Contains(string(data), "pwned") {
			t.Errorf("%s was written", name)
		}
	}
	// Saves of benchmarks: not over an executable file, nor a file a command names.
	save := `{"yaml": "version: \"1.0\"\n"}`
	if status, code := rs.ask(t, "PUT", "/api/benchmarks/invoices/run.yaml", own, save); status != http.StatusForbidden || code != "executable" {
		t.Errorf("save over an executable: %d %s", status, code)
	}
	os.WriteFile(filepath.Join(dir, RuntimeFile), []byte("bindings:\n  a:\n    command: [./tool, invoices/config.yaml]\n"), 0o644)
	if status, code := rs.ask(t, "PUT", "/api/benchmarks/invoices/config.yaml", own, save); status != http.StatusForbidden || code != "runs_program" {
		t.Errorf("save over a file a command names: %d %s", status, code)
	}

	accepted := []string{"data/new.jsonl", "data/existing.jsonl", "prompts/system.md", "notes.txt", "img/a.PNG",
		"img/b.jpeg", "audio/c.wav", "audio/d.mp3", "docs/e.pdf", "img/f.webp"}
	for i, name := range accepted {
		body, header := b64("{}\n"), []string{}
		if i%2 == 1 {
			body, header = "{}\n", []string{"Content-Type", "application/octet-stream"}
		}
		if status, code := rs.ask(t, "PUT", "/api/files/"+name, own, body, header...); status != http.StatusOK {
			t.Errorf("PUT /api/files/%s: %d %s", name, status, code)
			continue
		}
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.Mode().Perm()&0o111 != 0 || info.Size() != 3 {
			t.Errorf("%s: %v, mode %v", name, err, info.Mode())
		}
	}
	if status, _ := rs.ask(t, "PUT", "/api/benchmarks/invoices/benchmark2.yaml", own, save, "If-Match", "*"); status != http.StatusOK {
		t.Errorf("a benchmark save: %d", status)
	}
}

// TestHardeningUploadStreams: a raw upload goes to disk as it arrives: a 48 MB file costs
// the server far less memory than its size, and one over MaxUpload is refused (413) and
// leaves nothing.
func TestHardeningUploadStreams(t *testing.T) {
	dir, _ := workspace(t)
	rs := serveReal(t, Config{Workspace: dir}, nil)
	put := func(name string, size int64) (int, string) {
		req, _ := http.NewRequest("PUT", rs.base+"/api/files/"+name, io.LimitReader(zeros{}, size))
		req.Header.Set("Content-Type", "application/octet-stream")
		req.ContentLength = size
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var e api.Error
		json.Unmarshal(data, &e)
		return resp.StatusCode, string(e.Error.Code)
	}
	const size = 48 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if status, code := put("big/data.jsonl", size); status != http.StatusOK {
		t.Fatalf("upload: %d %s", status, code)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc // client and server: both in this process
	t.Logf("a %d MB upload allocated %.1f MB", size>>20, float64(alloc)/(1<<20))
	if alloc > 8<<20 {
		t.Errorf("a %d MB upload allocated %d MB: it is held in memory", size>>20, alloc>>20)
	}
	if info, err := os.Stat(filepath.Join(dir, "big", "data.jsonl")); err != nil || info.Size() != size {
		t.Errorf("stored: %v %v", info, err)
	}
	if status, code := put("big/huge.jsonl", MaxUpload+1); status != http.StatusRequestEntityTooLarge || code != "too_large" {
		t.Errorf("over MaxUpload: %d %s", status, code)
	}
	if _, err := os.Stat(filepath.Join(dir, "big", "huge.jsonl")); err == nil {
		t.Error("a refused upload was stored")
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, tempDir)); len(entries) != 0 {
		t.Errorf("temporary files left: %v", entries)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestBenchmarkReadRefusesRuntimeFiles: GET /api/benchmarks/{path} never hands out a
// runtime file, whatever name reaches it: a symbolic link to it, a hard link to it, a copy
// under another name (bindings or providers at its top, which benchy run --runtime FILE
// reads), or a link to a hidden file. Each is refused 403 with a registered code and a
// message without a byte of the file, and none is in the listing; ordinary benchmarks,
// and a link to one, are still read, and listed.
func TestBenchmarkReadRefusesRuntimeFiles(t *testing.T) {
	dir, _ := workspace(t)
	runtimeText, err := os.ReadFile(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "my.runtime.yaml"), runtimeText, 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=s3cret\n"), 0o644)
	links := map[string]string{
		"linked.yaml":       RuntimeFile,
		"env.yaml":          ".env",
		"invoices/ok.yaml":  "benchmark.yaml",
		"invoices/rt.yaml":  "../" + RuntimeFile,
		"invoices/rt2.yaml": "../my.runtime.yaml",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	if err := os.Link(filepath.Join(dir, RuntimeFile), filepath.Join(dir, "hard.yaml")); err != nil {
		t.Skip("no hard links here:", err)
	}
	srv := newTestServer(t, Config{Workspace: dir})

	for _, p := range []string{"linked.yaml", "hard.yaml", "my.runtime.yaml", "env.yaml", "invoices/rt.yaml", "invoices/rt2.yaml"} {
		r := call(t, srv, "GET", "/api/benchmarks/"+p, "")
		var e api.Error
		json.Unmarshal([]byte(r.body), &e)
		if (r.status != http.StatusForbidden && r.status != http.StatusBadRequest) || !api.Registered(e.Error.Code) {
			t.Errorf("GET %s: %d %.120s, want 403 or 400 with a registered code", p, r.status, r.body)
		}
		for _, secret := range []string{"s3cret", "10.0.0.1", "extract", "bindings:"} {
			if strings.Contains(r.body, secret) {
				t.Errorf("GET %s shows %q of the file", p, secret)
			}
		}
	}
	for _, p := range []string{"env.yaml", "hard.yaml", "invoices/rt.yaml"} { // nor run, which would quote it in diagnostics
		if r := call(t, srv, "POST", "/api/runs", `{"benchmark": "`+p+`"}`); r.status < 400 || strings.Contains(r.body, "s3cret") {
			t.Errorf("POST /api/runs of %s: %d %.300s, want a refusal without its text", p, r.status, r.body)
		}
	}
	for _, p := range []string{"invoices/benchmark.yaml", "invoices/ok.yaml", "broken.yaml"} {
		if r := call(t, srv, "GET", "/api/benchmarks/"+p, ""); r.status != http.StatusOK {
			t.Errorf("GET %s: %d %.300s, want 200", p, r.status, r.body)
		}
	}

	var list []api.Benchmark
	decode(t, srv, "GET", "/api/benchmarks", "", http.StatusOK, &list)
	listed := map[string]bool{}
	for _, b := range list {
		listed[b.Path] = true
	}
	for _, p := range []string{"invoices/benchmark.yaml", "broken.yaml"} {
		if !listed[p] {
			t.Errorf("the listing lacks %s: %v", p, listed)
		}
	}
	for _, p := range []string{"linked.yaml", "hard.yaml", "my.runtime.yaml", "env.yaml", "invoices/rt.yaml", "invoices/rt2.yaml", RuntimeFile} {
		if listed[p] {
			t.Errorf("the listing shows %s, a runtime or hidden file under another name", p)
		}
	}
}

// TestBenchmarkReadRefusesHardLinks: a benchmark with another name (a hard link) may be any
// file's, a hidden one or one outside the workspace, so it is neither read nor listed, as
// the artifact endpoint serves none.
func TestBenchmarkReadRefusesHardLinks(t *testing.T) {
	dir, _ := workspace(t)
	outside := filepath.Join(filepath.Dir(dir), "private.yaml")
	os.WriteFile(outside, []byte("version: \"1.0\"\n# not for the API\n"), 0o644)
	if err := os.Link(outside, filepath.Join(dir, "other.yaml")); err != nil {
		t.Skip("no hard links here:", err)
	}
	srv := newTestServer(t, Config{Workspace: dir})
	r := call(t, srv, "GET", "/api/benchmarks/other.yaml", "")
	var e api.Error
	json.Unmarshal([]byte(r.body), &e)
	if r.status != http.StatusForbidden || !api.Registered(e.Error.Code) || strings.Contains(r.body, "not for the API") {
		t.Errorf("GET a hard link: %d %.120s, want 403 without its text", r.status, r.body)
	}
	var list []api.Benchmark
	decode(t, srv, "GET", "/api/benchmarks", "", http.StatusOK, &list)
	for _, b := range list {
		if b.Path == "other.yaml" {
			t.Errorf("the listing shows the hard link other.yaml")
		}
	}
}

// TestBenchmarkReadRefusesLongRuntimeText: a runtime file padded past the compiler's 1 MiB
// limit (which then says too_large, not its keys), and one of executors alone, are runtime
// files all the same (benchy run --runtime reads their start): GET refuses them, the
// listing leaves them out and a save is refused, as an upload of the same text is; a run
// of one is refused 403 private_file, not compiled into diagnostics that name its keys.
func TestBenchmarkReadRefusesLongRuntimeText(t *testing.T) {
	dir, _ := workspace(t)
	runtimeText, err := os.ReadFile(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	padded := string(runtimeText) + strings.Repeat("# "+strings.Repeat("x", 1000)+"\n", 1200)
	executors := "executors:\n  hpc: {kind: slurm, partition: gpu}\n"
	os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(padded), 0o644)
	os.WriteFile(filepath.Join(dir, "exec.yaml"), []byte(executors), 0o644)
	srv := newTestServer(t, Config{Workspace: dir, MaxBody: 8 << 20})
	for _, p := range []string{"big.yaml", "exec.yaml"} {
		if r := call(t, srv, "GET", "/api/benchmarks/"+p, ""); r.status != http.StatusForbidden || strings.Contains(r.body, "10.0.0.1") || strings.Contains(r.body, "partition") {
			t.Errorf("GET %s: %d %.200s, want 403 without its text", p, r.status, r.body)
		}
		r := call(t, srv, "POST", "/api/runs", `{"benchmark": "`+p+`"}`)
		var e api.Error
		json.Unmarshal([]byte(r.body), &e)
		if r.status != http.StatusForbidden || e.Error.Code != api.PrivateFile {
			t.Errorf("POST /api/runs of %s: %d %.200s, want 403 private_file", p, r.status, r.body)
		}
	}
	var list []api.Benchmark
	decode(t, srv, "GET", "/api/benchmarks", "", http.StatusOK, &list)
	for _, b := range list {
		if b.Path == "big.yaml" || b.Path == "exec.yaml" {
			t.Errorf("the listing shows %s", b.Path)
		}
	}
	for name, text := range map[string]string{"saved-big.yaml": padded, "saved-exec.yaml": executors} {
		body, _ := json.Marshal(map[string]string{"yaml": text})
		if r := call(t, srv, "PUT", "/api/benchmarks/"+name, string(body), "If-None-Match", "*"); r.status != http.StatusForbidden {
			t.Errorf("PUT /api/benchmarks/%s: %d %.200s, want 403", name, r.status, r.body)
		}
	}
}

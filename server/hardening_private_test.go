package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// modelYAML is a benchmark of a model behind the provider "local", with an image input.
const modelYAML = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: finance, language: en}
program:
  input: {image: image}
  output: {number: string}
scoring:
  weights: {number: 1}
  aggregator: weighted_mean
data: {path: data.jsonl}
ai-system: {type: model, provider: local, model: m}
`

// TestHardeningRunPrivateHardLinks (issue 11 hardening, the runtime file sent to a
// provider through a hard link): a run started through the API never reads a runtime file
// of the workspace (its own, or a sibling folder's) nor a hidden file of its top folder
// as data under another name: a hard link to one as the dataset, an artifact or the prompt
// file is refused, and the provider (a recording stand-in) is never asked anything.
func TestHardeningRunPrivateHardLinks(t *testing.T) {
	var asked atomic.Int64
	var leaked atomic.Bool
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if body, _ := io.ReadAll(r.Body); strings.Contains(string(body), "SECRET") {
			leaked.Store(true)
		}
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer provider.Close()

	dir := runWorkspace(t, slow{})
	rt, err := os.OpenFile(filepath.Join(dir, RuntimeFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	rt.WriteString("providers:\n  local: {kind: openai, base_url: '" + provider.URL + "/v1?token=SECRET-in-the-runtime-file', max_retries: 0}\n")
	rt.Close()
	row := func(image string) string {
		return `{"input": {"image": "` + image + `"}, "expected": {"number": "1"}}` + "\n"
	}
	files := map[string]string{
		"sub/" + RuntimeFile:       "bindings:\n  x:\n    command: [sh, SECRET-of-a-sibling.sh]\n",
		".env":                     "KEY=SECRET-in-env\n",
		"art/benchmark.yaml":       modelYAML,
		"art/data.jsonl":           row("rt.png"),
		"art-sub/benchmark.yaml":   modelYAML,
		"art-sub/data.jsonl":       row("rt.png"),
		"art-env/benchmark.yaml":   modelYAML,
		"art-env/data.jsonl":       row("env.png"),
		"ds/benchmark.yaml":        strings.Replace(slowYAML, "data.jsonl", "rows.jsonl", 1),
		"prompt/benchmark.yaml":    strings.Replace(modelYAML, "model: m}", "model: m, prompt: rt.md}", 1),
		"prompt/data.jsonl":        row("ok.png"),
		"prompt/ok.png":            "png",
		"prompt-ok/benchmark.yaml": strings.Replace(modelYAML, "model: m}", "model: m, prompt: p.md}", 1),
		"prompt-ok/data.jsonl":     row("ok.png"),
		"prompt-ok/ok.png":         "png",
		"prompt-ok/p.md":           "Read the invoice.",
	}
	testkit.WriteFiles(t, dir, files)
	for link, target := range map[string]string{
		"art/rt.png":      RuntimeFile,
		"art-sub/rt.png":  "sub/" + RuntimeFile,
		"art-env/env.png": ".env",
		"ds/rows.jsonl":   RuntimeFile,
		"prompt/rt.md":    RuntimeFile,
	} {
		if err := os.Link(filepath.Join(dir, target), filepath.Join(dir, link)); err != nil {
			t.Skip("no hard links here:", err)
		}
	}
	_, srv := serve(t, Config{Workspace: dir})

	for _, tt := range []struct {
		benchmark string
		code      diag.Code
	}{
		{"art/benchmark.yaml", diag.ArtifactNotFound},
		{"art-sub/benchmark.yaml", diag.ArtifactNotFound},
		{"art-env/benchmark.yaml", diag.ArtifactNotFound},
		{"ds/benchmark.yaml", diag.DataNotFound},
	} {
		id := startRun(t, srv, `{"benchmark": "`+tt.benchmark+`"}`)
		v := waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
		if v.Status != api.Aborted || v.Error == nil || v.Error.Code != string(tt.code) || !strings.Contains(v.Error.Message, "is the runtime file") {
			t.Errorf("%s (a hard link): %s %+v, want aborted with %s saying it is the runtime file", tt.benchmark, v.Status, v.Error, tt.code)
		}
		if r := call(t, srv, "GET", "/api/runs/"+id, ""); strings.Contains(r.body, "SECRET") {
			t.Errorf("%s: the run shows the refused file: %s", tt.benchmark, r.body)
		}
	}
	r := call(t, srv, "POST", "/api/runs", `{"benchmark": "prompt/benchmark.yaml"}`)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "is the runtime file") || strings.Contains(r.body, "SECRET") {
		t.Errorf("a prompt file that is a hard link to the runtime file: %d %s", r.status, r.body)
	}
	if n := asked.Load(); n != 0 || leaked.Load() {
		t.Errorf("the provider was asked %d times (a secret in a request: %v), want never", n, leaked.Load())
	}
	if got := calls(t, dir); len(got) != 0 {
		t.Errorf("the slow AI-system was asked for %v", got)
	}
	// A benchmark of the same kind with files of its own runs, and asks the provider.
	id := startRun(t, srv, `{"benchmark": "prompt-ok/benchmark.yaml"}`)
	if v := waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil }); v.Status != api.Completed || asked.Load() == 0 {
		t.Errorf("a benchmark with its own prompt and image: %s %+v, the provider asked %d times", v.Status, v.Error, asked.Load())
	}
}

// TestHardeningUploadSiblingRuntime (issue 11 hardening, an upload over what a sibling
// folder's binding runs): the API does not write a file that any runtime file of the
// workspace names, resolved against that file's own folder: sub/benchy.runtime.yaml
// running ../shared/helper.txt keeps shared/helper.txt from an upload, at any depth; one
// in a hidden folder, or a word that leaves the workspace, does not count.
func TestHardeningUploadSiblingRuntime(t *testing.T) {
	dir, _ := workspace(t)
	files := map[string]string{
		"sub/" + RuntimeFile:          "bindings:\n  b:\n    command: [sh, ../shared/helper.txt]\n",
		"deep/a/b/" + RuntimeFile:     "bindings:\n  c:\n    command: [python3, ../../../tools/run.md, '--rules=../rules/']\n",
		".hidden/" + RuntimeFile:      "bindings:\n  h:\n    command: [sh, ../free/hidden.txt]\n",
		"far/" + RuntimeFile:          "bindings:\n  f:\n    command: [sh, ../../outside.txt]\n",
		"sub/b.yaml":                  strings.Replace(invoiceYAML, "invoice-extractor-v7", "b", 1),
		"shared/helper.txt":           "echo hello\n",
		"node_modules/" + RuntimeFile: "bindings:\n  n:\n    command: [sh, ../free/modules.txt]\n",
	}
	testkit.WriteFiles(t, dir, files)
	rs := serveReal(t, Config{Workspace: dir}, nil)
	own := "127.0.0.1:" + rs.port
	for name, want := range map[string]string{
		"shared/helper.txt":     "runs_program", // the finding: named by sub/'s runtime file
		"shared/new.txt":        "",
		"tools/run.md":          "runs_program",
		"deep/a/rules/x.txt":    "runs_program", // under a folder a command names
		"free/hidden.txt":       "",             // a runtime file in a hidden folder binds nothing the server runs
		"free/modules.txt":      "",
		"outside.txt":           "",
		"sub/shared/helper.txt": "",
		"deep/a/b/tools/run.md": "",
	} {
		status, code := rs.ask(t, "PUT", "/api/files/"+name, own, "echo pwned\n", "Content-Type", "application/octet-stream")
		switch {
		case want == "" && status != http.StatusOK:
			t.Errorf("PUT %s: %d %s, want 200", name, status, code)
		case want != "" && (status != http.StatusForbidden || code != want):
			t.Errorf("PUT %s: %d %s, want 403 %s", name, status, code, want)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "shared", "helper.txt")); string(data) != "echo hello\n" {
		t.Errorf("shared/helper.txt was overwritten: %q", data)
	}
	// A runtime file too large to read whole could name anything: nothing is written.
	big := "bindings:\n  big:\n    command: [sh, ../shared/other.txt]\n" + strings.Repeat("#", maxRuntimeRead)
	os.MkdirAll(filepath.Join(dir, "big"), 0o755)
	os.WriteFile(filepath.Join(dir, "big", RuntimeFile), []byte(big), 0o644)
	if status, code := rs.ask(t, "PUT", "/api/files/shared/other.txt", own, "x", "Content-Type", "application/octet-stream"); status != http.StatusForbidden || code != "unchecked" {
		t.Errorf("PUT beside a runtime file of %d bytes: %d %s, want 403 unchecked", len(big), status, code)
	}
}

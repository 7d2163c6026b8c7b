package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/store"
)

// TestHardeningRunPathsConfined (issue 11, finding 4): a run started through the API reads
// its dataset and prompt file only inside the server's workspace, after symbolic links,
// and never the runtime file or a hidden file: the run aborts with data_not_found (or the
// binding is refused) before the AI-system is asked anything, and no answer shows a byte
// of the file refused. A dataset elsewhere in the workspace is fine.
func TestHardeningRunPathsConfined(t *testing.T) {
	const secret = "~SECRET~"
	dir := runWorkspace(t, slow{})
	top := filepath.Dir(dir)
	withData := func(path string) string {
		return strings.Replace(slowYAML, "data: {path: data.jsonl}", "data: {path: "+path+"}", 1)
	}
	files := map[string]string{
		filepath.Join(top, "outside.jsonl"): secret + " outside\n",
		filepath.Join(dir, ".env"):          secret + "=1\n",
		"escape/benchmark.yaml":             withData("../../outside.jsonl"),
		"link/benchmark.yaml":               withData("./rows.jsonl"),
		"runtime/benchmark.yaml":            withData("../" + RuntimeFile),
		"env/benchmark.yaml":                withData("../.env"),
		"shared/benchmark.yaml":             withData("../slow/data.jsonl"),
		"prompt/benchmark.yaml": strings.Replace(withData("../slow/data.jsonl"), "ai-system: {type: external, id: slow-system}",
			"ai-system: {type: model, provider: local, model: m, prompt: ../.env}", 1),
	}
	for name, text := range files {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, name)
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(top, "outside.jsonl"), filepath.Join(dir, "link", "rows.jsonl")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	rt, err := os.OpenFile(filepath.Join(dir, RuntimeFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	rt.WriteString("providers:\n  local: {kind: openai, base_url: 'http://127.0.0.1:9/v1'}\n")
	rt.Close()
	_, srv := serve(t, Config{Workspace: dir})

	for _, tt := range []struct{ benchmark, why string }{
		{"escape/benchmark.yaml", "lies outside the workspace"},
		{"link/benchmark.yaml", "lies outside the workspace"},
		{"runtime/benchmark.yaml", "is the runtime file"},
		{"env/benchmark.yaml", "hidden"},
	} {
		id := startRun(t, srv, `{"benchmark": "`+tt.benchmark+`"}`)
		v := waitRun(t, srv, id, "finished", func(v api.Run) bool { return v.FinishedAt != nil })
		if v.Status != api.Aborted || v.Error == nil || v.Error.Code != string(diag.DataNotFound) || !strings.Contains(v.Error.Message, tt.why) {
			t.Errorf("%s: %s %+v, want aborted with data_not_found saying %q", tt.benchmark, v.Status, v.Error, tt.why)
		}
		if r := call(t, srv, "GET", "/api/runs/"+id, ""); strings.Contains(r.body, "SECRET") {
			t.Errorf("%s: the run shows the refused file: %s", tt.benchmark, r.body)
		}
	}
	if got := calls(t, dir); len(got) != 0 {
		t.Errorf("the AI-system was asked for %v", got)
	}
	r := call(t, srv, "POST", "/api/runs", `{"benchmark": "prompt/benchmark.yaml"}`)
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, `the prompt file \"../.env\" is hidden`) || strings.Contains(r.body, "SECRET") {
		t.Errorf("a prompt naming .env: %d %s", r.status, r.body)
	}
	id := startRun(t, srv, `{"benchmark": "shared/benchmark.yaml"}`)
	if v := waitStatus(t, srv, id, store.Completed); v.Summary == nil || v.Summary.Examples != slowExamples {
		t.Errorf("a dataset elsewhere in the workspace: %+v", v)
	}
}

// TestHardeningRuntimeFileAnyCase: the server's path rules are the engine's (engine.IsPrivate),
// so the runtime file in another case (the same file on macOS or Windows) is neither written
// by a save nor shown as a dataset's rows; the server's own copies matched its exact name only.
func TestHardeningRuntimeFileAnyCase(t *testing.T) {
	dir, _ := workspace(t)
	s, _ := serve(t, Config{Workspace: dir})
	for _, p := range []string{"Benchy.Runtime.yaml", "sub/BENCHY.RUNTIME.YAML"} {
		if refusal := s.writable(p, benchmarkExtensions); refusal == nil || refusal.code != api.BadPath {
			t.Errorf("writable(%s) = %v, want %s", p, refusal, api.BadPath)
		}
		run := store.Run{Benchmark: "b/benchmark.yaml", IR: json.RawMessage(`{"data":{"path":"../` + p + `"}}`)}
		if got := datasetPath(run); got != "" {
			t.Errorf("data path %s is read for pages as %q", p, got)
		}
	}
}

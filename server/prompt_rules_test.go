package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestRunPromptFollowsArtifactRules: a run started through the API, of a saved benchmark
// or of a system file sent with it (systems: [{yaml}]), never sends as its prompt (nor
// records, for GET /api/runs/{id}/results/{i} to return) a file a binding's command names
// or a runtime file under another name: it is refused 422 binding_unusable before any
// call, without a byte of the file. An ordinary prompt still runs.
func TestRunPromptFollowsArtifactRules(t *testing.T) {
	var asked atomic.Int64
	dir := modelWorkspace(t, chatStub(t, &asked).URL)
	rt, err := os.ReadFile(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	rt = append(rt, "bindings:\n  ext:\n    command: [./tool, --config=qa/secret.txt]\n"...)
	files := map[string]string{
		RuntimeFile:           string(rt),
		"qa/secret.txt":       "TOPSECRET the adapter's configuration\n",
		"qa/copy.txt":         string(rt),
		"copy/benchmark.yaml": strings.Replace(qaYAML, "prompt: prompt.md", "prompt: ../qa/copy.txt", 1),
		"copy/data.jsonl":     `{"input": {"q": "one"}, "expected": {"answer": "a"}}` + "\n",
	}
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, srv := serve(t, Config{Workspace: dir})
	system := func(prompt string) string {
		y, _ := json.Marshal("ai-system: {type: model, provider: local, model: m, prompt: " + prompt + "}\n")
		return `{"benchmark": "qa/benchmark.yaml", "systems": [{"yaml": ` + string(y) + `}]}`
	}
	for _, body := range []string{system("secret.txt"), system("copy.txt"), `{"benchmark": "copy/benchmark.yaml"}`} {
		r := call(t, srv, "POST", "/api/runs", body)
		var e api.Error
		json.Unmarshal([]byte(r.body), &e)
		if r.status != http.StatusUnprocessableEntity || e.Error.Code != api.BindingUnusable || !strings.Contains(r.body, "ai-system.prompt") {
			t.Errorf("%s: %d %.300s, want 422 binding_unusable at ai-system.prompt", body, r.status, r.body)
		}
		for _, secret := range []string{"TOPSECRET", "./tool", "127.0.0.1"} {
			if strings.Contains(r.body, secret) {
				t.Errorf("%s: the answer shows %q", body, secret)
			}
		}
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the provider was asked %d times, want never", n)
	}
	startRun(t, srv, system("prompt.md"))
}

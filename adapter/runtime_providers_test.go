package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// modelBenchmark is a benchmark whose model AI-system names provider, with prompt.
func modelBenchmark(providerName, prompt string) *ir.Benchmark {
	return &ir.Benchmark{
		Program: ir.Program{
			Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "text", Type: ir.TypeString}}},
			Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "label", Type: ir.TypeString}}},
		},
		AISystem: ir.AISystem{Type: ir.SystemModel, Provider: providerName, Model: "m-1", Prompt: prompt},
	}
}

func TestFactoryModel(t *testing.T) {
	const key = "sk-test-TheKeyItself42"
	t.Setenv("BENCHY_TEST_KEY", key)
	var got struct {
		path, auth string
		body       []byte
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path, got.auth = r.URL.Path, r.Header.Get("Authorization")
		got.body, _ = io.ReadAll(r.Body)
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"{\"label\":\"ok\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`)
	}))
	defer srv.Close()

	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "prompts"), 0o755)
	os.WriteFile(filepath.Join(root, "prompts", "system.txt"), []byte("Label the text."), 0o644)
	rt, err := ParseRuntime([]byte("providers:\n  local:\n    kind: openai\n    base_url: "+srv.URL+"/v1\n    api_key_env: BENCHY_TEST_KEY\n    max_retries: 0\n"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f, name, err := rt.Factory(modelBenchmark("local", "prompts/system.txt"), root, nil)
	if err != nil || f == nil || name != "local" {
		t.Fatalf("Factory = %v, %q, %v", f != nil, name, err)
	}
	a, err := f()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	out, err := a.Invoke(context.Background(), 0, map[string]any{"text": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if ans, ok := out.(*engine.Answer); !ok || ans.Output.(map[string]any)["label"] != "ok" {
		t.Errorf("Invoke = %#v", out)
	}
	if got.path != "/v1/chat/completions" || got.auth != "Bearer "+key {
		t.Errorf("request to %q with Authorization %q", got.path, got.auth)
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(got.body, &req); err != nil || req.Model != "m-1" || len(req.Messages) == 0 ||
		req.Messages[0].Role != "system" || req.Messages[0].Content != "Label the text." {
		t.Errorf("the prompt file is not the system message: %s", got.body)
	}
}

func TestFactoryModelErrors(t *testing.T) {
	const key = "sk-live-NeverShowMe987"
	t.Setenv("BENCHY_SET_KEY", key)
	t.Setenv("BENCHY_UNSET_KEY", "")
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("not yours"), 0o644)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "prompt.txt"), []byte("Be brief."), 0o644)
	os.Mkdir(filepath.Join(root, "dir"), 0o755)
	os.WriteFile(filepath.Join(root, "latin1.txt"), []byte{'c', 'a', 'f', 0xe9}, 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	os.Symlink("prompt.txt", filepath.Join(root, "inside.txt"))

	path := filepath.Join(t.TempDir(), "runtime.yaml")
	os.WriteFile(path, []byte("providers:\n  openai: {kind: openai, api_key_env: BENCHY_SET_KEY}\n  anthropic: {kind: anthropic, api_key_env: BENCHY_UNSET_KEY}\n"), 0o644)
	rt, err := LoadRuntime(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		rt       *Runtime
		provider string
		prompt   string
		missing  bool     // wraps engine.ErrMissingBinding
		want     []string // substrings of the error; nil: no error
	}{
		{"a misspelt provider", rt, "opnai", "", true, []string{`defines no provider "opnai"`, path, `did you mean "openai"?`, "it defines anthropic, openai"}},
		{"an unknown provider", rt, "vllm", "", true, []string{`defines no provider "vllm"`, "it defines anthropic, openai"}},
		{"no runtime file", nil, "openai", "", true, []string{`no runtime file was given to define the provider "openai"`}},
		{"an unset key variable", rt, "anthropic", "", false, []string{"BENCHY_UNSET_KEY", "not set"}},
		{"a missing prompt file", rt, "openai", "absent.txt", false, []string{`cannot read the prompt file "absent.txt"`}},
		{"a prompt that is a directory", rt, "openai", "dir", false, []string{`"dir" is not a regular file`}},
		{"a prompt that is not UTF-8", rt, "openai", "latin1.txt", false, []string{`"latin1.txt" is not UTF-8 text`}},
		{"a prompt escaping by ..", rt, "openai", "../" + filepath.Base(outside) + "/secret.txt", false, []string{"lies outside the benchmark's directory"}},
		{"an absolute prompt", rt, "openai", filepath.ToSlash(filepath.Join(outside, "secret.txt")), false, []string{"lies outside the benchmark's directory"}},
		{"a prompt escaping by a symbolic link", rt, "openai", "link.txt", false, []string{`"link.txt" lies outside the benchmark's directory`}},
		{"a symbolic link inside the directory", rt, "openai", "inside.txt", false, nil},
		{"a prompt relative to root", rt, "openai", "./prompt.txt", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, name, err := tt.rt.Factory(modelBenchmark(tt.provider, tt.prompt), root, nil)
			if tt.want == nil {
				if err != nil || f == nil || name != tt.provider {
					t.Fatalf("Factory = %v, %q, %v", f != nil, name, err)
				}
				return
			}
			if f != nil || name != "" || err == nil {
				t.Fatalf("Factory = %v, %q, %v; want an error", f != nil, name, err)
			}
			if errors.Is(err, engine.ErrMissingBinding) != tt.missing {
				t.Errorf("errors.Is(err, ErrMissingBinding) = %v, want %v (%v)", !tt.missing, tt.missing, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "not yours") {
				t.Errorf("the error shows a secret: %v", err)
			}
		})
	}
}

func TestReadPrompt(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(root, "p.txt"), []byte("Answer in JSON.\n"), 0o644)
	for _, name := range []string{"p.txt", "a/../p.txt", "a/b/../../p.txt"} {
		if got, err := readPromptIn(root, name, engine.Paths{}, nil); err != nil || got != "Answer in JSON.\n" {
			t.Errorf("readPrompt(%q) = %q, %v", name, got, err)
		}
	}
	if got, err := readPromptIn(root, "", engine.Paths{}, nil); err != nil || got != "" {
		t.Errorf("no prompt: %q, %v", got, err)
	}
	t.Chdir(root)
	if got, err := readPromptIn("", "p.txt", engine.Paths{}, nil); err != nil || got != "Answer in JSON.\n" {
		t.Errorf("root \"\" is the working directory: %q, %v", got, err)
	}
}

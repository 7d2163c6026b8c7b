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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// The example providers.
const exampleProviders = `providers:
  openai:                       # the name used in ai-system.provider
    kind: openai
    base_url: https://api.openai.com/v1
    api_key_env: OPENAI_API_KEY
    max_concurrency: 16
    requests_per_minute: 500
    max_retries: 5
    timeout: 60s
    structured_output: json_mode
  local:
    kind: openai
    base_url: http://127.0.0.1:11434/v1
  claude: {kind: anthropic, max_retries: 0, timeout: 2m}
`

func TestParseProviders(t *testing.T) {
	rt, err := ParseRuntime([]byte(exampleProviders), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rt.ProviderNames(), []string{"claude", "local", "openai"}; !slices.Equal(got, want) {
		t.Errorf("ProviderNames() = %q, want %q", got, want)
	}
	want := map[string]provider.Config{
		"openai": {Name: "openai", Kind: provider.KindOpenAI, BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY",
			MaxConcurrency: 16, RequestsPerMinute: 500, MaxRetries: 5, Timeout: 60 * time.Second, StructuredOutput: provider.ModeJSONMode},
		// A minimal entry: the defaults written out, no key, no limits.
		"local": {Name: "local", Kind: provider.KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1",
			MaxRetries: provider.DefaultMaxRetries, Timeout: provider.DefaultTimeout, StructuredOutput: provider.ModeJSONSchema},
		// max_retries: 0 is "no retries", kept apart from "absent" as -1.
		"claude": {Name: "claude", Kind: provider.KindAnthropic, BaseURL: provider.DefaultBaseURL(provider.KindAnthropic),
			MaxRetries: -1, Timeout: 2 * time.Minute, StructuredOutput: provider.ModeJSONSchema},
	}
	for name, w := range want {
		if got := rt.providers[name]; got != w {
			t.Errorf("provider %s =\n %+v\nwant\n %+v", name, got, w)
		}
	}
	if len(rt.Names()) != 0 {
		t.Errorf("providers are not bindings: Names() = %q", rt.Names())
	}
}

func TestParseProvidersErrors(t *testing.T) {
	const secret = "sk-proj-DoNotEchoThis0123456789"
	tests := []struct {
		name, src string
		want      []string // substrings of the messages, in order
		line      int      // of the first diagnostic
		suggest   string   // of the first diagnostic
	}{
		{"unknown key", "providers:\n  a:\n    kind: openai\n    base_ulr: http://h/v1\n", []string{`provider "a": unknown key "base_ulr"; a provider has the keys kind, base_url`}, 4, "base_url"},
		{"no kind", "providers:\n  a:\n    base_url: http://h/v1\n", []string{`provider "a" has no kind; write kind: openai`}, 2, ""},
		{"an empty provider", "providers:\n  a:\n", []string{`provider "a" has no kind`}, 2, ""},
		{"a misspelt kind is not also a missing one", "providers:\n  a:\n    kidn: openai\n", []string{`unknown key "kidn"`}, 3, "kind"},
		{"unknown kind", "providers:\n  a:\n    kind: opneai\n", []string{`provider "a": unknown kind "opneai"; write openai (Chat Completions) or anthropic (Messages)`}, 3, "openai"},
		{"kind that is not a string", "providers:\n  a:\n    kind: [openai]\n", []string{`provider "a": kind must be openai`}, 3, ""},
		{"base_url with another scheme", "providers:\n  a: {kind: openai, base_url: 'ftp://h/v1'}\n", []string{`provider "a": base_url must be an http:// or https:// URL`}, 2, ""},
		{"base_url without a host", "providers:\n  a:\n    kind: openai\n    base_url: 'http:///v1'\n", []string{`provider "a": base_url URL has no host`}, 4, ""},
		{"base_url not a URL", "providers:\n  a:\n    kind: openai\n    base_url: '://x'\n", []string{`provider "a": base_url is not a valid URL`}, 4, ""},
		{"base_url empty", "providers:\n  a:\n    kind: openai\n    base_url: ''\n", []string{`provider "a": base_url must be a URL such as`}, 4, ""},
		{"zero max_concurrency", "providers:\n  a:\n    kind: openai\n    max_concurrency: 0\n", []string{`provider "a": max_concurrency must be at least 1; found 0`}, 4, ""},
		{"negative requests_per_minute", "providers:\n  a:\n    kind: openai\n    requests_per_minute: -5\n", []string{`provider "a": requests_per_minute must be at least 1; found -5`}, 4, ""},
		{"negative max_retries", "providers:\n  a:\n    kind: openai\n    max_retries: -1\n", []string{`provider "a": max_retries must be at least 0; found -1`}, 4, ""},
		{"a quoted number", "providers:\n  a:\n    kind: openai\n    max_concurrency: '16'\n", []string{`provider "a": max_concurrency must be a whole number of at least 1`}, 4, ""},
		{"a fraction", "providers:\n  a:\n    kind: openai\n    requests_per_minute: 1.5\n", []string{`provider "a": requests_per_minute must be a whole number`}, 4, ""},
		{"a huge number", "providers:\n  a:\n    kind: openai\n    max_concurrency: 99999999999999999999\n", []string{`provider "a": max_concurrency`}, 4, ""},
		{"timeout without a unit", "providers:\n  a:\n    kind: openai\n    timeout: 60\n", []string{`provider "a": timeout 60 has no unit; write 60s`}, 4, ""},
		{"bad timeout", "providers:\n  a:\n    kind: openai\n    timeout: soon\n", []string{`provider "a": timeout "soon" is not a duration`}, 4, ""},
		{"zero timeout", "providers:\n  a:\n    kind: openai\n    timeout: 0s\n", []string{`provider "a": timeout must be greater than zero`}, 4, ""},
		{"unknown structured_output", "providers:\n  a:\n    kind: openai\n    structured_output: json_shema\n", []string{`provider "a": unknown structured_output "json_shema"; write json_schema (the default) or json_mode`}, 4, "json_schema"},
		{"structured_output as a boolean", "providers:\n  a:\n    kind: openai\n    structured_output: true\n", []string{`provider "a": unknown structured_output "true"`}, 4, ""},
		{"a key written in the file", "providers:\n  a:\n    kind: openai\n    api_key: " + secret + "\n", []string{`provider "a": "api_key" looks like a credential; a key never goes in the runtime file`}, 4, "api_key_env"},
		{"a token written in the file", "providers:\n  a:\n    kind: anthropic\n    token: " + secret + "\n", []string{`provider "a": "token" looks like a credential`}, 4, "api_key_env"},
		{"the key where its variable's name belongs", "providers:\n  a:\n    kind: openai\n    api_key_env: " + secret + "\n", []string{`provider "a": api_key_env must be the name of an environment variable`}, 4, ""},
		{"a misspelt api_key_env is a typo, not a key", "providers:\n  a:\n    kind: openai\n    api_key_evn: OPENAI_API_KEY\n", []string{`unknown key "api_key_evn"`}, 4, "api_key_env"},
		{"an empty provider name", "providers:\n  '':\n    kind: openai\n", []string{"a provider's name must be a non-empty string"}, 2, ""},
		{"duplicate provider", "providers:\n  a: {kind: openai}\n  a: {kind: anthropic}\n", []string{`duplicate key "a"`}, 3, ""},
		{"a provider that is not a mapping", "providers:\n  a: openai\n", []string{`provider "a" must be a mapping with kind`}, 2, ""},
		{"an alias", "providers:\n  a: &x {kind: openai}\n  b: *x\n", []string{"anchors (&name) and aliases (*name) are not supported"}, 2, ""},
		{"every problem is reported", "providers:\n  a:\n    kind: openia\n    max_retries: -2\n  b:\n    kind: anthropic\n    api_key: " + secret + "\n    timeout: 5\nbindings:\n  c: {command: []}\n",
			[]string{`unknown kind "openia"`, "max_retries must be at least 0", `"api_key" looks like a credential`, "timeout 5 has no unit", `binding "c": command is empty`}, 3, "openai"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRuntime([]byte(tt.src), t.TempDir())
			var re *RuntimeError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a *RuntimeError", err)
			}
			if len(re.Diags) < len(tt.want) {
				t.Fatalf("got %d diagnostics, want at least %d:\n%v", len(re.Diags), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.Contains(re.Diags[i].Message, w) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, re.Diags[i].Message, w)
				}
			}
			for _, d := range re.Diags {
				if d.Code != diag.InvalidRuntime {
					t.Errorf("code = %q, want %q", d.Code, diag.InvalidRuntime)
				}
			}
			if first := re.Diags[0]; first.Line != tt.line || first.Suggestion != tt.suggest {
				t.Errorf("first diagnostic at line %d with suggestion %q, want %d and %q (%v)", first.Line, first.Suggestion, tt.line, tt.suggest, err)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error repeats the secret: %v", err)
			}
		})
	}
}

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
		if got, err := readPromptIn(root, name, engine.Paths{}); err != nil || got != "Answer in JSON.\n" {
			t.Errorf("readPrompt(%q) = %q, %v", name, got, err)
		}
	}
	if got, err := readPromptIn(root, "", engine.Paths{}); err != nil || got != "" {
		t.Errorf("no prompt: %q, %v", got, err)
	}
	t.Chdir(root)
	if got, err := readPromptIn("", "p.txt", engine.Paths{}); err != nil || got != "Answer in JSON.\n" {
		t.Errorf("root \"\" is the working directory: %q, %v", got, err)
	}
}

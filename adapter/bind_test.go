package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// bindCase is a runtime file and a benchmark's AI-system, bound in a workspace.
type bindCase struct {
	runtime string            // the runtime file's text
	rtDir   string            // the runtime file's folder, slash-separated in the workspace
	ws      string            // the workspace: "" for the test's first one
	env     map[string]string // set before binding
	system  ir.AISystem
	prompt  string // the prompt file's text, when system.Prompt names one
}

// bindSystem binds c and returns the system as it would be run.
func bindSystem(t *testing.T, ws string, c bindCase) engine.System {
	t.Helper()
	if c.ws != "" {
		ws = c.ws
	}
	for k, v := range c.env {
		t.Setenv(k, v)
	}
	rtDir := filepath.Join(ws, filepath.FromSlash(c.rtDir))
	bench := filepath.Join(ws, "bench")
	for _, d := range []string{rtDir, bench} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if c.system.Prompt != "" {
		if err := os.WriteFile(filepath.Join(bench, c.system.Prompt), []byte(c.prompt), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rt, err := ParseRuntime([]byte(c.runtime), rtDir)
	if err != nil {
		t.Fatal(err)
	}
	b := modelBenchmark("", "")
	b.AISystem = c.system
	bd, err := rt.Bind(b, bench, engine.Paths{Workspace: ws}, io.Discard)
	if err != nil {
		t.Fatalf("Bind: %v", err)
	}
	if bd.Factory == nil || bd.Name == "" || !strings.HasPrefix(bd.Fingerprint, "sha256:") {
		t.Fatalf("Bind = %+v", bd)
	}
	return bd.System(b)
}

const (
	cmdRuntime  = "bindings:\n  sys: {command: [cat, -u], timeout: 10s, env: [BENCHY_BIND_VAR]}\n"
	httpRuntime = "bindings:\n  sys: {http: \"http://127.0.0.1:9000/invoke?api_key=first-token-0123456789\"}\n"
	llmRuntime  = "providers:\n  local: {kind: openai, base_url: \"http://127.0.0.1:11434/v1\", api_key_env: BENCHY_BIND_KEY}\n"
	theKey      = "sk-bind-TheKeyItself-0123456789"
	theValue    = "env-value-never-recorded-42"
)

var (
	external = ir.AISystem{Type: ir.SystemExternal, ID: "sys"}
	model    = ir.AISystem{Type: ir.SystemModel, Provider: "local", Model: "m-1", Prompt: "prompt.txt", Parameters: map[string]any{"temperature": 0.0}}
	keyEnv   = map[string]string{"BENCHY_BIND_KEY": theKey}
)

// TestBindSystemIdentity: a table of what changes a bound system's binding fingerprint,
// prompt digest and hash, and what does not, each row against the first of its group. The
// hash changes exactly when one of the definition, the prompt digest or the fingerprint
// does; moving the workspace, the values of the environment and the key change nothing.
func TestBindSystemIdentity(t *testing.T) {
	ws := t.TempDir()
	moved := filepath.Join(t.TempDir(), "moved", "elsewhere")
	cmd := bindCase{runtime: cmdRuntime, env: map[string]string{"BENCHY_BIND_VAR": theValue}, system: external}
	web := bindCase{runtime: httpRuntime, system: external}
	llm := bindCase{runtime: llmRuntime, env: keyEnv, system: model, prompt: "Name the language."}
	with := func(c bindCase, edit func(*bindCase)) bindCase {
		env := map[string]string{}
		for k, v := range c.env {
			env[k] = v
		}
		c.env = env
		edit(&c)
		return c
	}
	tests := []struct {
		rule               string
		base, edited       bindCase
		fingerprint, prmpt bool // changed
	}{
		{"a command: the same binding bound again", cmd, cmd, false, false},
		{"a command: one word of its argv", cmd, with(cmd, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "-u", "-v", 1) }), true, false},
		{"a command: one more word", cmd, with(cmd, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "-u]", "-u, -]", 1) }), true, false},
		{"a command: its working directory (the runtime file in a subfolder)", cmd, with(cmd, func(c *bindCase) { c.rtDir = "sub" }), true, false},
		{"a command: the workspace moved elsewhere", cmd, with(cmd, func(c *bindCase) { c.ws = moved }), false, false},
		{"a command: the workspace moved, the runtime file in its subfolder both times", with(cmd, func(c *bindCase) { c.rtDir = "sub" }),
			with(cmd, func(c *bindCase) { c.rtDir, c.ws = "sub", moved }), false, false},
		{"a command: another value of the variable it passes", cmd, with(cmd, func(c *bindCase) { c.env["BENCHY_BIND_VAR"] = "another value" }), false, false},
		{"a command: its timeout", cmd, with(cmd, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "10s", "20s", 1) }), false, false},
		{"http: another URL", web, with(web, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "9000", "9001", 1) }), true, false},
		{"http: another path", web, with(web, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "/invoke", "/v2/invoke", 1) }), true, false},
		{"http: another token in the URL (a key: masked)", web, with(web, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "first-token", "other-token", 1) }), false, false},
		{"a model: another base URL", llm, with(llm, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "11434", "8000", 1) }), true, false},
		{"a model: another provider kind", llm, with(llm, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "openai", "anthropic", 1) }), true, false},
		{"a model: another model", llm, with(llm, func(c *bindCase) { c.system.Model = "m-2" }), true, false},
		{"a model: one byte of the prompt file", llm, with(llm, func(c *bindCase) { c.prompt = "Name the language!" }), false, true},
		{"a model: another key", llm, with(llm, func(c *bindCase) { c.env["BENCHY_BIND_KEY"] = "sk-another-key-9876543210" }), false, false},
		{"a model: the key in another variable", llm, with(llm, func(c *bindCase) {
			c.runtime = strings.Replace(c.runtime, "BENCHY_BIND_KEY", "BENCHY_BIND_KEY2", 1)
			c.env["BENCHY_BIND_KEY2"] = theKey
		}), false, false},
		{"a model: a token in its base URL's query, rotated (masked)", with(llm, func(c *bindCase) {
			c.runtime = strings.Replace(c.runtime, "/v1", "/v1?token=first-token-0123456789", 1)
		}), with(llm, func(c *bindCase) {
			c.runtime = strings.Replace(c.runtime, "/v1", "/v1?token=other-token-0123456789", 1)
		}), false, false},
		{"a model: a password in its base URL, changed (masked)", with(llm, func(c *bindCase) {
			c.runtime = strings.Replace(c.runtime, "http://", "http://user:first-token-0123456789@", 1)
		}), with(llm, func(c *bindCase) {
			c.runtime = strings.Replace(c.runtime, "http://", "http://user:other-token-0123456789@", 1)
		}), false, false},
		{"a model: the workspace moved elsewhere", llm, with(llm, func(c *bindCase) { c.ws = moved }), false, false},
		{"a model: its provider's retries", llm, with(llm, func(c *bindCase) { c.runtime = strings.Replace(c.runtime, "}", ", max_retries: 7}", 1) }), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			for k, v := range keyEnv {
				t.Setenv(k, v)
			}
			a := bindSystem(t, ws, tt.base)
			b := bindSystem(t, ws, tt.edited)
			if got := a.BindingFingerprint != b.BindingFingerprint; got != tt.fingerprint {
				t.Errorf("fingerprint changed %v, want %v: %s, then %s", got, tt.fingerprint, a.BindingFingerprint, b.BindingFingerprint)
			}
			if got := a.PromptSHA256 != b.PromptSHA256; got != tt.prmpt {
				t.Errorf("prompt digest changed %v, want %v: %s, then %s", got, tt.prmpt, a.PromptSHA256, b.PromptSHA256)
			}
			defChanged := !jsonEqual(t, a.Definition, b.Definition)
			if want := defChanged || tt.fingerprint || tt.prmpt; (a.Hash != b.Hash) != want {
				t.Errorf("hash changed %v, want %v (definition changed %v)", a.Hash != b.Hash, want, defChanged)
			}
			for _, s := range []engine.System{a, b} {
				noSecrets(t, s)
			}
		})
	}
}

func jsonEqual(t *testing.T, a, b any) bool {
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ja, jb)
}

// noSecrets fails when the JSON of v holds a key, an environment value or a URL's token.
func noSecrets(t *testing.T, v any) {
	t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{theKey, "sk-another-key", theValue, "another value", "first-token", "other-token", "0123456789"} {
		if bytes.Contains(body, []byte(secret)) {
			t.Errorf("%q is in the JSON: %s", secret, body)
		}
	}
}

// TestBindSystemLabel: a system's label is its external id, or provider/model; the prompt
// digest is that of the prompt file's bytes, and there is none (nor any JSON member) without
// a prompt file.
func TestBindSystemLabel(t *testing.T) {
	ws := t.TempDir()
	t.Setenv("BENCHY_BIND_KEY", theKey)
	noPrompt := model
	noPrompt.Prompt = ""
	tests := []struct {
		rule   string
		c      bindCase
		label  string
		binds  string
		prompt string
	}{
		{"an external system is its id", bindCase{runtime: cmdRuntime, system: external}, "sys", "sys", ""},
		{"an http one too", bindCase{runtime: httpRuntime, system: external}, "sys", "sys", ""},
		{"a model is provider/model, with the digest of its prompt's bytes", bindCase{runtime: llmRuntime, system: model, prompt: "Name the language."},
			"local/m-1", "local", engine.SHA256([]byte("Name the language."))},
		{"a model without a prompt has no prompt digest", bindCase{runtime: llmRuntime, system: noPrompt}, "local/m-1", "local", ""},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			s := bindSystem(t, ws, tt.c)
			if s.Label != tt.label || s.Label != engine.Label(tt.c.system) || s.Binding != tt.binds || s.PromptSHA256 != tt.prompt {
				t.Errorf("label %q, binding %q, prompt %q; want %q, %q, %q", s.Label, s.Binding, s.PromptSHA256, tt.label, tt.binds, tt.prompt)
			}
			body, _ := json.Marshal(s)
			if has := bytes.Contains(body, []byte(`"prompt_sha256"`)); has != (tt.prompt != "") {
				t.Errorf("prompt_sha256 in the JSON %v, want %v: %s", has, tt.prompt != "", body)
			}
			if want := engine.NewSystem(tt.c.system, tt.prompt, tt.binds, s.BindingFingerprint); !jsonEqual(t, s, want) {
				t.Errorf("Bound.System %+v, NewSystem %+v", s, want)
			}
		})
	}
}

// TestSystemHash: engine.NewSystem's hash covers the definition, the prompt digest and the
// fingerprint, each alone, and nothing else: the binding's name is how it was reached, not
// what it is (two names for one command are one system).
func TestSystemHash(t *testing.T) {
	base := engine.NewSystem(model, "sha256:p", "local", "sha256:f")
	other := func(edit func(*ir.AISystem)) ir.AISystem {
		d := model
		d.Parameters = map[string]any{"temperature": 0.0}
		edit(&d)
		return d
	}
	tests := []struct {
		rule    string
		s       engine.System
		changes bool
	}{
		{"the same system made again", engine.NewSystem(other(func(*ir.AISystem) {}), "sha256:p", "local", "sha256:f"), false},
		{"another binding name", engine.NewSystem(model, "sha256:p", "another", "sha256:f"), false},
		{"another parameter value", engine.NewSystem(other(func(d *ir.AISystem) { d.Parameters["temperature"] = 0.5 }), "sha256:p", "local", "sha256:f"), true},
		{"another parameter", engine.NewSystem(other(func(d *ir.AISystem) { d.Parameters["top_p"] = 1 }), "sha256:p", "local", "sha256:f"), true},
		{"another model", engine.NewSystem(other(func(d *ir.AISystem) { d.Model = "m-2" }), "sha256:p", "local", "sha256:f"), true},
		{"another prompt file name, the same bytes", engine.NewSystem(other(func(d *ir.AISystem) { d.Prompt = "p2.txt" }), "sha256:p", "local", "sha256:f"), true},
		{"another prompt digest", engine.NewSystem(model, "sha256:q", "local", "sha256:f"), true},
		{"no prompt digest", engine.NewSystem(model, "", "local", "sha256:f"), true},
		{"another fingerprint", engine.NewSystem(model, "sha256:p", "local", "sha256:g"), true},
	}
	for _, tt := range tests {
		if changed := tt.s.Hash != base.Hash; changed != tt.changes {
			t.Errorf("%s: hash changed %v, want %v", tt.rule, changed, tt.changes)
		}
	}
}

// TestBoundReportHoldsNoKey: a run through a real provider endpoint records the system in
// its report; neither the key nor a passed variable's value is anywhere in the report's JSON.
func TestBoundReportHoldsNoKey(t *testing.T) {
	t.Setenv("BENCHY_BIND_KEY", theKey)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+theKey {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"{\"label\":\"ok\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`)
	}))
	defer srv.Close()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "data.jsonl"), []byte(`{"input": {"text": "hi"}, "expected": {"label": "ok"}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "prompt.txt"), []byte("Label it."), 0o644)
	rt, err := ParseRuntime([]byte("providers:\n  local: {kind: openai, base_url: \""+srv.URL+"/v1\", api_key_env: BENCHY_BIND_KEY, max_retries: 0}\n"), ws)
	if err != nil {
		t.Fatal(err)
	}
	b, ds := compiler.Compile([]byte(`version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {text: string}
  output: {label: string}
scoring: {weights: {label: 1}, aggregator: weighted_mean}
data: {path: data.jsonl}
ai-system: {type: model, provider: local, model: m-1, prompt: prompt.txt}
`))
	if len(ds) > 0 {
		t.Fatal(ds.Format("bench.yaml"))
	}
	paths := engine.Paths{Workspace: ws}
	bd, err := rt.Bind(b, ws, paths, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sys := bd.System(b)
	rep, err := engine.Run(context.Background(), b, bd.Factory, engine.Options{BenchmarkDir: ws, Paths: paths, System: &sys, Binding: bd.Name, Concurrency: 1, Results: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Valid != 1 || rep.System == nil || rep.System.Hash != sys.Hash {
		t.Fatalf("report %+v: the run did not reach the provider or lost the system", rep.Summary)
	}
	noSecrets(t, rep)
}

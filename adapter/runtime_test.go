package adapter

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// The example runtime file.
const exampleRuntime = `bindings:
  invoice-extractor-v7:
    command: [python3, extract.py]   # run with the runtime file's directory as working dir
    timeout: 30s                     # per example
  sentiment-api:
    http: http://127.0.0.1:9000/invoke
    timeout: 10s
`

func TestParseRuntimeValid(t *testing.T) {
	dir := t.TempDir()
	rt, err := ParseRuntime([]byte(exampleRuntime), dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rt.Names(), []string{"invoice-extractor-v7", "sentiment-api"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	cmd := rt.bindings["invoice-extractor-v7"]
	if !slices.Equal(cmd.command, []string{"python3", "extract.py"}) || cmd.timeout != 30*time.Second || cmd.dir != dir || cmd.url != "" {
		t.Errorf("command binding = %+v", cmd)
	}
	h := rt.bindings["sentiment-api"]
	if h.url != "http://127.0.0.1:9000/invoke" || h.timeout != 10*time.Second || h.command != nil {
		t.Errorf("http binding = %+v", h)
	}
}

func TestParseRuntimeForms(t *testing.T) {
	tests := []struct {
		name, src string
		check     func(t *testing.T, rt *Runtime)
	}{
		{"an empty file binds nothing", "", func(t *testing.T, rt *Runtime) {
			if len(rt.Names()) != 0 {
				t.Errorf("Names() = %q", rt.Names())
			}
		}},
		{"a comment-only file binds nothing", "# nothing yet\n", func(t *testing.T, rt *Runtime) {
			if len(rt.Names()) != 0 {
				t.Errorf("Names() = %q", rt.Names())
			}
		}},
		{"the timeout defaults to 60s", "bindings:\n  a:\n    command: [x]\n", func(t *testing.T, rt *Runtime) {
			if got := rt.bindings["a"].timeout; got != 60*time.Second {
				t.Errorf("timeout = %v", got)
			}
		}},
		{"plain numbers and booleans in a command are arguments as written", "bindings:\n  a:\n    command: [sleep, 1.50, true, 'quoted']\n", func(t *testing.T, rt *Runtime) {
			if got := rt.bindings["a"].command; !slices.Equal(got, []string{"sleep", "1.50", "true", "quoted"}) {
				t.Errorf("command = %q", got)
			}
		}},
		{"a block-style command list", "bindings:\n  a:\n    command:\n      - python3\n      - -u\n", func(t *testing.T, rt *Runtime) {
			if got := rt.bindings["a"].command; !slices.Equal(got, []string{"python3", "-u"}) {
				t.Errorf("command = %q", got)
			}
		}},
		{"an https URL with a composite timeout", "bindings:\n  a: {http: 'https://example.com:8443/v1/run?x=1', timeout: 1m30s}\n", func(t *testing.T, rt *Runtime) {
			if b := rt.bindings["a"]; b.url != "https://example.com:8443/v1/run?x=1" || b.timeout != 90*time.Second {
				t.Errorf("binding = %+v", b)
			}
		}},
		{"providers sit beside bindings", "providers:\n  openai: {kind: openai, api_key_env: OPENAI_API_KEY}\nbindings: {}\n", func(t *testing.T, rt *Runtime) {
			if got := rt.ProviderNames(); !slices.Equal(got, []string{"openai"}) {
				t.Errorf("ProviderNames() = %q", got)
			}
		}},
		{"an empty bindings key binds nothing", "bindings:\n", func(t *testing.T, rt *Runtime) {
			if len(rt.Names()) != 0 {
				t.Errorf("Names() = %q", rt.Names())
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, err := ParseRuntime([]byte(tt.src), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, rt)
		})
	}
}

func TestParseRuntimeErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the messages, in order
		line      int      // of the first diagnostic
		suggest   string   // of the first diagnostic
	}{
		{"unknown top-level key", "bindngs: {}\n", []string{`unknown key "bindngs"`}, 1, "bindings"},
		{"unknown binding key", "bindings:\n  a:\n    comand: [x]\n", []string{`binding "a": unknown key "comand"`}, 3, "command"},
		{"both command and http", "bindings:\n  a:\n    command: [x]\n    http: http://h/\n", []string{`binding "a" has both command and http`}, 4, ""},
		{"neither command nor http", "bindings:\n  a:\n    timeout: 5s\n", []string{`binding "a" has neither command nor http`}, 2, ""},
		{"an empty binding", "bindings:\n  a:\n", []string{`binding "a" has neither command nor http`}, 2, ""},
		{"a binding that is not a mapping", "bindings:\n  a: python3 run.py\n", []string{`binding "a" must be a mapping`}, 2, ""},
		{"bad timeout", "bindings:\n  a:\n    command: [x]\n    timeout: soon\n", []string{`binding "a": timeout "soon" is not a duration`}, 4, ""},
		{"timeout without a unit", "bindings:\n  a:\n    command: [x]\n    timeout: 30\n", []string{`binding "a": timeout 30 has no unit; write 30s`}, 4, ""},
		{"zero timeout", "bindings:\n  a:\n    command: [x]\n    timeout: 0s\n", []string{`binding "a": timeout must be greater than zero`}, 4, ""},
		{"negative timeout", "bindings:\n  a:\n    command: [x]\n    timeout: -1s\n", []string{`binding "a": timeout must be greater than zero`}, 4, ""},
		{"empty command", "bindings:\n  a:\n    command: []\n", []string{`binding "a": command is empty`}, 3, ""},
		{"command as a string", "bindings:\n  a:\n    command: python3 run.py\n", []string{`binding "a": command must be a list of strings such as [python3, extract.py]; it is not run by a shell`}, 3, ""},
		{"empty program", "bindings:\n  a:\n    command: ['', x]\n", []string{`binding "a": command[0] is empty`}, 3, ""},
		{"a command argument that is not a string", "bindings:\n  a:\n    command: [x, {y: z}]\n", []string{`binding "a": command[1] must be a string`}, 3, ""},
		{"URL with another scheme", "bindings:\n  a:\n    http: ftp://h/x\n", []string{`binding "a": http must be an http:// or https:// URL`}, 3, ""},
		{"URL without a host", "bindings:\n  a:\n    http: 'http:///x'\n", []string{`binding "a": http URL has no host`}, 3, ""},
		{"not a URL", "bindings:\n  a:\n    http: '://nope'\n", []string{`binding "a": http is not a valid URL`}, 3, ""},
		{"URL that is not a string", "bindings:\n  a:\n    http: [x]\n", []string{`binding "a": http must be a URL`}, 3, ""},
		{"duplicate binding", "bindings:\n  a:\n    command: [x]\n  a:\n    command: [y]\n", []string{`duplicate key "a"`}, 4, ""},
		{"bindings as a list", "bindings: [a, b]\n", []string{"bindings must map AI-system ids to their adapters"}, 1, ""},
		{"providers as a list", "providers: [a]\n", []string{"providers must map provider names"}, 1, ""},
		{"a list at the top", "- a\n", []string{"a runtime file is a mapping"}, 1, ""},
		{"two documents", "bindings: {}\n---\nbindings: {}\n", []string{"exactly one YAML document"}, 3, ""},
		{"an alias", "bindings:\n  a: &x {command: [x]}\n  b: *x\n", []string{"anchors (&name) and aliases (*name) are not supported"}, 2, ""},
		{"YAML syntax error", "bindings:\n  a: [x\n", []string{"YAML syntax error"}, 0, ""},
		{"every problem is reported", "bindings:\n  a:\n    command: []\n  b:\n    http: ftp://x\n    timeout: 1\n",
			[]string{`binding "a": command is empty`, `binding "b": http must be`, `binding "b": timeout 1 has no unit`}, 3, ""},
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
				if d.Code != diag.InvalidRuntime || !diag.Registered(d.Code) {
					t.Errorf("code = %q, want %q", d.Code, diag.InvalidRuntime)
				}
			}
			first := re.Diags[0]
			if tt.line != 0 && first.Line != tt.line {
				t.Errorf("line = %d, want %d (%v)", first.Line, tt.line, err)
			}
			if first.Suggestion != tt.suggest {
				t.Errorf("suggestion = %q, want %q", first.Suggestion, tt.suggest)
			}
		})
	}
}

func TestLoadRuntimeErrorNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.runtime.yaml")
	if err := os.WriteFile(path, []byte("bindings:\n  my-system:\n    command: [x]\n    timeout: never\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadRuntime(path)
	if err == nil {
		t.Fatal("no error")
	}
	want := path + `:4:14: invalid_runtime: binding "my-system": timeout "never" is not a duration`
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %q\nwant prefix %q", err, want)
	}
	if _, err := LoadRuntime(filepath.Join(t.TempDir(), "absent.yaml")); err == nil || !strings.Contains(err.Error(), "absent.yaml") {
		t.Errorf("missing file: err = %v", err)
	}
}

func TestRuntimeRelativeDir(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	src := "bindings:\n  rel: {command: [./bin/run, ./data]}\n  abs: {command: [/usr/bin/env]}\n  path: {command: [python3]}\n"
	rt, err := ParseRuntime([]byte(src), "conf")
	if err != nil {
		t.Fatal(err)
	}
	cwd, _ := os.Getwd() // root, as the process sees it
	dir := filepath.Join(cwd, "conf")
	rel := rt.bindings["rel"]
	if rel.dir != dir {
		t.Errorf("dir = %q, want %q", rel.dir, dir)
	}
	if want := []string{filepath.Join(dir, "bin/run"), "./data"}; !slices.Equal(rel.command, want) {
		t.Errorf("relative program: command = %q, want %q (arguments stay as written)", rel.command, want)
	}
	if got := rt.bindings["abs"].command[0]; got != "/usr/bin/env" {
		t.Errorf("absolute program = %q", got)
	}
	if got := rt.bindings["path"].command[0]; got != "python3" {
		t.Errorf("program from PATH = %q", got)
	}

	path := filepath.Join("conf", "runtime.yaml")
	os.Mkdir("conf", 0o755)
	os.WriteFile(path, []byte(src), 0o644)
	rt, err = LoadRuntime(path)
	if err != nil {
		t.Fatal(err)
	}
	if rt.bindings["rel"].dir != dir {
		t.Errorf("LoadRuntime: dir = %q, want %q", rt.bindings["rel"].dir, dir)
	}
}

func TestFactoryMissingBinding(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runtime.yaml")
	os.WriteFile(path, []byte(exampleRuntime), 0o644)
	rt, err := LoadRuntime(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rt   *Runtime
		sys  ir.AISystem
		want []string
	}{
		{"an unbound external id", rt, ir.AISystem{Type: ir.SystemExternal, ID: "invoice-extractor-v8"},
			[]string{`"invoice-extractor-v8"`, path, `did you mean "invoice-extractor-v7"?`}},
		{"an unbound id with no near name", rt, ir.AISystem{Type: ir.SystemExternal, ID: "zzz"},
			[]string{`"zzz"`, path, "invoice-extractor-v7, sentiment-api"}},
		{"a model whose provider the file does not define", rt, ir.AISystem{Type: ir.SystemModel, Provider: "openai", Model: "gpt-x"},
			[]string{`defines no provider "openai"`, path, "it defines no providers"}},
		{"no runtime file at all", nil, ir.AISystem{Type: ir.SystemExternal, ID: "x"},
			[]string{"no runtime file", `"x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, name, err := tt.rt.Factory(&ir.Benchmark{AISystem: tt.sys}, t.TempDir(), nil)
			if f != nil || name != "" || !errors.Is(err, engine.ErrMissingBinding) {
				t.Fatalf("Factory = %v, %q, %v; want an error wrapping ErrMissingBinding", f != nil, name, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestFactoryBound(t *testing.T) {
	rt, err := ParseRuntime([]byte(exampleRuntime), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f, name, err := rt.Factory(&ir.Benchmark{AISystem: ir.AISystem{Type: ir.SystemExternal, ID: "sentiment-api"}}, "", nil)
	if err != nil || f == nil || name != "sentiment-api" {
		t.Fatalf("Factory = %v, %q, %v", f != nil, name, err)
	}
	a, err := f()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.(*httpAdapter); !ok {
		t.Errorf("adapter is %T, want *httpAdapter", a)
	}
	a.Close()
}

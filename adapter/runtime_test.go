package adapter

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// exampleRuntime is the example runtime file, the runtimefile tests' fixture.
const exampleRuntime = "runtimefile/testdata/example.runtime.yaml"

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
	var ds diag.List
	if !errors.As(err, &ds) || len(ds) != 1 || ds[0].File != path || ds[0].Code != diag.InvalidRuntime {
		t.Errorf("err = %#v, want the file's one invalid_runtime diagnostic, naming the file", err)
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
	path := exampleRuntime
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
			[]string{`"invoice-extractor-v8"`, path, `did you mean "invoice-extractor-v7"?`, "it binds invoice-extractor-v7, sentiment-api"}},
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
	rt, err := LoadRuntime(exampleRuntime)
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

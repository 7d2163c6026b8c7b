package adapter

import (
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/ir"
)

// DefaultTimeout bounds one example when a binding names no timeout: long enough for a slow
// model behind a command, short enough that a hung system does not stall a run for good.
const DefaultTimeout = 60 * time.Second

// Runtime is a parsed runtime file: how this machine reaches each AI-system. It is kept
// apart from the benchmark so that the same benchmark runs against a command on a laptop
// and an endpoint in production, and so that nothing machine-specific enters the IR.
//
// Bindings and providers hold command lines and URLs, which may carry secrets; Runtime
// shows only their names (Names, ProviderNames), never their contents. A provider's key is
// never in the file at all: only the name of the environment variable that holds it.
type Runtime struct {
	file      string // as given to LoadRuntime, for messages
	bindings  map[string]*binding
	providers map[string]provider.Config // by the name ai-system.provider uses
}

// binding is one AI-system's adapter settings: exactly one of command and url is set.
type binding struct {
	name     string
	command  []string // a relative program path is already resolved against dir
	requires []requirement
	env      []string // the variables passed to the command besides baseEnv, by name
	url      string
	secrets  *redact.Secrets // an http binding's URL tokens, masked in what it answers
	timeout  time.Duration
	dir      string // absolute: the runtime file's directory, the command's working directory
	http     httpShared
}

// RuntimeFile is the name of a workspace's runtime file: `benchy run` and `benchy serve`
// bind a benchmark through the nearest at or above its folder (package internal/workspace).
const RuntimeFile = "benchy.runtime.yaml"

// LoadRuntime reads and parses the runtime file at path. Commands run in the file's
// directory. Every error it returns is an invalid_runtime problem; a *RuntimeError lists
// each one with its position.
func LoadRuntime(path string) (*Runtime, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the runtime file: %w", err)
	}
	return parseRuntime(src, filepath.Dir(path), path)
}

// ParseRuntime parses a runtime file's text; dir is the directory commands run in, made
// absolute here so that a later change of working directory does not move it.
func ParseRuntime(src []byte, dir string) (*Runtime, error) {
	return parseRuntime(src, dir, "")
}

func parseRuntime(src []byte, dir, file string) (*Runtime, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("runtime file directory %s: %w", dir, err)
	}
	p := &runtimeParser{dir: abs, rt: &Runtime{file: file, bindings: map[string]*binding{}, providers: map[string]provider.Config{}}}
	p.parse(src)
	if len(p.diags) > 0 {
		return nil, &RuntimeError{File: file, Diags: p.diags.Sort()}
	}
	return p.rt, nil
}

// RuntimeError lists every problem of a runtime file, each with code diag.InvalidRuntime,
// the keys leading to it and its position.
type RuntimeError struct {
	File  string // as given to LoadRuntime; empty for ParseRuntime
	Diags diag.List
}

// Error renders the problems one per line, as "FILE:LINE:COL: invalid_runtime: message".
func (e *RuntimeError) Error() string {
	name := e.File
	if name == "" {
		name = "runtime file"
	}
	return strings.TrimSuffix(e.Diags.Format(name), "\n")
}

// Names lists the bound AI-system ids, sorted: what may be shown of a runtime file.
func (r *Runtime) Names() []string {
	if r == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(r.bindings))
}

// Factory returns the adapter factory for b's AI-system and the name of the binding or
// provider it uses. benchDir is the benchmark file's directory: a model's prompt file is read
// from it, and may not lead out of it. An AI-system the runtime cannot reach is an error
// wrapping engine.ErrMissingBinding; a provider that is defined but cannot be used (its
// key's variable unset, the prompt file unreadable) is a plain error. Both come before any
// example runs. Commands' stderr goes to log, line by line, each line prefixed with the
// binding's name; log may be nil. A nil Runtime binds nothing.
func (r *Runtime) Factory(b *ir.Benchmark, benchDir string, log io.Writer) (engine.Factory, string, error) {
	return r.FactoryIn(b, benchDir, engine.Paths{}, log)
}

// FactoryIn is Factory with the prompt file confined by paths (the run's workspace), as
// the dataset is, rather than to benchDir.
func (r *Runtime) FactoryIn(b *ir.Benchmark, benchDir string, paths engine.Paths, log io.Writer) (engine.Factory, string, error) {
	sys := b.AISystem
	switch sys.Type {
	case ir.SystemExternal:
		bd := r.binding(sys.ID)
		if bd == nil {
			return nil, "", r.missing(sys.ID)
		}
		if bd.command != nil {
			if err := bd.installed(); err != nil {
				return nil, "", err
			}
			return bd.commandFactory(log), bd.name, nil
		}
		return bd.httpFactory(), bd.name, nil
	case ir.SystemModel:
		return r.modelFactory(b, benchDir, paths)
	}
	return nil, "", fmt.Errorf("%w: unknown AI-system type %q", engine.ErrMissingBinding, sys.Type)
}

// requirement is a program a command binding needs, and the package that installs it.
type requirement struct {
	program, pkg string
}

// installed checks, before any example runs, that the binding's command and the programs it
// requires are on this machine: a missing one is a missing binding that says what to install,
// not an error on every example.
func (b *binding) installed() error {
	if prog := b.command[0]; strings.ContainsRune(prog, filepath.Separator) {
		if _, err := os.Stat(prog); err != nil {
			return fmt.Errorf("%w: binding %q runs %s, which does not exist (is it built? the examples' adapters are built by make examples)", engine.ErrMissingBinding, b.name, prog)
		}
	} else if _, err := exec.LookPath(prog); err != nil {
		return fmt.Errorf("%w: binding %q runs %s, which is not installed or not in PATH", engine.ErrMissingBinding, b.name, prog)
	}
	var missing, pkgs []string
	for _, r := range b.requires {
		if filepath.IsAbs(r.program) {
			if _, err := os.Stat(r.program); err != nil {
				missing, pkgs = append(missing, r.program), append(pkgs, r.pkg)
			}
		} else if _, err := exec.LookPath(r.program); err != nil {
			missing, pkgs = append(missing, r.program), append(pkgs, r.pkg)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: binding %q needs %s, not installed here: apt-get install %s (for the examples: make examples-deps)",
			engine.ErrMissingBinding, b.name, strings.Join(missing, ", "), strings.Join(slices.Compact(slices.Sorted(slices.Values(pkgs))), " "))
	}
	return nil
}

func (r *Runtime) binding(id string) *binding {
	if r == nil {
		return nil
	}
	return r.bindings[id]
}

// missing explains an unbound external id, suggesting a near name.
func (r *Runtime) missing(id string) error {
	if r == nil {
		return fmt.Errorf("%w: no runtime file was given to bind the external AI-system %q", engine.ErrMissingBinding, id)
	}
	file := r.file
	if file == "" {
		file = "the runtime file"
	}
	names := r.Names()
	msg := fmt.Sprintf("%s has no binding for the external AI-system %q", file, id)
	switch s := suggest.Closest(id, names); {
	case s != "":
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	case len(names) == 0:
		msg += " (it binds nothing)"
	default:
		msg += fmt.Sprintf(" (it binds %s)", strings.Join(names, ", "))
	}
	return fmt.Errorf("%w: %s", engine.ErrMissingBinding, msg)
}

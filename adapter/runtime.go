package adapter

import (
	"errors"
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
	"github.com/benchy-eval/benchy/adapter/runtimefile"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
)

// Runtime is a runtime file bound to this machine: how it reaches each AI-system. Package
// runtimefile reads the file into plain data; ParseRuntime and LoadRuntime bind that data
// (commands resolved against the file's folder, URL tokens set apart for masking), and
// Factory checks, before a run, that what a binding runs is installed. A runtime file is
// kept apart from the benchmark so that the same benchmark runs against a command on a laptop
// and an endpoint in production, and so that nothing machine-specific enters the IR.
//
// Bindings and providers hold command lines and URLs, which may carry secrets; Runtime
// shows only their names (Names, ProviderNames), never their contents. A provider's key is
// never in the file at all: only the name of the environment variable that holds it.
type Runtime struct {
	file      string // as given to LoadRuntime, for messages
	bindings  map[string]*binding
	providers map[string]provider.Config // by the name ai-system.provider uses
	// offline says no request is sent through these providers (benchy run --estimate):
	// a key whose variable is not set is not asked for.
	offline bool
}

// binding is one AI-system's adapter settings: exactly one of command and url is set.
type binding struct {
	name     string
	command  []string // a relative program path is already resolved against dir
	written  []string // the command as the runtime file writes it: its fingerprint
	requires []runtimefile.Requirement
	env      []string // the variables passed to the command besides baseEnv, by name
	url      string
	secrets  *redact.Secrets // an http binding's URL tokens, masked in what it answers
	timeout  time.Duration
	dir      string // absolute: the runtime file's directory, the command's working directory
	http     httpShared
}

// RuntimeFile is the name of a workspace's runtime file: `benchy run` and `benchy serve`
// bind a benchmark through the nearest at or above its folder (package internal/workspace).
const RuntimeFile = engine.RuntimeFile

// LoadRuntime reads the runtime file at path and binds it (ParseRuntime). Commands run in
// the file's directory. An invalid file's error is its diagnostics (a diag.List, each with
// code invalid_runtime and File path), one "FILE:LINE:COL: invalid_runtime: message" line
// each; one that cannot be read says so.
func LoadRuntime(path string) (*Runtime, error) {
	src, err := readRuntime(path)
	if err != nil {
		return nil, err
	}
	return parseRuntime(src, filepath.Dir(path), path)
}

// readRuntime reads the runtime file at path, never more than yamlnode.MaxSize+1 bytes of
// it: a larger one is refused with the parser's diagnostic for it (code invalid_runtime,
// as all of the runtime file's), a device or a FIFO before a byte is read.
func readRuntime(path string) ([]byte, error) {
	f, err := engine.OpenRegular(path)
	if errors.Is(err, engine.ErrNotRegular) {
		return nil, fmt.Errorf("cannot read the runtime file: %s is not a regular file (a folder, a device or a FIFO)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the runtime file: %w", err)
	}
	defer f.Close()
	return ReadRuntimeFrom(f, path)
}

// ReadRuntimeFrom reads the runtime file open as f, named name, never more than
// yamlnode.MaxSize+1 bytes of it: a larger one is refused with the parser's diagnostic for
// it (code invalid_runtime, File name). Both ways of reading a runtime file come here:
// LoadRuntime by path, internal/workspace inside a workspace's os.Root.
func ReadRuntimeFrom(f *os.File, name string) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(f, yamlnode.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read the runtime file: %w", err)
	}
	if len(src) > yamlnode.MaxSize {
		size := int64(-1) // unknown: it grew while it was read
		if info, err := f.Stat(); err == nil && info.Size() > yamlnode.MaxSize {
			size = info.Size()
		}
		d := yamlnode.TooLarge(size, yamlnode.MaxSize, "runtime file")
		d.Code, d.File = diag.InvalidRuntime, name
		return nil, diag.List{d}.Err()
	}
	return src, nil
}

// ParseRuntime parses a runtime file's text (runtimefile.Parse) and binds it: dir is the
// directory commands run in and a relative program path is found from, made absolute here
// so that a later change of working directory does not move it. An invalid file's error is
// its diagnostics, a diag.List without a File.
func ParseRuntime(src []byte, dir string) (*Runtime, error) {
	return parseRuntime(src, dir, "")
}

func parseRuntime(src []byte, dir, file string) (*Runtime, error) {
	f, ds := runtimefile.Parse(src)
	if len(ds) > 0 {
		if file != "" {
			ds = ds.In(file)
		}
		return nil, ds.Err()
	}
	return bind(f, dir, file)
}

// bind makes the adapters' settings of a parsed file: each command in dir, a relative
// program found from it, each http binding's URL tokens masked in what it answers.
func bind(f *runtimefile.File, dir, file string) (*Runtime, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("runtime file directory %s: %w", dir, err)
	}
	rt := &Runtime{file: file, bindings: map[string]*binding{}, providers: map[string]provider.Config{}}
	for _, fb := range f.Bindings {
		b := &binding{name: fb.Name, command: slices.Clone(fb.Command), written: fb.Command, requires: fb.Requires, env: fb.Env, url: fb.URL, timeout: fb.Timeout, dir: abs}
		// A program given as a path is found from the runtime file, as its working
		// directory is; a bare name is looked up in PATH.
		if len(b.command) > 0 && strings.ContainsAny(b.command[0], "/"+string(filepath.Separator)) && !filepath.IsAbs(b.command[0]) {
			b.command[0] = filepath.Join(abs, b.command[0])
		}
		if b.url != "" {
			b.secrets = urlSecrets(b.url)
		}
		rt.bindings[b.name] = b
	}
	for _, cfg := range f.Providers {
		rt.providers[cfg.Name] = cfg
	}
	return rt, nil
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
// from it, and may not lead out of it. An AI-system the runtime cannot reach is an
// *engine.MissingBinding (errors.Is engine.ErrMissingBinding); a provider that is defined but cannot be used (its
// key's variable unset, the prompt file unreadable) is a plain error. Both come before any
// example runs. Commands' stderr goes to log, line by line, each line prefixed with the
// binding's name; log may be nil. A nil Runtime binds nothing.
func (r *Runtime) Factory(b *ir.Benchmark, benchDir string, log io.Writer) (engine.Factory, string, error) {
	return r.FactoryIn(b, benchDir, engine.Paths{}, log)
}

// FactoryIn is Factory with the prompt file confined by paths (the run's workspace), as
// the dataset is, rather than to benchDir.
func (r *Runtime) FactoryIn(b *ir.Benchmark, benchDir string, paths engine.Paths, log io.Writer) (engine.Factory, string, error) {
	bd, err := r.Bind(b, benchDir, paths, log)
	return bd.Factory, bd.Name, err
}

// installed checks, before any example runs, that the binding's command and the programs it
// requires are on this machine: a missing one is a missing binding that says what to install,
// not an error on every example.
func (b *binding) installed() error {
	if prog := b.command[0]; strings.ContainsRune(prog, filepath.Separator) {
		if _, err := os.Stat(prog); err != nil {
			return engine.NoBinding("binding %q runs %s, which does not exist (is it built? the examples' adapters are built by make examples)", b.name, prog)
		}
	} else if _, err := exec.LookPath(prog); err != nil {
		return engine.NoBinding("binding %q runs %s, which is not installed or not in PATH", b.name, prog)
	}
	var missing, pkgs []string
	for _, r := range b.requires {
		if filepath.IsAbs(r.Program) {
			if _, err := os.Stat(r.Program); err != nil {
				missing, pkgs = append(missing, r.Program), append(pkgs, r.Package)
			}
		} else if _, err := exec.LookPath(r.Program); err != nil {
			missing, pkgs = append(missing, r.Program), append(pkgs, r.Package)
		}
	}
	if len(missing) > 0 {
		return engine.NoBinding("binding %q needs %s, not installed here: apt-get install %s (for the examples: make examples-deps)",
			b.name, strings.Join(missing, ", "), strings.Join(slices.Compact(slices.Sorted(slices.Values(pkgs))), " "))
	}
	return nil
}

func (r *Runtime) binding(id string) *binding {
	if r == nil {
		return nil
	}
	return r.bindings[id]
}

// missing explains an unbound external id, suggesting a near name and listing the bound
// ones, as missingProvider does for providers (benchy run --system ID names one by hand).
func (r *Runtime) missing(id string) error {
	if r == nil {
		return engine.NoBinding("no runtime file was given to bind the external AI-system %q", id)
	}
	file := r.file
	if file == "" {
		file = "the runtime file"
	}
	names := r.Names()
	msg := fmt.Sprintf("%s has no binding for the external AI-system %q", file, id)
	if s := suggest.Closest(id, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	if len(names) == 0 {
		msg += "; it binds nothing"
	} else {
		msg += "; it binds " + strings.Join(names, ", ")
	}
	return engine.NoBinding("%s", msg)
}

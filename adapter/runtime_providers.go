package adapter

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/ir"
)

// Binding a model AI-system: to the provider of the runtime file it names, with the prompt
// file read from the benchmark's folder.

// Offline is r for a run that sends no request (benchy run --estimate): its providers'
// keys need not be set. r is not changed.
func (r *Runtime) Offline() *Runtime {
	if r == nil {
		return nil
	}
	out := *r
	out.offline = true
	return &out
}

// ProviderNames lists the defined providers, sorted: what may be shown of them.
func (r *Runtime) ProviderNames() []string {
	if r == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(r.providers))
}

// modelFactory binds a model AI-system to the provider it names. The key is read from the
// environment here, once, and the prompt file from the benchmark's directory benchDir. The
// fingerprint holds the base URL with any password or token in it masked, as an http
// binding's: a hash of a secret is no place for it, and a rotated token is the same system.
func (r *Runtime) modelFactory(b *ir.Benchmark, benchDir string, paths engine.Paths) (Bound, error) {
	sys := b.AISystem
	cfg, ok := r.providerConfig(sys.Provider)
	if !ok {
		return Bound{}, r.missingProvider(sys.Provider)
	}
	prompt, err := readPromptIn(benchDir, sys.Prompt, paths, r)
	if err != nil {
		return Bound{}, err
	}
	task := provider.Task{System: sys, Input: b.Program.Input, Output: b.Program.Output, Prompt: prompt,
		PromptFile: filepath.Join(benchDir, filepath.FromSlash(sys.Prompt))}
	getenv := os.Getenv
	if r.offline {
		getenv = func(name string) string {
			if v := os.Getenv(name); v != "" {
				return v
			}
			return "unset: benchy run --estimate sends nothing"
		}
	}
	f, err := provider.NewFactory(cfg, task, getenv)
	if err != nil {
		return Bound{}, err
	}
	out := Bound{Factory: f, Name: cfg.Name, Fingerprint: fingerprint(map[string]any{
		"kind": string(cfg.Kind), "base_url": urlSecrets(cfg.BaseURL).String(cfg.BaseURL), "model": sys.Model})}
	if sys.Prompt != "" {
		out.PromptSHA256 = engine.SHA256([]byte(prompt))
	}
	return out, nil
}

func (r *Runtime) providerConfig(name string) (provider.Config, bool) {
	if r == nil {
		return provider.Config{}, false
	}
	cfg, ok := r.providers[name]
	return cfg, ok
}

// missingProvider explains an undefined provider, suggesting a near name and listing the
// defined ones.
func (r *Runtime) missingProvider(name string) error {
	if r == nil {
		return engine.NoBinding("no runtime file was given to define the provider %q", name)
	}
	file := r.file
	if file == "" {
		file = "the runtime file"
	}
	names := r.ProviderNames()
	msg := fmt.Sprintf("%s defines no provider %q", file, name)
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	if len(names) == 0 {
		msg += "; it defines no providers"
	} else {
		msg += "; it defines " + strings.Join(names, ", ")
	}
	return engine.NoBinding("%s", msg)
}

// maxPrompt bounds a prompt file: far beyond any model's context, far below the memory a
// mistaken data file would take.
const maxPrompt = 16 << 20

// readPromptIn reads a model's prompt file, name as ai-system.prompt gives it:
// slash-separated and relative to benchDir, the benchmark's directory, within paths: neither
// .. nor a symbolic link leads out of the workspace (or of benchDir, without one), and the
// runtime file and hidden files (.env, .benchy/) are refused, as engine.Paths says. It is
// the one place a prompt file is read (a run's binding, benchy validate's CheckPrompt), so
// the artifacts' rules are kept here (prompt_rules.go): prompt text by its names, not named
// by a command of rt's or of a runtime file of the workspace, not a runtime file by its
// text. rt is the runtime the run binds through (nil for validate). No prompt is "".
func readPromptIn(benchDir, name string, paths engine.Paths, rt *Runtime) (string, error) {
	if name == "" {
		return "", nil
	}
	f, err := paths.Open(benchDir, name)
	if err != nil {
		return "", promptPathError(name, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("ai-system.prompt: cannot read the prompt file %q: it cannot be read", name)
	}
	real := f.Name() // as engine.Paths resolved it: inside its folder, links resolved
	if err := promptKind(name, real); err != nil {
		return "", err
	}
	if err := promptCommands(name, real, info, benchDir, paths, rt); err != nil {
		return "", err
	}
	if engine.ManyLinks(info) {
		return "", fmt.Errorf("ai-system.prompt: the prompt file %q has more than one name (a hard link), so it may be another file (the runtime file, a hidden file, a script, a file outside the workspace): a prompt has one name only, as an artifact the server serves does", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPrompt+1))
	switch {
	case err != nil:
		return "", fmt.Errorf("ai-system.prompt: cannot read the prompt file %q: it cannot be read", name)
	case len(data) > maxPrompt:
		return "", fmt.Errorf("ai-system.prompt: cannot read the prompt file %q: it is larger than %d bytes", name, maxPrompt)
	case !utf8.Valid(data):
		return "", fmt.Errorf("ai-system.prompt: the prompt file %q is not UTF-8 text", name)
	case RuntimeText(data):
		return "", fmt.Errorf("ai-system.prompt: the prompt file %q is a runtime file by its text (bindings, providers or executors at its top), which is never sent as a prompt", name)
	}
	return string(data), nil
}

// promptPathError words engine.Paths' refusal of prompt file name.
func promptPathError(name string, err error) error {
	var pe *engine.PathError
	if errors.As(err, &pe) && (pe.Kind == engine.PathMissing || pe.Kind == engine.PathUnreadable) {
		return fmt.Errorf("ai-system.prompt: cannot read the prompt file %q: it %s", name, pe.Reason)
	}
	return fmt.Errorf("ai-system.prompt: the prompt file %v", err)
}

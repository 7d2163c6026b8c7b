package adapter

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/ir"
)

// The runtime file's providers mapping: how this machine reaches each model provider a
// benchmark may name in ai-system.provider.

// providerKeys are a provider's keys, in the order the documentation gives them.
var providerKeys = []string{"kind", "base_url", "api_key_env", "max_concurrency", "requests_per_minute", "max_retries", "timeout", "structured_output"}

var (
	kinds   = []string{string(provider.KindOpenAI), string(provider.KindAnthropic)}
	modes   = []string{provider.ModeJSONSchema, provider.ModeJSONMode}
	envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

func (p *runtimeParser) providers(n ast.Node) {
	path := []string{"providers"}
	entries, ok := p.mapping(n, path, "providers must map provider names, as ai-system.provider gives them, to their settings")
	if !ok {
		return
	}
	for _, e := range entries {
		if e.key == "" {
			p.report(e.keyNode, path, "a provider's name must be a non-empty string: the name ai-system.provider uses")
			continue
		}
		if cfg, ok := p.provider(e); ok {
			p.rt.providers[cfg.Name] = cfg
		}
	}
}

// provider checks one provider, reporting every problem, and returns its settings with the
// defaults written out when it has none.
func (p *runtimeParser) provider(e entry) (provider.Config, bool) {
	name := e.key
	owner := fmt.Sprintf("provider %q", name)
	path := []string{"providers", name}
	entries, ok := p.mapping(e.value, path, fmt.Sprintf("%s must be a mapping with kind, and optionally base_url, api_key_env and limits", owner))
	if !ok {
		return provider.Config{}, false
	}
	cfg := provider.Config{Name: name, MaxRetries: provider.DefaultMaxRetries,
		Timeout: provider.DefaultTimeout, StructuredOutput: provider.ModeJSONSchema}
	before := len(p.diags)
	hasKind, kindMisspelt := false, false
	for _, e := range entries {
		at := append(path[:2:2], e.key)
		switch e.key {
		case "kind":
			hasKind = true
			cfg.Kind = provider.Kind(p.choice(owner, "kind", kinds, "openai (Chat Completions) or anthropic (Messages)", e.value, at))
		case "base_url":
			cfg.BaseURL = p.url(owner+": base_url", "https://api.openai.com/v1", e.value, at)
		case "api_key_env":
			cfg.APIKeyEnv = p.envVar(owner, e.value, at)
		case "max_concurrency":
			cfg.MaxConcurrency = p.count(owner, "max_concurrency", 1, e.value, at)
		case "requests_per_minute":
			cfg.RequestsPerMinute = p.count(owner, "requests_per_minute", 1, e.value, at)
		case "max_retries":
			// Config's zero value means "the default", so an explicit 0, no retries at
			// all, is written -1, which provider.Config's defaults turn into 0.
			if cfg.MaxRetries = p.count(owner, "max_retries", 0, e.value, at); cfg.MaxRetries == 0 {
				cfg.MaxRetries = -1
			}
		case "timeout":
			cfg.Timeout = p.timeout(owner, e.value, at)
		case "structured_output":
			cfg.StructuredOutput = p.choice(owner, "structured_output", modes, "json_schema (the default) or json_mode", e.value, at)
		default:
			if secretKey(e.key) {
				// Only the key's name is repeated, never its value.
				d := p.diag(e.keyNode, at, fmt.Sprintf("%s: %q looks like a credential; a key never goes in the runtime file: put it in an environment variable and name that variable with api_key_env", owner, e.key))
				d.Suggestion = "api_key_env"
				p.diags = append(p.diags, d)
				continue
			}
			kindMisspelt = kindMisspelt || suggest.Closest(e.key, providerKeys) == "kind"
			p.unknown(e, path, providerKeys, fmt.Sprintf("%s: unknown key %q; a provider has the keys %s", owner, e.key, strings.Join(providerKeys, ", ")))
		}
	}
	if !hasKind && !kindMisspelt {
		p.report(e.keyNode, path, fmt.Sprintf("%s has no kind; write kind: openai (Chat Completions) or kind: anthropic (Messages)", owner))
	}
	if len(p.diags) > before {
		return provider.Config{}, false
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = provider.DefaultBaseURL(cfg.Kind)
	}
	return cfg, true
}

// secretKey tells a key that would hold a credential (api_key, token, password, ...) from
// a misspelt api_key_env, which names one: near it and about as long.
func secretKey(key string) bool {
	k := strings.ToLower(key)
	if strings.Contains(k, "env") || suggest.Closest(k, []string{"api_key_env"}) != "" && len(k) >= len("api_key_env")-2 {
		return false
	}
	for _, s := range []string{"key", "token", "secret", "password", "passwd", "auth", "bearer", "credential"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// choice checks a value that must be one of allowed, suggesting the nearest.
func (p *runtimeParser) choice(owner, key string, allowed []string, want string, n ast.Node, path []string) string {
	if !p.plain(n, path) {
		return ""
	}
	s, ok := scalarText(n)
	if ok {
		for _, a := range allowed {
			if s == a {
				return s
			}
		}
	}
	msg := fmt.Sprintf("%s: %s must be %s", owner, key, want)
	if ok && s != "" {
		msg = fmt.Sprintf("%s: unknown %s %q; write %s", owner, key, s, want)
	}
	d := p.diag(n, path, msg)
	if ok {
		d.Suggestion = suggest.Closest(s, allowed)
	}
	p.diags = append(p.diags, d)
	return ""
}

// envVar checks api_key_env: the name of a variable. The value is never repeated, in case
// it is the key itself, written where its variable's name belongs.
func (p *runtimeParser) envVar(owner string, n ast.Node, path []string) string {
	if !p.plain(n, path) {
		return ""
	}
	if _, isString := n.(*ast.StringNode); isString {
		if s, _ := scalarText(n); envName.MatchString(s) {
			return s
		}
	}
	p.report(n, path, fmt.Sprintf("%s: api_key_env must be the name of an environment variable, such as OPENAI_API_KEY (letters, digits and _), not the key itself", owner))
	return ""
}

// count checks a whole number of at least least.
func (p *runtimeParser) count(owner, key string, least int, n ast.Node, path []string) int {
	if !p.plain(n, path) {
		return 0
	}
	if x, ok := n.(*ast.IntegerNode); ok {
		var v int64
		switch i := x.Value.(type) {
		case int64:
			v = i
		case uint64:
			v = int64(min(i, 1<<62))
		}
		switch {
		case x.Value == nil || v > 1<<31:
			p.report(n, path, fmt.Sprintf("%s: %s is too large", owner, key))
		case v < int64(least):
			p.report(n, path, fmt.Sprintf("%s: %s must be at least %d; found %d", owner, key, least, v))
		default:
			return int(v)
		}
		return 0
	}
	p.report(n, path, fmt.Sprintf("%s: %s must be a whole number of at least %d", owner, key, least))
	return 0
}

// ProviderNames lists the defined providers, sorted: what may be shown of them.
func (r *Runtime) ProviderNames() []string {
	if r == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(r.providers))
}

// modelFactory binds a model AI-system to the provider it names. The key is read from the
// environment here, once, and the prompt file from the benchmark's directory benchDir.
func (r *Runtime) modelFactory(b *ir.Benchmark, benchDir string, paths engine.Paths) (engine.Factory, string, error) {
	sys := b.AISystem
	cfg, ok := r.providerConfig(sys.Provider)
	if !ok {
		return nil, "", r.missingProvider(sys.Provider)
	}
	prompt, err := readPromptIn(benchDir, sys.Prompt, paths)
	if err != nil {
		return nil, "", err
	}
	task := provider.Task{System: sys, Input: b.Program.Input, Output: b.Program.Output, Prompt: prompt}
	f, err := provider.NewFactory(cfg, task, os.Getenv)
	if err != nil {
		return nil, "", err
	}
	return f, cfg.Name, nil
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
		return fmt.Errorf("%w: no runtime file was given to define the provider %q", engine.ErrMissingBinding, name)
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
	return fmt.Errorf("%w: %s", engine.ErrMissingBinding, msg)
}

// maxPrompt bounds a prompt file: far beyond any model's context, far below the memory a
// mistaken data file would take.
const maxPrompt = 16 << 20

// readPromptIn reads a model's prompt file, name as ai-system.prompt gives it:
// slash-separated and relative to benchDir, the benchmark's directory, within paths: neither
// .. nor a symbolic link leads out of the workspace (or of benchDir, without one), and the
// runtime file and hidden files (.env, .benchy/) are refused, as engine.Paths says. No
// prompt is "".
func readPromptIn(benchDir, name string, paths engine.Paths) (string, error) {
	if name == "" {
		return "", nil
	}
	data, err := paths.ReadFile(benchDir, name, maxPrompt)
	var pe *engine.PathError
	switch {
	case errors.As(err, &pe) && (pe.Kind == engine.PathMissing || pe.Kind == engine.PathUnreadable):
		return "", fmt.Errorf("ai-system.prompt: cannot read the prompt file %q: it %s", name, pe.Reason)
	case err != nil:
		return "", fmt.Errorf("ai-system.prompt: the prompt file %v", err)
	case !utf8.Valid(data):
		return "", fmt.Errorf("ai-system.prompt: the prompt file %q is not UTF-8 text", name)
	}
	return string(data), nil
}

package runtimefile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// The runtime file's providers mapping: how this machine reaches each model provider a
// benchmark may name in ai-system.provider.

// providerKeys are a provider's keys, in the order the documentation gives them.
var providerKeys = []string{"kind", "base_url", "api_key_env", "max_concurrency", "requests_per_minute", "tokens_per_minute", "max_retries", "timeout", "structured_output", "cache", "prices", "batch"}

var (
	kinds = []string{string(provider.KindOpenAI), string(provider.KindAnthropic)}
	modes = []string{provider.ModeJSONSchema, provider.ModeJSONMode}
)

func (p *parser) providers(n *yamlnode.Node) {
	path := []string{"providers"}
	pairs, ok := p.mapping(n, path, "providers must map provider names, as ai-system.provider gives them, to their settings")
	if !ok {
		return
	}
	for _, e := range pairs {
		if e.Key == "" {
			p.report(e.Pos(), path, "a provider's name must be a non-empty string: the name ai-system.provider uses")
			continue
		}
		if cfg, ok := p.provider(e); ok {
			p.f.Providers = append(p.f.Providers, cfg)
		}
	}
}

// provider checks one provider, reporting every problem, and returns its settings with the
// defaults written out when it has none: what the file leaves out is the default, what it
// says, 0 retries included, is what it says.
func (p *parser) provider(e yamlnode.Pair) (provider.Config, bool) {
	name := e.Key
	owner := fmt.Sprintf("provider %q", name)
	path := []string{"providers", name}
	pairs, ok := p.mapping(e.Value, path, fmt.Sprintf("%s must be a mapping with kind, and optionally base_url, api_key_env and limits", owner))
	if !ok {
		return provider.Config{}, false
	}
	cfg := provider.Config{Name: name, MaxRetries: provider.DefaultMaxRetries,
		Timeout: provider.DefaultTimeout, StructuredOutput: provider.ModeJSONSchema}
	before := p.count()
	hasKind, kindMisspelt := false, false
	for _, e := range pairs {
		at := append(path[:2:2], e.Key)
		switch e.Key {
		case "kind":
			hasKind = true
			cfg.Kind = provider.Kind(p.choice(owner, "kind", kinds, "openai (Chat Completions) or anthropic (Messages)", e.Value, at))
		case "base_url":
			cfg.BaseURL = p.url(owner+": base_url", "https://api.openai.com/v1", e.Value, at)
		case "api_key_env":
			cfg.APIKeyEnv = p.envVar(owner, e.Value, at)
		case "max_concurrency":
			cfg.MaxConcurrency = p.whole(owner, "max_concurrency", 1, e.Value, at)
		case "requests_per_minute":
			cfg.RequestsPerMinute = p.whole(owner, "requests_per_minute", 1, e.Value, at)
		case "tokens_per_minute":
			cfg.TokensPerMinute = p.whole(owner, "tokens_per_minute", 1, e.Value, at)
		case "max_retries":
			cfg.MaxRetries = p.whole(owner, "max_retries", 0, e.Value, at)
		case "timeout":
			cfg.Timeout = p.timeout(owner, e.Value, at)
		case "structured_output":
			cfg.StructuredOutput = p.choice(owner, "structured_output", modes, "json_schema (the default) or json_mode", e.Value, at)
		case "cache":
			cfg.CacheMode = p.choice(owner, "cache", provider.CacheModes, "off (the default), use, refresh or only", e.Value, at)
		case "prices":
			cfg.Prices = p.prices(owner, e.Value, at)
		case "batch":
			cfg.Batch.On = e.Value.Kind == yamlnode.Bool && strings.EqualFold(e.Value.Text, "true")
			if e.Value.Kind != yamlnode.Bool && e.Value.Kind != yamlnode.Bad {
				p.report(e.Value.Pos(), at, owner+": batch must be true (send the run through the provider's batch API) or false")
			}
		default:
			if secretKey(e.Key) {
				// Only the key's name is repeated, never its value.
				p.add(p.diag(e.Pos(), at, fmt.Sprintf("%s: %q looks like a credential; a key never goes in the runtime file: put it in an environment variable and name that variable with api_key_env", owner, e.Key)), "api_key_env")
				continue
			}
			kindMisspelt = kindMisspelt || suggest.Closest(e.Key, providerKeys) == "kind"
			p.unknown(e, path, providerKeys, fmt.Sprintf("%s: unknown key %q; a provider has the keys %s", owner, e.Key, strings.Join(providerKeys, ", ")))
		}
	}
	if !hasKind && !kindMisspelt && !e.Value.Partial {
		p.report(e.Pos(), path, fmt.Sprintf("%s has no kind; write kind: openai (Chat Completions) or kind: anthropic (Messages)", owner))
	}
	if p.count() > before {
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
	// tokens_per_minute holds "token" and is a limit: a misspelling of it is a typo too.
	if strings.Contains(k, "minute") || suggest.Closest(k, []string{"tokens_per_minute"}) != "" && len(k) >= len("tokens_per_minute")-2 {
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
func (p *parser) choice(owner, key string, allowed []string, want string, n *yamlnode.Node, path []string) string {
	if n.Kind == yamlnode.Bad {
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
	suggestion := ""
	if ok {
		suggestion = suggest.Closest(s, allowed)
	}
	p.add(p.diag(n.Pos(), path, msg), suggestion)
	return ""
}

// envVar checks api_key_env: the name of a variable. The value is never repeated, in case
// it is the key itself, written where its variable's name belongs.
func (p *parser) envVar(owner string, n *yamlnode.Node, path []string) string {
	switch {
	case n.Kind == yamlnode.Bad:
	case n.Kind == yamlnode.String && envName.MatchString(n.Text):
		return n.Text
	default:
		p.report(n.Pos(), path, fmt.Sprintf("%s: api_key_env must be the name of an environment variable, such as OPENAI_API_KEY (letters, digits and _), not the key itself", owner))
	}
	return ""
}

// whole checks a whole number of at least least.
func (p *parser) whole(owner, key string, least int, n *yamlnode.Node, path []string) int {
	switch {
	case n.Kind == yamlnode.Bad:
	case n.Kind != yamlnode.Int:
		p.report(n.Pos(), path, fmt.Sprintf("%s: %s must be a whole number of at least %d", owner, key, least))
	case n.Num > 1<<31:
		p.report(n.Pos(), path, fmt.Sprintf("%s: %s is too large", owner, key))
	case n.Num < float64(least):
		p.report(n.Pos(), path, fmt.Sprintf("%s: %s must be at least %d; found %s", owner, key, least, strconv.FormatFloat(n.Num, 'f', -1, 64)))
	default:
		return int(n.Num)
	}
	return 0
}

package adapter

import (
	"maps"

	"github.com/benchy-eval/benchy/adapter/provider"
)

// The response cache a run's providers use: the runtime file says each provider's mode
// (cache:), `benchy run --cache` may override it, and the run service gives the cache
// itself, the workspace store's (package internal/workspace).

// CacheMode is the cache mode the provider named runs with: override (--cache) when given,
// else the runtime file's cache:, else off.
func (r *Runtime) CacheMode(name, override string) string {
	if override != "" {
		return override
	}
	if cfg, ok := r.providerConfig(name); ok && cfg.CacheMode != "" {
		return cfg.CacheMode
	}
	return provider.CacheOff
}

// WithCache is r with cache as every provider's response cache and, when override is not
// "", override as every provider's mode. r is not changed: a server's runtime file serves
// runs with other flags.
func (r *Runtime) WithCache(cache provider.Cache, override string) *Runtime {
	if r == nil {
		return nil
	}
	out := *r
	out.providers = maps.Clone(r.providers)
	for name, cfg := range out.providers {
		cfg.Cache = cache
		if override != "" {
			cfg.CacheMode = override
		}
		out.providers[name] = cfg
	}
	return &out
}

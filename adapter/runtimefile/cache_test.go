package runtimefile

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider"
)

// TestParseCache: a provider's cache: is one of the modes, off when not given; off is the
// word, not YAML 1.1's false.
func TestParseCache(t *testing.T) {
	for _, mode := range append([]string{""}, provider.CacheModes...) {
		src := "providers:\n  a:\n    kind: openai\n"
		if mode != "" {
			src += "    cache: " + mode + "\n"
		}
		f := parseOK(t, src)
		if got := f.Providers[0].CacheMode; got != mode {
			t.Errorf("cache: %q parsed as %q", mode, got)
		}
	}
	for _, c := range []struct{ src, want, suggestion string }{
		{"cache: usee", `provider "a": unknown cache "usee"; write off (the default), use, refresh or only`, "use"},
		{"cache: true", `provider "a": unknown cache "true"`, ""},
		{"cache: [use]", `provider "a": cache must be off (the default), use, refresh or only`, ""},
	} {
		_, ds := Parse([]byte("providers:\n  a:\n    kind: openai\n    " + c.src + "\n"))
		if len(ds) != 1 || !strings.Contains(ds[0].Message, c.want) || ds[0].Suggestion != c.suggestion || ds[0].Line != 4 {
			t.Errorf("%s: %v, want %q at line 4 (suggesting %q)", c.src, ds, c.want, c.suggestion)
		}
	}
}

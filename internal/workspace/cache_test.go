package workspace

import (
	"errors"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider"
)

// modelSystem is system with a model AI-system on provider local.
var modelSystem = strings.Replace(system, "ai-system: {type: external, id: sys}", "ai-system: {type: model, provider: local, model: m}", 1)

// TestPrepareCache: the run service asks for the workspace's cache only when the model's
// provider uses it, by the runtime file's cache: or by --cache (which overrides the file);
// a run that needs one and has no workspace is refused before any call; a system that is
// no model never asks.
func TestPrepareCache(t *testing.T) {
	sc := NewStoreCache(t.TempDir())
	t.Cleanup(func() { sc.Close() })
	broken := errors.New("the disk is gone")
	for _, c := range []struct {
		name, bench, cacheLine, flag string
		cache                        func() (provider.Cache, error)
		asked                        bool
		want                         string // in the error; "" for none
	}{
		{"off by default", modelSystem, "", "", sc.Open, false, ""},
		{"the file's cache: use", modelSystem, "    cache: use\n", "", sc.Open, true, ""},
		{"--cache only over the file's off", modelSystem, "    cache: off\n", "only", sc.Open, true, ""},
		{"--cache off over the file's use", modelSystem, "    cache: use\n", "off", sc.Open, false, ""},
		{"no workspace", modelSystem, "", "use", nil, false, "is in no workspace"},
		{"a store that will not open", modelSystem, "", "refresh", func() (provider.Cache, error) { return nil, broken }, true, "the disk is gone"},
		{"not a model", system, "", "use", sc.Open, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			asked := false
			setup := Setup{Dir: t.TempDir(), CacheMode: c.flag, Runtime: runtime(t,
				"bindings:\n  sys: {command: [cat]}\nproviders:\n  local:\n    kind: openai\n    base_url: http://127.0.0.1:1/v1\n"+c.cacheLine)}
			if c.cache != nil {
				setup.Cache = func() (provider.Cache, error) { asked = true; return c.cache() }
			}
			_, err := Prepare(Source{Name: "b.yaml", Text: []byte(c.bench)}, setup)
			var unusable *Unusable
			switch {
			case c.want == "" && err != nil:
				t.Fatal(err)
			case c.want != "" && (!errors.As(err, &unusable) || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("%v, want an Unusable saying %q", err, c.want)
			}
			if asked != c.asked {
				t.Errorf("the cache was asked for: %v, want %v", asked, c.asked)
			}
		})
	}
}

// TestStoreCacheOnce: the CLI's cache opens the workspace's store once however many plans
// ask, and its replies outlive it.
func TestStoreCacheOnce(t *testing.T) {
	ws := t.TempDir()
	sc := NewStoreCache(ws)
	a, err := sc.Open()
	if err != nil {
		t.Fatal(err)
	}
	st := sc.st
	if _, err := sc.Open(); err != nil || sc.st != st {
		t.Fatalf("a second Open opened another store (%v)", err)
	}
	if err := a.Put("k", []byte("v"), false); err != nil {
		t.Fatal(err)
	}
	if err := sc.Close(); err != nil {
		t.Fatal(err)
	}
	again := NewStoreCache(ws)
	defer again.Close()
	c, _ := again.Open()
	if got, ok, err := c.Get("k"); !ok || err != nil || string(got) != "v" {
		t.Errorf("after reopening: %q %v %v", got, ok, err)
	}
}

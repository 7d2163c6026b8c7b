package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// testCache is a real response cache: a workspace store's, in a temporary folder.
func testCache(t testing.TB) *store.Cache {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), ".benchy", "benchy.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st.Cache()
}

// seenKeys is a real cache that notes the keys looked up in it.
type seenKeys struct {
	Cache
	mu   sync.Mutex
	keys []string
}

func (s *seenKeys) Get(key string) ([]byte, bool, error) {
	s.mu.Lock()
	s.keys = append(s.keys, key)
	s.mu.Unlock()
	return s.Cache.Get(key)
}

// keyOf is the cache key of the request cfg's adapter of task sends for input, with key as
// its API key: the key it looks up.
func keyOf(t *testing.T, cfg Config, task Task, key string, input map[string]any) string {
	t.Helper()
	seen := &seenKeys{Cache: cfg.Cache}
	cfg.Cache = seen
	a := newModel(t, cfg, task, key)
	if _, err := a.Invoke(context.Background(), 0, input); err == nil {
		t.Fatal("a lookup in an empty cache found a reply")
	}
	if len(seen.keys) != 1 {
		t.Fatalf("%d lookups, want 1", len(seen.keys))
	}
	return seen.keys[0]
}

// TestCacheKey: every part of what a request asks changes its key (the kind, the base URL,
// the model, any byte of the body, an artifact's bytes included); nothing else does: not
// the API key, not the base URL's password or token, not the time, not another adapter.
func TestCacheKey(t *testing.T) {
	task, input := oaTask(t)
	// Nothing answers at these addresses: only looks up, use finds no server.
	base := Config{Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1/v1?api_key=TOKEN-1", APIKeyEnv: "K", CacheMode: CacheOnly, Cache: testCache(t)}
	keyWith := func(cfg Config, task Task, key string, input map[string]any) string {
		return keyOf(t, cfg, task, key, input)
	}
	want := keyWith(base, task, "sk-one", input)
	if len(want) != 64 || strings.Trim(want, "0123456789abcdef") != "" {
		t.Fatalf("key %q is not a hex sha256", want)
	}
	with := func(f func(*Config, *Task, map[string]any)) (Config, Task, map[string]any) {
		cfg, tk := base, task
		tk.System.Parameters = map[string]any{}
		for k, v := range task.System.Parameters {
			tk.System.Parameters[k] = v
		}
		in := map[string]any{}
		for k, v := range input {
			in[k] = v
		}
		f(&cfg, &tk, in)
		return cfg, tk, in
	}
	changedImage := filepath.Join(t.TempDir(), "scan.png")
	img, _ := os.ReadFile(input["scan"].(string))
	img[len(img)-1] ^= 1 // the same size, one bit else
	os.WriteFile(changedImage, img, 0o644)

	for _, c := range []struct {
		name string
		edit func(*Config, *Task, map[string]any)
		same bool
	}{
		{"another API key", func(*Config, *Task, map[string]any) {}, true},
		{"another token in the base URL", func(c *Config, _ *Task, _ map[string]any) { c.BaseURL = "http://127.0.0.1:1/v1?api_key=TOKEN-2" }, true},
		{"another cache mode", func(c *Config, _ *Task, _ map[string]any) { c.CacheMode, c.MaxRetries = CacheUse, 0 }, true},
		{"another host", func(c *Config, _ *Task, _ map[string]any) { c.BaseURL = "http://127.0.0.2:1/v1?api_key=TOKEN-1" }, false},
		{"another path", func(c *Config, _ *Task, _ map[string]any) { c.BaseURL = "http://127.0.0.1:1/v2?api_key=TOKEN-1" }, false},
		{"another model", func(_ *Config, tk *Task, _ map[string]any) { tk.System.Model = "gpt-test-2" }, false},
		{"another parameter", func(_ *Config, tk *Task, _ map[string]any) { tk.System.Parameters["seed"] = 8.0 }, false},
		{"another prompt", func(_ *Config, tk *Task, _ map[string]any) { tk.Prompt += " " }, false},
		{"another input", func(_ *Config, _ *Task, in map[string]any) { in["question"] = "What is the total? " }, false},
		{"another image byte", func(_ *Config, _ *Task, in map[string]any) { in["scan"] = changedImage }, false},
		{"another output mode", func(c *Config, _ *Task, _ map[string]any) { c.StructuredOutput = ModeJSONMode }, false},
	} {
		cfg, tk, in := with(c.edit)
		got := keyWith(cfg, tk, "sk-two", in)
		if (got == want) != c.same {
			t.Errorf("%s: key changed %v, want changed %v", c.name, got != want, !c.same)
		}
	}
	// The kind: the same question to either protocol (Anthropic's takes no audio).
	qa := oaQATask()
	q := map[string]any{"q": "x"}
	anthropic := base
	anthropic.Kind = KindAnthropic
	if keyWith(base, qa, "k", q) == keyWith(anthropic, qa, "k", q) {
		t.Error("another kind: the key did not change")
	}
	time.Sleep(2 * time.Millisecond)
	if keyWith(base, task, "sk-one", input) != want {
		t.Error("the same request later has another key")
	}
}

// cacheServer is a stub whose reply each test sets.
func cacheAdapter(t *testing.T, srv *oaServer, mode string, cache Cache) *modelAdapter {
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 0, Timeout: 2 * time.Second, CacheMode: mode, Cache: cache}, oaQATask())
	return a
}

// TestCacheModes: use replays what it kept and sends what it has not; refresh always sends
// and keeps the new reply; only never sends, and a miss is a cache_miss execution error.
// Results say where each reply came from (usage.cached).
func TestCacheModes(t *testing.T) {
	cache := testCache(t)
	q := map[string]any{"q": "Capital of France?"}
	srv := newOAServer(t, oaResponse{body: oaCompletion(`{"answer":"Paris"}`, "stop")}, oaResponse{body: oaCompletion(`{"answer":"Paname"}`, "stop")})
	call := func(mode string) (any, *engine.Usage, error) {
		out, err := cacheAdapter(t, srv, mode, cache).Invoke(context.Background(), 0, q)
		if a, ok := out.(*engine.Answer); ok {
			return mustJSON(a.Output), a.Usage, err
		}
		return nil, nil, err
	}
	steps := []struct {
		mode     string
		answer   string
		cached   bool
		requests int // sent so far
	}{
		{CacheUse, `{"answer":"Paris"}`, false, 1},
		{CacheUse, `{"answer":"Paris"}`, true, 1},
		{CacheOnly, `{"answer":"Paris"}`, true, 1},
		{CacheRefresh, `{"answer":"Paname"}`, false, 2},
		{CacheUse, `{"answer":"Paname"}`, true, 2},
	}
	for i, s := range steps {
		out, u, err := call(s.mode)
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, s.mode, err)
		}
		if out != s.answer || u.Cached == nil || *u.Cached != s.cached || len(srv.requests()) != s.requests {
			t.Errorf("step %d (%s): %v cached %v after %d requests, want %s cached %v after %d", i, s.mode, out, u.Cached, len(srv.requests()), s.answer, s.cached, s.requests)
		}
		if u.InputTokens != 120 || u.OutputTokens != 17 {
			t.Errorf("step %d: usage %+v, the reply's tokens", i, u)
		}
	}
	// off: no lookup, no mark.
	if _, u, err := call(CacheOff); err != nil || u.Cached != nil || len(srv.requests()) != 3 {
		t.Errorf("off: cached %v, err %v, %d requests", u.Cached, err, len(srv.requests()))
	}
	// only, with the server stopped: another question is a miss, the one kept a hit.
	srv.Close()
	_, err := cacheAdapter(t, srv, CacheOnly, cache).Invoke(context.Background(), 0, map[string]any{"q": "Capital of Spain?"})
	f := oaFailure(t, err)
	if f.Status != engine.StatusExecutionError || f.Code != diag.CacheMiss || !diag.Registered(f.Code) || f.Usage == nil || f.Usage.Cached == nil || *f.Usage.Cached || f.Request == "" {
		t.Errorf("a miss with only: %+v (usage %+v), want a registered cache_miss with its request", f, f.Usage)
	}
	if out, _, err := call(CacheOnly); err != nil || out != `{"answer":"Paname"}` {
		t.Errorf("a hit with the server stopped: %v %v", out, err)
	}
}

// TestCacheKeepsNoFailure: a call that failed (4xx, 5xx, a timeout, no server, a reply the
// protocol cannot read) is never kept, so that --cache only still misses it; a reply that
// is the model's answer but not the output's JSON (a refusal) is kept, and replays as the
// same invalid_output.
func TestCacheKeepsNoFailure(t *testing.T) {
	for _, c := range []struct {
		name  string
		reply oaResponse
		kept  bool
	}{
		{"400", oaResponse{status: 400, body: `{"error":{"message":"bad"}}`}, false},
		{"429", oaResponse{status: 429, body: `{"error":{"message":"slow down"}}`}, false},
		{"500", oaResponse{status: 500, body: `{"error":{"message":"oops"}}`}, false},
		{"timeout", oaResponse{hang: true}, false},
		{"not JSON", oaResponse{body: `<html>bad gateway</html>`}, false},
		{"no choices", oaResponse{body: `{"choices":[]}`}, false},
		{"refusal", oaResponse{body: `{"choices":[{"message":{"content":null,"refusal":"No."},"finish_reason":"stop"}]}`}, true},
		{"prose", oaResponse{body: oaCompletion("I think Paris.", "stop")}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := testCache(t)
			srv := newOAServer(t, c.reply)
			a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 0, Timeout: 300 * time.Millisecond, CacheMode: CacheUse, Cache: cache}, oaQATask())
			q := map[string]any{"q": "Capital of France?"}
			_, first := a.Invoke(context.Background(), 0, q)
			srv.Close()
			_, err := cacheAdapter(t, srv, CacheOnly, cache).Invoke(context.Background(), 0, q)
			var f *engine.Failure
			missed := errorAs(err, &f) && f.Code == diag.CacheMiss
			if missed == c.kept {
				t.Errorf("kept %v, want %v (first: %v, replay: %v)", !missed, c.kept, first, err)
			}
			if c.kept && (f == nil || first == nil || f.Error() != first.Error() || f.Status != engine.StatusInvalidOutput) {
				t.Errorf("the replay failed %v, the call %v", err, first)
			}
		})
	}
	// No server at all.
	cache := testCache(t)
	a, _ := oaAdapter(t, Config{BaseURL: "http://127.0.0.1:1/v1", MaxRetries: 0, CacheMode: CacheUse, Cache: cache}, oaQATask())
	if _, err := a.Invoke(context.Background(), 0, map[string]any{"q": "x"}); err == nil {
		t.Fatal("a call to no server succeeded")
	}
	a, _ = oaAdapter(t, Config{BaseURL: "http://127.0.0.1:1/v1", CacheMode: CacheOnly, Cache: cache}, oaQATask())
	if _, err := a.Invoke(context.Background(), 0, map[string]any{"q": "x"}); !strings.Contains(errString(err), string(diag.CacheMiss)) {
		t.Errorf("a connection failure was kept: %v", err)
	}
}

// TestCacheSettings: a mode other than off needs a cache; an unknown mode is refused.
func TestCacheSettings(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Kind: KindOpenAI, CacheMode: CacheUse}, "needs the workspace's response cache"},
		{Config{Kind: KindOpenAI, CacheMode: "sometimes", Cache: testCache(t)}, `unknown cache mode "sometimes"`},
		{Config{Kind: KindOpenAI, CacheMode: CacheOff}, ""},
		{Config{Kind: KindOpenAI}, ""},
	} {
		_, err := NewFactory(c.cfg, oaQATask(), func(string) string { return "" })
		if got := errString(err); c.want == "" && err != nil || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg.CacheMode, err, c.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func errorAs(err error, f **engine.Failure) bool {
	if err == nil {
		return false
	}
	ff, ok := err.(*engine.Failure)
	*f = ff
	return ok
}

// TestCacheKeepsNoSecret: a reply that echoes the key is kept with the key masked, as the
// adapter reads it, so that the store holds no secret and a replay reads what the run read.
func TestCacheKeepsNoSecret(t *testing.T) {
	srv := newOAServer(t, oaResponse{body: oaCompletion(`{"answer":"your key is `+oaKey+`"}`, "stop")})
	seen := &seenKeys{Cache: testCache(t)}
	a := cacheAdapter(t, srv, CacheUse, seen)
	q := map[string]any{"q": "What is my key?"}
	first, err := a.Invoke(context.Background(), 0, q)
	if err != nil {
		t.Fatal(err)
	}
	reply, ok, err := seen.Cache.Get(seen.keys[0])
	if !ok || err != nil || strings.Contains(string(reply), oaKey) || !strings.Contains(string(reply), "your key is") {
		t.Fatalf("kept %q (%v %v), want the reply with the key masked", reply, ok, err)
	}
	srv.Close()
	again, err := cacheAdapter(t, srv, CacheOnly, seen).Invoke(context.Background(), 0, q)
	if err != nil || mustJSON(again.(*engine.Answer).Output) != mustJSON(first.(*engine.Answer).Output) {
		t.Errorf("the replay: %v %v, the run: %v", again, err, first)
	}
}

// TestCacheOnlyNeedsNoKey: a replay from the cache alone sends nothing and so needs no
// key; every other mode still does.
func TestCacheOnlyNeedsNoKey(t *testing.T) {
	cache := testCache(t)
	for _, mode := range CacheModes {
		_, err := NewFactory(Config{Name: "p", Kind: KindOpenAI, APIKeyEnv: "UNSET_KEY", CacheMode: mode, Cache: cache}, oaQATask(), func(string) string { return "" })
		if unset := strings.Contains(errString(err), "UNSET_KEY"); unset != (mode != CacheOnly) {
			t.Errorf("cache %s without the key: %v", mode, err)
		}
	}
}

package cli_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// cacheProvider answers the sentiment benchmark: positive for "love", negative otherwise,
// and prose (an invalid output) for a review that says "maybe".
func cacheProvider(t *testing.T, requests *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		body, _ := io.ReadAll(r.Body)
		answer := `{\"sentiment\":\"negative\"}`
		switch {
		case strings.Contains(string(body), "maybe"):
			answer = "I cannot tell."
		case strings.Contains(string(body), "love"):
			answer = `{\"sentiment\":\"positive\"}`
		}
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`, answer)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// readDoc reads a result document as plain JSON values.
func readDoc(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// comparable is a result document without what a replay changes by its nature: its run's
// id in the store (each run has its own), when the run started and ended, how long each call took (a hit takes microseconds), where each
// reply came from (usage.cached) and the cache's counts. Everything else, scores, outputs,
// errors, tokens, identities, must be the original run's.
func comparable(doc map[string]any) map[string]any {
	delete(doc, "run_id")
	delete(doc, "started_at")
	delete(doc, "finished_at")
	delete(doc, "cache")
	if u, ok := doc["usage"].(map[string]any); ok {
		delete(u, "latency_ms")
	}
	for _, r := range doc["results"].([]any) {
		if u, ok := r.(map[string]any)["usage"].(map[string]any); ok {
			delete(u, "latency_ms")
			delete(u, "cached")
		}
	}
	return doc
}

// TestRunCacheReplay: a run with --cache use fills the workspace's response cache; with the
// provider stopped, --cache only replays it, and its result document is the original's
// but for the times, the latencies and where the replies came from. A request the cache
// lacks is a cache_miss; the runtime file's cache: applies, and --cache overrides it.
func TestRunCacheReplay(t *testing.T) {
	var requests atomic.Int32
	srv := cacheProvider(t, &requests)
	dir := t.TempDir()
	reviews := `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Broken on arrival"}, "expected": {"sentiment": "negative"}}
{"input": {"text": "maybe fine"}, "expected": {"sentiment": "positive"}}
`
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl":   reviews,
		"benchy.runtime.yaml":  "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 0\n",
	})
	bench := filepath.Join(dir, "benchmark.yaml")
	run := func(want int, out string, args ...string) string {
		t.Helper()
		code, _, stderr := runBenchy(t, append(append([]string{"run", "-o", filepath.Join(dir, out)}, args...), bench)...)
		if code != want {
			t.Fatalf("benchy run %v: exit %d, want %d\n%s", args, code, want, stderr)
		}
		return stderr
	}

	run(0, "first.json", "--cache", "use")
	first := readDoc(t, filepath.Join(dir, "first.json"))
	if got := first["cache"]; !reflect.DeepEqual(got, map[string]any{"hits": 0.0, "misses": 3.0}) || requests.Load() != 3 {
		t.Fatalf("the first run: cache %v after %d requests", got, requests.Load())
	}
	srv.Close()
	stderr := run(0, "replay.json", "--cache", "only")
	replay := readDoc(t, filepath.Join(dir, "replay.json"))
	if got := replay["cache"]; !reflect.DeepEqual(got, map[string]any{"hits": 3.0, "misses": 0.0}) || !strings.Contains(stderr, "response cache: 3 hits, 0 misses") {
		t.Errorf("the replay: cache %v\n%s", got, stderr)
	}
	for i, r := range replay["results"].([]any) {
		if u := r.(map[string]any)["usage"].(map[string]any); u["cached"] != true {
			t.Errorf("replayed example %d: usage %v, want cached true", i, u)
		}
	}
	if a, b := comparable(first), comparable(replay); !reflect.DeepEqual(a, b) {
		ja, _ := json.MarshalIndent(a, "", " ")
		jb, _ := json.MarshalIndent(b, "", " ")
		t.Errorf("the replay differs from the run:\n%s\n---\n%s", ja, jb)
	}

	// The runtime file's cache: only, with a review the cache has not seen: a cache_miss.
	testkit.WriteFiles(t, dir, map[string]string{
		"data/reviews.jsonl":  reviews + `{"input": {"text": "new one"}, "expected": {"sentiment": "negative"}}` + "\n",
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 0\n    cache: only\n",
	})
	run(0, "miss.json")
	miss := readDoc(t, filepath.Join(dir, "miss.json"))
	last := miss["results"].([]any)[3].(map[string]any)
	if e, _ := last["error"].(map[string]any); last["status"] != "execution_error" || e["code"] != "cache_miss" {
		t.Errorf("a request the cache lacks: %v", last)
	}
	if got := miss["cache"]; !reflect.DeepEqual(got, map[string]any{"hits": 3.0, "misses": 1.0}) {
		t.Errorf("with a miss: cache %v", got)
	}
	// --cache off overrides the file: the stopped provider is asked, and fails (exit 3: the
	// setup, not the system, failed).
	run(3, "off.json", "--cache", "off")
	off := readDoc(t, filepath.Join(dir, "off.json"))
	if _, has := off["cache"]; has || off["results"].([]any)[0].(map[string]any)["error"].(map[string]any)["code"] != "provider_error" {
		t.Errorf("--cache off: cache %v, first result %v", off["cache"], off["results"].([]any)[0])
	}
	if code, _, stderr := runBenchy(t, "run", "--cache", "sometimes", bench); code != 2 || !strings.Contains(stderr, "--cache") {
		t.Errorf("--cache sometimes: exit %d\n%s", code, stderr)
	}
	if _, stderr, _ := runBenchy(t, "run", "-h"); !strings.Contains(stderr, "[--cache MODE]") || !strings.Contains(stderr, "-cache MODE\n") {
		t.Errorf("benchy run -h does not name --cache MODE:\n%s", stderr)
	}
}

// TestRunCacheNeedsWorkspace: a benchmark in no workspace has no store to keep a cache in.
func TestRunCacheNeedsWorkspace(t *testing.T) {
	var requests atomic.Int32
	srv := cacheProvider(t, &requests)
	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify.\n",
		"data/reviews.jsonl":   `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}` + "\n",
		"rt/other.yaml":        "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n",
	})
	code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "rt/other.yaml"), "--cache", "use", "--allow-outside", "-o", filepath.Join(dir, "r.json"), filepath.Join(dir, "benchmark.yaml"))
	if code == 0 || !strings.Contains(stderr, "no workspace") || requests.Load() != 0 {
		t.Errorf("exit %d after %d requests\n%s", code, requests.Load(), stderr)
	}
}

package cli_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// TestRunRecordRequests: a model run keeps the request sent for its first 20 examples by
// default, for every one with --record-requests and for none with --record-requests=false;
// what is kept is the request as sent, its base URL named, not quoted.
func TestRunRecordRequests(t *testing.T) {
	var requests atomic.Int32
	srv := cacheProvider(t, &requests)
	dir := t.TempDir()
	var reviews strings.Builder
	for i := range 25 {
		fmt.Fprintf(&reviews, `{"input": {"text": "review %d"}, "expected": {"sentiment": "negative"}}`+"\n", i)
	}
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl":   reviews.String(),
		"benchy.runtime.yaml":  "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 0\n",
	})
	for _, c := range []struct {
		flag string
		kept int
	}{{"", 20}, {"--record-requests", 25}, {"--record-requests=false", 0}} {
		args := []string{"run", "--concurrency", "4", "-o", filepath.Join(dir, "r.json")}
		if c.flag != "" {
			args = append(args, c.flag)
		}
		code, _, stderr := runBenchy(t, append(args, filepath.Join(dir, "benchmark.yaml"))...)
		if code != 0 {
			t.Fatalf("benchy run %s: exit %d\n%s", c.flag, code, stderr)
		}
		id, _ := readDoc(t, filepath.Join(dir, "r.json"))["run_id"].(string)
		st, err := store.Open(store.Path(dir))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 25 {
			d, found, err := st.Detail(id, i, store.ResultFilter{})
			if err != nil || !found {
				t.Fatalf("run %s example %d: %v, found %v", id, i, err, found)
			}
			if kept := d.Request != ""; kept != (i < c.kept) {
				t.Errorf("%q: example %d keeps its request: %v, want %v", c.flag, i, kept, i < c.kept)
			}
			if d.Request != "" && (!strings.HasPrefix(d.Request, "POST {base_url}/chat/completions\n") || strings.Contains(d.Request, srv.URL)) {
				t.Errorf("%q: example %d's request:\n%s", c.flag, i, d.Request)
			}
		}
		st.Close()
	}
}

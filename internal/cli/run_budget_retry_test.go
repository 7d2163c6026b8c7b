package cli_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// cutProvider is an OpenAI-compatible server whose every reply is cut mid-body: its status
// and headers (a 200 or a 500, and a Retry-After-Ms of 1, so that a retry does not wait out
// a backoff) and the first bytes of a Chat Completions body, then the connection closed.
// Such a reply may have been billed: the model ran. It counts the requests it received and
// checks, as each arrives, that the requests so far (each charged its bound B) are within
// limit, the run's budget in tokens.
type cutProvider struct {
	mu       sync.Mutex
	requests int
	bound    int // B, the tokens one request may cost; set before the run
	limit    int
	exceeded string
}

func (p *cutProvider) serve(t *testing.T, status int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.requests++
		if p.bound > 0 && p.requests*p.bound > p.limit && p.exceeded == "" {
			p.exceeded = fmt.Sprintf("request %d arrived: %d × %d tokens may have been billed, past the budget of %d", p.requests, p.requests, p.bound, p.limit)
		}
		p.mu.Unlock()
		const body = `{"choices":[{"message":{"role":"assistant","content":"{\"sentiment\":\"negative\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Header().Set("Retry-After-Ms", "1")
		w.WriteHeader(status)
		w.Write([]byte(body[:40]))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection is closed with the body unfinished
	}))
	t.Cleanup(srv.Close)
	return srv
}

var spentTokens = regexp.MustCompile(`spent (\d+) tokens`)

// TestBudgetChargesEveryAttempt: a provider whose replies are cut mid-body (a 200 or a 500
// with part of its body, then the connection closed) may have billed each of them, and
// max_retries: 5 retries each; every attempt reserves the request's bound before it goes,
// waiting or stopping for the budget like a new request, and is charged it. So the stub
// never receives more requests than the budget's worth of bounds, at any concurrency, and
// the run's recorded spend (the stop's "spent N tokens", each result's budget_tokens)
// counts every attempt. Before, a 2,500-token budget let 30 requests through and charged
// none of the failed ones.
func TestBudgetChargesEveryAttempt(t *testing.T) {
	for _, status := range []int{http.StatusOK, http.StatusInternalServerError} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			dir, _ := budgetWorkspace(t)
			in, out, _ := estimateBounds(t, dir)
			bound := in + out
			p := &cutProvider{bound: bound, limit: 5*bound + bound/2}
			srv := p.serve(t, status)
			testkit.WriteFiles(t, dir, map[string]string{"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 5\n"})
			res := filepath.Join(dir, "results.json")
			code, _, stderr := runBenchy(t, "run", "--concurrency", "3", "--max-tokens", strconv.Itoa(p.limit), "-o", res, filepath.Join(dir, "benchmark.yaml"))
			p.mu.Lock()
			requests, exceeded := p.requests, p.exceeded
			p.mu.Unlock()
			t.Logf("%d requests, each of %d tokens at most, under a budget of %d:\n%s", requests, bound, p.limit, stderr)
			if exceeded != "" {
				t.Errorf("%s\n%s", exceeded, stderr)
			}
			if code != 4 || requests == 0 || requests > 5 {
				t.Fatalf("exit %d after %d requests; want 4 after at most 5 (the budget holds %d bounds of %d)\n%s", code, requests, p.limit/bound, bound, stderr)
			}
			m := spentTokens.FindStringSubmatch(stderr)
			if m == nil || m[1] != strconv.Itoa(requests*bound) {
				t.Errorf("the stop says %q spent; want %d tokens, %d attempts of %d\n%s", m, requests*bound, requests, bound, stderr)
			}
			doc := readDoc(t, res)
			charged := 0
			for _, r := range doc["results"].([]any) {
				r := r.(map[string]any)
				if u, ok := r["usage"].(map[string]any); ok {
					if n, ok := u["budget_tokens"].(float64); ok {
						charged += int(n)
					}
				}
				if r["status"] != "execution_error" {
					t.Errorf("result %v: want an execution error", r["index"])
				}
			}
			if charged != requests*bound {
				t.Errorf("the results charge %d tokens; want every attempt's bound, %d × %d", charged, requests, bound)
			}
			if _, err := os.Stat(res); err != nil {
				t.Error(err)
			}
		})
	}
}

package cli_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// budgetWorkspace is the sentiment benchmark of ten reviews of one length (so that every
// request has the same bound), its output capped at 10 tokens, against cacheProvider (12
// prompt and 4 completion tokens a reply), priced.
func budgetWorkspace(t *testing.T) (dir string, requests *atomic.Int32) {
	requests = new(atomic.Int32)
	srv := cacheProvider(t, requests)
	dir = t.TempDir()
	var rows []string
	for i := range 10 {
		rows = append(rows, fmt.Sprintf(`{"input": {"text": "review %d"}, "expected": {"sentiment": "negative"}}`, i))
	}
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       strings.Replace(sentimentModel, "parameters: {temperature: 0}", "parameters: {temperature: 0, max_tokens: 10}", 1),
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl":   strings.Join(rows, "\n") + "\n",
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n    max_retries: 0\n" +
			"    prices:\n      tiny: {input_per_mtok: 1000, output_per_mtok: 2500}\n",
	})
	return dir, requests
}

var estimateLine = regexp.MustCompile(`input tokens: (\d+) expected, at most (\d+)\noutput tokens: at most (\d+)\n`)

// estimateBounds runs benchy run --estimate on the workspace and returns the input and
// output bounds of one request.
func estimateBounds(t *testing.T, dir string, args ...string) (in, out int, stdout string) {
	t.Helper()
	code, stdout, stderr := runBenchy(t, append(append([]string{"run", "--estimate"}, args...), filepath.Join(dir, "benchmark.yaml"))...)
	if code != 0 {
		t.Fatalf("benchy run --estimate: exit %d\n%s", code, stderr)
	}
	m := estimateLine.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no token lines in the estimate:\n%s", stdout)
	}
	inAll, _ := strconv.Atoi(m[2])
	outAll, _ := strconv.Atoi(m[3])
	return inAll / 10, outAll / 10, stdout
}

// TestRunEstimate: --estimate renders every request and sends none, prints the requests,
// the expected input tokens, the output-token bound (max_tokens per request) and the cost
// range at the model's prices, stores no run, honours --limit, and with --cache use says
// how many requests the cache already answers.
func TestRunEstimate(t *testing.T) {
	dir, requests := budgetWorkspace(t)
	in, out, stdout := estimateBounds(t, dir)
	if requests.Load() != 0 {
		t.Fatalf("--estimate sent %d requests", requests.Load())
	}
	m := estimateLine.FindStringSubmatch(stdout)
	expected, _ := strconv.Atoi(m[1])
	if out != 10 || in < 100 || expected <= 0 || expected >= 10*in {
		t.Errorf("per request: input bound %d, output bound %d, expected %d in all:\n%s", in, out, expected, stdout)
	}
	low, high := float64(expected)*1000/1e6, float64(10*in)*1000/1e6+float64(100)*2500/1e6
	if want := fmt.Sprintf("cost: $%.4f – $%.4f at the prices of tiny\n", low, high); !strings.Contains(stdout, "10 requests, none sent") || !strings.Contains(stdout, want) {
		t.Errorf("estimate lacks %q or the count:\n%s", want, stdout)
	}
	if st, err := store.Open(filepath.Join(dir, ".benchy", "benchy.db")); err == nil {
		runs, _ := st.ListRuns(store.Filter{}, 10)
		st.Close()
		if len(runs) != 0 {
			t.Errorf("--estimate stored %d runs", len(runs))
		}
	}
	_, _, limited := estimateBounds(t, dir, "--limit", "3")
	if !strings.Contains(limited, "3 requests, none sent") {
		t.Errorf("--limit 3:\n%s", limited)
	}
	// Three replies kept in the cache: the estimate counts them apart.
	if code, _, stderr := runBenchy(t, "run", "--cache", "use", "--limit", "3", "-o", filepath.Join(dir, "r.json"), filepath.Join(dir, "benchmark.yaml")); code != 0 {
		t.Fatalf("run: %d\n%s", code, stderr)
	}
	_, _, cached := estimateBounds(t, dir, "--cache", "use")
	if !strings.Contains(cached, "response cache: answers 3 of them") || requests.Load() != 3 {
		t.Errorf("with the cache (%d requests sent):\n%s", requests.Load(), cached)
	}
}

var resumeLine = regexp.MustCompile(`resume with a larger budget: benchy run --resume (\S+) `)

// TestRunBudget: --max-tokens and --max-cost stop the run before a request could pass
// the budget: exit 4, the examples done written (results.json and its stream, the report
// saying why), the run stored cancelled with reason budget, and the line saying how to
// resume; resumed with a larger budget it evaluates only the rest (counted at the stub)
// and completes. The stop is where the rule puts it: the first example whose bound does
// not fit beside what those before it spent (16 tokens, $0.022 a reply).
func TestRunBudget(t *testing.T) {
	for _, tc := range []struct {
		name string
		flag func(in, out int) []string
		done int
		line string
	}{
		{"tokens", func(in, out int) []string {
			return []string{"--max-tokens", strconv.Itoa(in + out + 16*5 - 1)}
		}, 5, "tokens would be exceeded by the next request; 5 of 10 examples done\n"},
		{"cost", func(in, out int) []string {
			bound := float64(in)*1000/1e6 + float64(out)*2500/1e6
			return []string{"--max-cost", strconv.FormatFloat(bound+0.022*3+0.001, 'f', -1, 64)}
		}, 4, "would be exceeded by the next request; 4 of 10 examples done\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, requests := budgetWorkspace(t)
			in, out, _ := estimateBounds(t, dir)
			res := filepath.Join(dir, "results.json")
			bench := filepath.Join(dir, "benchmark.yaml")
			code, _, stderr := runBenchy(t, append(append([]string{"run", "--concurrency", "4", "-o", res}, tc.flag(in, out)...), bench)...)
			if code != 4 || !strings.Contains(stderr, "stopped: the budget of ") || !strings.Contains(stderr, tc.line) {
				t.Fatalf("exit %d, want 4 with %q:\n%s", code, tc.line, stderr)
			}
			if int(requests.Load()) != tc.done {
				t.Errorf("%d requests sent, want %d", requests.Load(), tc.done)
			}
			doc := readDoc(t, res)
			results := doc["results"].([]any)
			stopped, _ := doc["stopped"].(map[string]any)
			if len(results) != tc.done || stopped["reason"] != "budget" || stopped["done"] != float64(tc.done) {
				t.Errorf("results.json: %d results, stopped %v", len(results), doc["stopped"])
			}
			for i, r := range results {
				if r.(map[string]any)["index"] != float64(i) {
					t.Fatalf("result %d is not example %d: not a prefix", i, i)
				}
			}
			m := resumeLine.FindStringSubmatch(stderr)
			if m == nil {
				t.Fatalf("no resume line:\n%s", stderr)
			}
			if !strings.Contains(stderr, " -o "+res+" "+bench+"\n") {
				t.Errorf("the resume line does not repeat -o, which the run was given:\n%s", stderr)
			}
			st, err := store.Open(filepath.Join(dir, ".benchy", "benchy.db"))
			if err != nil {
				t.Fatal(err)
			}
			run, err := st.GetRun(m[1])
			st.Close()
			if err != nil || run.Status != store.Cancelled || run.Reason != "budget" {
				t.Fatalf("stored run %s: %s, reason %q, %v", m[1], run.Status, run.Reason, err)
			}

			// The same budget again: the reused results spent it, nothing is sent.
			code, _, stderr = runBenchy(t, append(append([]string{"run", "--resume", m[1], "-o", res}, tc.flag(in, out)...), bench)...)
			if code != 4 || int(requests.Load()) != tc.done {
				t.Fatalf("resumed with the same budget: exit %d, %d requests\n%s", code, requests.Load(), stderr)
			}
			// No budget given: the stored one holds (the run keeps it), so nothing is sent; a
			// smaller one is refused, as the server refuses it.
			code, _, stderr = runBenchy(t, "run", "--resume", m[1], "-o", res, bench)
			if code != 4 || int(requests.Load()) != tc.done {
				t.Fatalf("resumed with no budget given: exit %d, %d requests, want the stored budget kept\n%s", code, requests.Load(), stderr)
			}
			smaller := tc.flag(in, out)
			smaller[1] = smaller[1][:len(smaller[1])-1] // one digit fewer: a tenth or so
			code, _, stderr = runBenchy(t, append(append([]string{"run", "--resume", m[1], "-o", res}, smaller...), bench)...)
			if code != 1 || !strings.Contains(stderr, "a resume only raises a budget") || int(requests.Load()) != tc.done {
				t.Fatalf("resumed with a smaller budget %v: exit %d, %d requests\n%s", smaller, code, requests.Load(), stderr)
			}
			code, _, stderr = runBenchy(t, "run", "--resume", m[1], "--max-tokens", "1000000", "--max-cost", "100", "-o", res, bench)
			if code != 0 {
				t.Fatalf("resumed with a larger budget: exit %d\n%s", code, stderr)
			}
			if requests.Load() != 10 {
				t.Errorf("the resume sent %d requests in all, want 10: the %d done were repeated", requests.Load(), tc.done)
			}
			doc = readDoc(t, res)
			if n := len(doc["results"].([]any)); n != 10 || doc["stopped"] != nil {
				t.Errorf("resumed results.json: %d results, stopped %v", n, doc["stopped"])
			}
			if u := doc["usage"].(map[string]any); math.Abs(u["cost_usd"].(float64)-10*0.022) > 1e-9 {
				t.Errorf("the completed run's cost %v, want 10 replies'", u["cost_usd"])
			}
			st, _ = store.Open(filepath.Join(dir, ".benchy", "benchy.db"))
			run, _ = st.GetRun(m[1])
			st.Close()
			if run.Status != store.Completed || run.Reason != "" || run.Done != 10 {
				t.Errorf("stored run after the resume: %s, reason %q, %d done", run.Status, run.Reason, run.Done)
			}
		})
	}
}

// TestRunBudgetSetup: a budget a system cannot keep is refused before any request: a cost
// budget for a model without prices.
func TestRunBudgetSetup(t *testing.T) {
	dir, requests := budgetWorkspace(t)
	runtime, err := os.ReadFile(filepath.Join(dir, "benchy.runtime.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, dir, map[string]string{"unpriced.yaml": strings.Split(string(runtime), "    prices:")[0]})
	code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "unpriced.yaml"), "--max-cost", "1", "-o", filepath.Join(dir, "r.json"), filepath.Join(dir, "benchmark.yaml"))
	if code != 1 || requests.Load() != 0 || !strings.Contains(stderr, "needs the model's prices") {
		t.Errorf("unpriced --max-cost: exit %d, %d requests\n%s", code, requests.Load(), stderr)
	}
	code, stdout, _ := runBenchy(t, "run", "--runtime", filepath.Join(dir, "unpriced.yaml"), "--estimate", filepath.Join(dir, "benchmark.yaml"))
	if code != 0 || !strings.Contains(stdout, "cost: no prices for tiny") {
		t.Errorf("unpriced --estimate: exit %d\n%s", code, stdout)
	}
}

// TestRunEstimateNeedsNoKey: --estimate sends nothing, so it runs without the provider's
// key, which a run still needs.
func TestRunEstimateNeedsNoKey(t *testing.T) {
	dir, requests := budgetWorkspace(t)
	runtime, err := os.ReadFile(filepath.Join(dir, "benchy.runtime.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const env = "BENCHY_TEST_ESTIMATE_KEY"
	t.Setenv(env, "")
	keyed := strings.Replace(string(runtime), "    max_retries: 0\n", "    max_retries: 0\n    api_key_env: "+env+"\n", 1)
	testkit.WriteFiles(t, dir, map[string]string{"keyed.yaml": keyed})
	code, stdout, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "keyed.yaml"), "--estimate", filepath.Join(dir, "benchmark.yaml"))
	if code != 0 || !strings.Contains(stdout, "10 requests, none sent") || requests.Load() != 0 {
		t.Errorf("--estimate without the key: exit %d, %d requests\n%s%s", code, requests.Load(), stdout, stderr)
	}
	code, _, stderr = runBenchy(t, "run", "--runtime", filepath.Join(dir, "keyed.yaml"), "-o", filepath.Join(dir, "r.json"), filepath.Join(dir, "benchmark.yaml"))
	if code == 0 || !strings.Contains(stderr, env+" that holds its key is not set") || requests.Load() != 0 {
		t.Errorf("a run without the key: exit %d, %d requests\n%s", code, requests.Load(), stderr)
	}
}

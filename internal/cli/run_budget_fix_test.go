package cli_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// TestRunBudgetRefusedUnrecorded: a budget the AI-system cannot keep is refused before
// any request and before the run is recorded: a cost budget for a model without prices,
// and any budget for OpenAI requests without max_completion_tokens or max_tokens, whose
// replies have no bound.
func TestRunBudgetRefusedUnrecorded(t *testing.T) {
	dir, requests := budgetWorkspace(t)
	runtime, err := os.ReadFile(filepath.Join(dir, "benchy.runtime.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bench, _ := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	testkit.WriteFiles(t, dir, map[string]string{
		"unpriced.yaml":  strings.Split(string(runtime), "    prices:")[0],
		"unbounded.yaml": strings.Replace(string(bench), "max_tokens: 10", "seed: 1", 1),
	})
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"unpriced --max-cost", []string{"--runtime", filepath.Join(dir, "unpriced.yaml"), "--max-cost", "1", filepath.Join(dir, "benchmark.yaml")}, "needs the model's prices"},
		{"unbounded --max-tokens", []string{"--max-tokens", "100000", filepath.Join(dir, "unbounded.yaml")},
			"a budget needs each reply bounded: set max_completion_tokens (or max_tokens) in ai-system.parameters"},
		{"unbounded --max-cost", []string{"--max-cost", "10", filepath.Join(dir, "unbounded.yaml")}, "a budget needs each reply bounded"},
	} {
		code, _, stderr := runBenchy(t, append([]string{"run", "-o", filepath.Join(dir, "r.json")}, c.args...)...)
		if code != 1 || requests.Load() != 0 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "budget_unusable: ") {
			t.Errorf("%s: exit %d, %d requests, want 1 and budget_unusable: %q\n%s", c.name, code, requests.Load(), c.want, stderr)
		}
		if n := len(storedRuns(t, dir)); n != 0 {
			t.Errorf("%s: %d runs stored, want none", c.name, n)
		}
	}
}

// TestRunBudgetNoUsage: against a provider that leaves usage out of its replies, a budget
// still stops the run: each reply is charged its bound (no tokens are reported, so the
// run would otherwise spend without limit).
func TestRunBudgetNoUsage(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"{\"sentiment\":\"negative\"}"},"finish_reason":"stop"}]}`)
	}))
	t.Cleanup(srv.Close)
	dir, _ := budgetWorkspace(t)
	runtime, _ := os.ReadFile(filepath.Join(dir, "benchy.runtime.yaml"))
	rt := regexp.MustCompile(`base_url: \S+`).ReplaceAllString(string(runtime), "base_url: "+srv.URL+"/v1")
	testkit.WriteFiles(t, dir, map[string]string{"benchy.runtime.yaml": rt})
	in, out, _ := estimateBounds(t, dir)
	code, _, stderr := runBenchy(t, "run", "--concurrency", "1", "--max-tokens", fmt.Sprint(3*(in+out)+1), "-o", filepath.Join(dir, "r.json"), filepath.Join(dir, "benchmark.yaml"))
	if code != 4 || requests.Load() != 3 || !strings.Contains(stderr, "3 of 10 examples done") {
		t.Fatalf("exit %d, %d requests; want 4 after 3 requests charged their bound\n%s", code, requests.Load(), stderr)
	}
	doc := readDoc(t, filepath.Join(dir, "r.json"))
	u := doc["results"].([]any)[0].(map[string]any)["usage"].(map[string]any)
	if u["unreported"] != true || u["budget_tokens"] != float64(in+out) || u["cost_usd"] != nil {
		t.Errorf("a result's usage %v: want unreported, charged %d tokens, no cost", u, in+out)
	}
}

// TestRunBudgetHint: after a budget stop the hint says what was spent and what the next
// request may cost, and suggests a budget that admits it with room; a request larger than
// the whole budget is said to be, with max_tokens to set. The suggested budget resumes.
func TestRunBudgetHint(t *testing.T) {
	dir, requests := budgetWorkspace(t)
	in, out, _ := estimateBounds(t, dir)
	bound := float64(in)*1000/1e6 + float64(out)*2500/1e6
	res, bench := filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml")
	code, _, stderr := runBenchy(t, "run", "--max-cost", "0.0003", "-o", res, bench)
	if code != 4 || requests.Load() != 0 {
		t.Fatalf("exit %d, %d requests\n%s", code, requests.Load(), stderr)
	}
	if want := fmt.Sprintf("spent $0.0000; the next request may cost up to $%.4f", bound); !strings.Contains(stderr, want) {
		t.Errorf("no %q:\n%s", want, stderr)
	}
	if !strings.Contains(stderr, "the next request alone may cost more than the whole budget") {
		t.Errorf("no word that one request passes the budget:\n%s", stderr)
	}
	m := resumeLine.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no resume line:\n%s", stderr)
	}
	t.Logf("the hint:\n%s", stderr)
	line := stderr[strings.Index(stderr, "resume with a larger budget: "):]
	line = strings.TrimSpace(strings.SplitN(line, "\n", 2)[0])
	args := strings.Fields(strings.TrimPrefix(line, "resume with a larger budget: benchy "))
	code, _, stderr = runBenchy(t, args...)
	if requests.Load() < 1 {
		t.Errorf("the suggested budget (%s) admits no request: exit %d\n%s", line, code, stderr)
	}
}

// TestRunResumeKilled: a benchy run killed with -9 leaves its run running in the store;
// benchy run --resume marks it interrupted (its process is gone) and goes on with it. While
// the run's process lives, the resume is refused, naming the process.
func TestRunResumeKilled(t *testing.T) {
	const n = 12
	dir := slowWorkspace(t, n, 150*time.Millisecond)
	res, bench := filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml")
	cli := exec.Command("benchy", "run", "--concurrency", "1", "-o", res, bench)
	if err := cli.Start(); err != nil {
		t.Fatal(err)
	}
	defer cli.Process.Kill()
	for deadline := time.Now().Add(10 * time.Second); calls(dir) < 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the CLI run did not start")
		}
	}
	st, err := store.Open(store.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := st.ListRuns(store.Filter{}, 10)
	st.Close()
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	id := runs[0].ID
	code, _, stderr := runBenchy(t, "run", "--resume", id, "-o", res, bench)
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("process %d", cli.Process.Pid)) || !strings.Contains(stderr, "runs show") {
		t.Errorf("resuming the live run: exit %d, want 1 naming process %d\n%s", code, cli.Process.Pid, stderr)
	}
	cli.Process.Signal(syscall.SIGKILL)
	cli.Wait()
	before := calls(dir)
	code, _, stderr = runBenchy(t, "run", "--resume", id, "-o", res, bench)
	if code != 0 {
		t.Fatalf("resuming the killed run: exit %d\n%s", code, stderr)
	}
	doc := readDoc(t, res)
	if got := len(doc["results"].([]any)); got != n {
		t.Errorf("%d results, want %d", got, n)
	}
	if again := calls(dir) - before; again >= n {
		t.Errorf("the resume made %d calls: the done examples were repeated", again)
	}
	st, _ = store.Open(store.Path(dir))
	run, _ := st.GetRun(id)
	st.Close()
	if run.Status != store.Completed || run.Done != n {
		t.Errorf("stored run: %s, %d done", run.Status, run.Done)
	}
}

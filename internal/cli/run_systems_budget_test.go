package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var systemResumeLine = regexp.MustCompile(`(?m)^(local/\w+): resume with a larger budget: benchy (run --resume \S+ .*)$`)

// TestRunSystemsBudget: --max-tokens with --model takes each model's run its own budget:
// each stops where the rule puts it (2 of 10 examples here), writes its document (its
// run_id, its stop) and says how to resume it, with the system flag and the file it
// wrote; the invocation exits 4. The line resumes that run alone, which completes. A
// budget a system cannot keep (a cost budget for a model without prices) is refused
// before any request, and --resume with two systems is a usage error. --estimate with
// --model estimates each model's requests, none sent.
func TestRunSystemsBudget(t *testing.T) {
	dir, requests := budgetWorkspace(t)
	in, out, _ := estimateBounds(t, dir)
	bench := filepath.Join(dir, "benchmark.yaml")
	outs := filepath.Join(dir, "r-{system}.json")
	budget := strconv.Itoa(in + out + 16*2 - 1)
	code, _, stderr := runBenchy(t, "run", "--concurrency", "2", "--model", "local/tiny", "--model", "local/mini", "--max-tokens", budget, "-o", outs, bench)
	if code != 4 || requests.Load() != 4 {
		t.Fatalf("exit %d after %d requests; want 4 after 2 requests of each model\n%s", code, requests.Load(), stderr)
	}
	if !strings.Contains(stderr, "not ranked: local/tiny, local/mini (stopped before the last example; resume to rank)") {
		t.Errorf("the board does not say the runs its budget stopped are not ranked:\n%s", stderr)
	}
	lines := systemResumeLine.FindAllStringSubmatch(stderr, -1)
	if len(lines) != 2 {
		t.Fatalf("%d resume lines, want one per model:\n%s", len(lines), stderr)
	}
	runs := storedRuns(t, dir)
	for _, label := range []string{"local/tiny", "local/mini"} {
		doc := readDoc(t, filepath.Join(dir, "r-local_"+strings.TrimPrefix(label, "local/")+".json"))
		stopped, _ := doc["stopped"].(map[string]any)
		if n := len(doc["results"].([]any)); n != 2 || stopped["reason"] != "budget" || doc["run_id"] != runs[label].ID {
			t.Errorf("%s: %d results, stopped %v, run_id %v (stored %s)", label, n, doc["stopped"], doc["run_id"], runs[label].ID)
		}
		if runs[label].Status != "cancelled" || runs[label].Reason != "budget" || runs[label].Options.MaxTokens == 0 {
			t.Errorf("%s stored %s, reason %q, options %+v", label, runs[label].Status, runs[label].Reason, runs[label].Options)
		}
	}
	t.Logf("the hints:\n%s", stderr)

	// The line resumes its run alone, with a larger budget: it completes.
	resume := lines[0]
	args := strings.Fields(resume[2])
	code, _, stderr = runBenchy(t, args...)
	if code != 0 || requests.Load() != 4+8 {
		t.Fatalf("resuming %s: exit %d, %d requests in all; want 0 after its 8 others\n%s", resume[1], code, requests.Load(), stderr)
	}
	if run := storedRuns(t, dir)[resume[1]]; run.Status != "completed" || run.Done != 10 {
		t.Errorf("%s after its resume: %s, %d done", resume[1], run.Status, run.Done)
	}

	// Without the system flag its run was of, the refusal names the flag to add, not "another
	// version of the benchmark".
	other := "local/tiny"
	if resume[1] == "local/tiny" {
		other = "local/mini"
	}
	code, _, stderr = runBenchy(t, "run", "--resume", runs[other].ID, "--max-tokens", "100000", "-o", outs, bench)
	if code != 1 || !strings.Contains(stderr, "was of the AI-system "+other) || !strings.Contains(stderr, "resume it with --model "+other) {
		t.Errorf("--resume of the %s run without --model: exit %d, want 1 naming --model %s\n%s", other, code, other, stderr)
	}

	code, _, stderr = runBenchy(t, "run", "--resume", runs["local/tiny"].ID, "--model", "local/tiny", "--model", "local/mini", "--max-tokens", "100000", "-o", outs, bench)
	if code != 2 || !strings.Contains(stderr, "--resume goes on with one stored run") {
		t.Errorf("--resume with two systems: exit %d\n%s", code, stderr)
	}

	before := requests.Load()
	code, _, stderr = runBenchy(t, "run", "--model", "local/tiny", "--model", "local/mini", "--max-cost", "1", "-o", outs, bench)
	if code != 1 || requests.Load() != before || !strings.Contains(stderr, "local/mini: ") || !strings.Contains(stderr, "needs the model's prices") {
		t.Errorf("--max-cost with a model without prices: exit %d, %d requests\n%s", code, requests.Load()-before, stderr)
	}
	if n := len(storedRuns(t, dir)); n != 2 {
		t.Errorf("%d runs stored, want the 2 of before", n)
	}

	code, stdout, stderr := runBenchy(t, "run", "--estimate", "--model", "local/tiny", "--model", "local/mini", bench)
	if code != 0 || requests.Load() != before || strings.Count(stdout, "10 requests, none sent") != 2 ||
		!strings.Contains(stdout, "estimate for local/tiny") || !strings.Contains(stdout, "estimate for local/mini") {
		t.Errorf("--estimate with two models: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "r-local_mini.json")); err != nil {
		t.Error(err)
	}
}

package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunsShowExample: benchy runs show --example N prints one stored example as the web
// app's example view reads it, with the request it sent to the model (kept for the first
// 20 by default), and says so when the run has no such example.
func TestRunsShowExample(t *testing.T) {
	dir, _ := budgetWorkspace(t)
	res := filepath.Join(dir, "results.json")
	if code, _, stderr := runBenchy(t, "run", "-o", res, filepath.Join(dir, "benchmark.yaml")); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	id := readDoc(t, res)["run_id"].(string)
	code, stdout, stderr := runBenchy(t, "runs", "show", "--workspace", dir, "--example", "3", id)
	var ex struct {
		Index   int             `json:"index"`
		Status  string          `json:"status"`
		Input   json.RawMessage `json:"input"`
		Request string          `json:"request"`
	}
	if err := json.Unmarshal([]byte(stdout), &ex); code != 0 || err != nil || ex.Index != 3 || ex.Status != "valid" ||
		!strings.Contains(string(ex.Input), "review 3") || !strings.HasPrefix(ex.Request, "POST {base_url}/chat/completions\n") || !strings.Contains(ex.Request, "review 3") {
		t.Errorf("runs show --example 3: exit %d, %v, %+v\n%s%s", code, err, ex, stdout, stderr)
	}
	if code, _, stderr := runBenchy(t, "runs", "show", "--workspace", dir, "--example", "10", id); code != 1 || !strings.Contains(stderr, "has no result for example 10") {
		t.Errorf("an example past the run: exit %d\n%s", code, stderr)
	}
	if code, stdout, stderr := runBenchy(t, "runs", "show", "--workspace", dir, "--example", "-1", id); code != 2 || stdout != "" || !strings.Contains(stderr, "--example takes an example's index") {
		t.Errorf("--example -1: exit %d, it printed %d bytes\n%s", code, len(stdout), stderr)
	}
}

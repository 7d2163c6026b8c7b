package cli_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/benchy-eval/benchy/store"
)

// TestBudgetStoppedDocumentHasRunID: the result document of a run its budget stopped
// carries the run's id, as a completed run's does, so that a CI job finds the stored run
// (benchy runs show, --resume) from results.json whatever way the run ended; the resumed
// run's document carries the same id.
func TestBudgetStoppedDocumentHasRunID(t *testing.T) {
	dir, _ := budgetWorkspace(t)
	in, out, _ := estimateBounds(t, dir)
	res, bench := filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml")
	code, _, stderr := runBenchy(t, "run", "--concurrency", "1", "--max-tokens", strconv.Itoa(in+out+16*2-1), "-o", res, bench)
	if code != 4 {
		t.Fatalf("exit %d, want 4\n%s", code, stderr)
	}
	m := resumeLine.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no resume line:\n%s", stderr)
	}
	st, err := store.Open(filepath.Join(dir, ".benchy", "benchy.db"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := st.GetRun(m[1])
	st.Close()
	if err != nil || run.Status != store.Cancelled {
		t.Fatalf("stored run %s: %s, %v", m[1], run.Status, err)
	}
	doc := readDoc(t, res)
	if doc["run_id"] != run.ID {
		t.Errorf("the budget-stopped run's results.json has run_id %v, want %s", doc["run_id"], run.ID)
	}
	code, _, stderr = runBenchy(t, "run", "--resume", run.ID, "--max-tokens", "1000000", "-o", res, bench)
	if code != 0 {
		t.Fatalf("resumed: exit %d\n%s", code, stderr)
	}
	if doc := readDoc(t, res); doc["run_id"] != run.ID {
		t.Errorf("the resumed run's results.json has run_id %v, want %s", doc["run_id"], run.ID)
	}
}

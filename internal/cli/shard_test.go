package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withoutMergeFields is a result document less the fields a merge documents as its own:
// started_at, finished_at, concurrency and shards.
func withoutMergeFields(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"started_at", "finished_at", "concurrency", "shards", "run_id"} {
		delete(doc, k)
	}
	out, _ := json.Marshal(doc) // keys sorted, values byte for byte as written
	return out
}

// TestShardsMerge: the invoice example run as 4 shards through the real binary's entry
// and its command adapter merges into the single-machine run's document, byte for byte but
// for the documented fields; a missing shard is named with its command; a torn journal is
// continued; the merge into a store is a run the leaderboard and runs show see.
func TestShardsMerge(t *testing.T) {
	dir := invoiceRun(t)
	bench := filepath.Join(dir, "benchmark.yaml")
	rt := filepath.Join(dir, "benchy.runtime.yaml")
	single := filepath.Join(dir, "single.json")
	if code, _, stderr := runBenchy(t, "run", "--runtime", rt, "--no-store", "-o", single, bench); code != 0 {
		t.Fatalf("single run: exit %d\n%s", code, stderr)
	}
	out := filepath.Join(dir, "shards")
	for _, k := range []string{"0/4", "1/4", "3/4"} {
		if code, _, stderr := runBenchy(t, "run", "--runtime", rt, "--shard", k, "--out-dir", out, bench); code != 0 {
			t.Fatalf("shard %s: exit %d\n%s", k, code, stderr)
		}
	}
	merged := filepath.Join(dir, "merged.json")
	code, _, stderr := runBenchy(t, "merge", "-o", merged, "--benchmark", bench, out)
	if code != 1 || !strings.Contains(stderr, "shard 2/4 missing") || !strings.Contains(stderr, "--shard 2/4 --out-dir "+out) {
		t.Fatalf("merge with shard 2 missing: exit %d\n%s", code, stderr)
	}
	// Shard 1's journal torn mid-line, its manifest incomplete: run again, it goes on.
	j1 := filepath.Join(out, "shard-1-of-4", "results.jsonl")
	data, _ := os.ReadFile(j1)
	lines := bytes.SplitAfter(data, []byte("\n"))
	os.WriteFile(j1, append(append([]byte{}, lines[0]...), lines[1][:len(lines[1])/2]...), 0o644)
	if code, _, stderr := runBenchy(t, "run", "--runtime", rt, "--shard", "1/4", "--out-dir", out, bench); code != 0 || !strings.Contains(stderr, "1 result kept, a torn last line") {
		t.Fatalf("shard 1 again: exit %d\n%s", code, stderr)
	}
	if again, _ := os.ReadFile(j1); !bytes.Equal(again, data) {
		t.Errorf("continued journal:\n%s\nwant\n%s", again, data)
	}
	if code, _, stderr := runBenchy(t, "run", "--runtime", rt, "--shard", "2/4", "--out-dir", out, bench); code != 0 {
		t.Fatalf("shard 2: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runBenchy(t, "merge", "-o", merged, "--benchmark", bench, "--into-store", dir, out); code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, stderr)
	}
	if a, b := withoutMergeFields(t, single), withoutMergeFields(t, merged); !bytes.Equal(a, b) {
		t.Errorf("merged document differs from the single run's:\n%s\n%s", b, a)
	}
	code, board, stderr := runBenchy(t, "leaderboard", bench)
	if code != 0 || !strings.Contains(board, "invoice-extractor-v7") || !strings.Contains(board, "0.4333") {
		t.Errorf("leaderboard: exit %d\n%s%s", code, board, stderr)
	}
	var doc struct {
		RunID string `json:"run_id"`
	}
	m, _ := os.ReadFile(merged)
	json.Unmarshal(m, &doc)
	code, show, stderr := runBenchy(t, "runs", "show", "--workspace", dir, doc.RunID)
	if code != 0 || !strings.Contains(show, "completed") {
		t.Errorf("runs show %s: exit %d\n%s%s", doc.RunID, code, show, stderr)
	}
}

// TestShardBadDataset: a bad row anywhere aborts every shard before any AI-system call,
// and leaves no manifest to merge.
func TestShardBadDataset(t *testing.T) {
	dir := invoiceRun(t)
	rows := filepath.Join(dir, "data", "invoices.jsonl")
	data, err := os.ReadFile(rows)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(rows, append(data, []byte("{\"input\": 1}\n")...), 0o644)
	// The adapter's every start is logged: a bad dataset starts none, so it is called by none.
	os.WriteFile(filepath.Join(dir, "benchy.runtime.yaml"), []byte(`bindings:
  invoice-extractor-v7:
    command: [sh, -c, "echo start >> starts.log; exec ./invoice-adapter"]
    timeout: 10s
`), 0o644)
	out := filepath.Join(dir, "shards")
	for _, k := range []string{"0/2", "1/2"} {
		code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "--shard", k, "--out-dir", out, filepath.Join(dir, "benchmark.yaml"))
		if code != 1 {
			t.Errorf("shard %s of a bad dataset: exit %d\n%s", k, code, stderr)
		}
		if _, err := os.Stat(filepath.Join(out, "shard-"+strings.Replace(k, "/", "-of-", 1), "manifest.json")); err == nil {
			t.Errorf("shard %s wrote a manifest", k)
		}
	}
	if starts, err := os.ReadFile(filepath.Join(dir, "starts.log")); !os.IsNotExist(err) {
		t.Errorf("a bad dataset started the adapter: %q, %v", starts, err)
	}
	// The same workspace with the dataset repaired starts it: the log would have shown it.
	os.WriteFile(rows, data, 0o644)
	if code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "--shard", "0/2", "--out-dir", out, filepath.Join(dir, "benchmark.yaml")); code != 0 {
		t.Fatalf("shard 0/2 of the repaired dataset: exit %d\n%s", code, stderr)
	}
	if starts, _ := os.ReadFile(filepath.Join(dir, "starts.log")); len(starts) == 0 {
		t.Errorf("the adapter's starts are not logged: the check above proves nothing")
	}
}

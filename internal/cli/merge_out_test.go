package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeOutRefused: benchy merge -o refuses, before any work, what writing it would
// destroy: /dev/null (renamed over, the machine's /dev/null became a regular file), a
// folder, a shard's own journal; the shards stay as they were.
func TestMergeOutRefused(t *testing.T) {
	dir := invoiceRun(t)
	out := filepath.Join(dir, "shards")
	if code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "--shard", "0/1", "--out-dir", out, filepath.Join(dir, "benchmark.yaml")); code != 0 {
		t.Fatalf("shard: exit %d\n%s", code, stderr)
	}
	journal := filepath.Join(out, "shard-0-of-1", "results.jsonl")
	before, _ := os.ReadFile(journal)
	for _, o := range []string{os.DevNull, dir, journal, filepath.Join(dir, "nosuch", "r.json")} {
		code, _, stderr := runBenchy(t, "merge", out, "-o", o, "--benchmark", filepath.Join(dir, "benchmark.yaml"))
		if code != 2 || !strings.Contains(stderr, "benchy merge: -o ") {
			t.Errorf("-o %s: exit %d\n%s", o, code, stderr)
		}
	}
	if info, err := os.Stat(os.DevNull); err != nil || info.Mode().IsRegular() {
		t.Fatalf("%s is no longer a device: %v", os.DevNull, err)
	}
	if after, _ := os.ReadFile(journal); string(after) != string(before) {
		t.Errorf("the journal changed")
	}
	if code, _, stderr := runBenchy(t, "merge", out, "-o", filepath.Join(dir, "merged.json"), "--benchmark", filepath.Join(dir, "benchmark.yaml")); code != 0 {
		t.Errorf("a good -o: exit %d\n%s", code, stderr)
	}
}

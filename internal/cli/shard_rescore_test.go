package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardRunRescoresKeptLines: a shard run again over its journal keeps its lines only
// when each scores again from its prediction as the merge scores it: a wrong answer edited
// to score 1 refuses the run, naming the journal and the line (it kept it, "5 results
// kept", and the forged score went on into the merge), and leaves the journal as it was.
func TestShardRunRescoresKeptLines(t *testing.T) {
	dir := invoiceRun(t)
	bench, out := invoiceShards(t, dir, "2", "0")
	editLine(t, out, 0, 2, 4, func(l string) string { return strings.Replace(l, allWrongScores, allRightScores, 1) })
	journal := filepath.Join(out, "shard-0-of-2", "results.jsonl")
	before, _ := os.ReadFile(journal)
	code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "--shard", "0/2", "--out-dir", out, bench)
	if code != 1 || !strings.Contains(stderr, journal) || !strings.Contains(stderr, "line 3 does not score as the benchmark does") {
		t.Fatalf("shard 0/2 again over an edited journal: exit %d, want 1 naming line 3 of %s\n%s", code, journal, stderr)
	}
	if after, _ := os.ReadFile(journal); string(after) != string(before) {
		t.Errorf("the refused run changed the journal:\n%s\nwant\n%s", after, before)
	}
}

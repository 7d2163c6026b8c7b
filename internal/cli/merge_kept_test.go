package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeRefusesOversizedInvalidOutput: a journal line whose invalid output holds a
// prediction past what a run keeps of one (1 MiB of its JSON text) is refused, naming
// the shard and line: a forged 190 MiB prediction merged and then cost the server 848 MB
// each time the example was served. The same line with its prediction as a run keeps it
// merges.
func TestMergeRefusesOversizedInvalidOutput(t *testing.T) {
	dir := invoiceRun(t)
	bench, out := invoiceShards(t, dir, "2", "0", "1")
	editLine(t, out, 0, 2, 6, func(l string) string {
		return strings.Replace(l, `"debug":"foo"`, `"debug":"`+strings.Repeat("x", 2<<20)+`"`, 1)
	})
	code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, "--into-store", dir, out)
	if code != 1 || !strings.Contains(stderr, "a run keeps at most 1024 KiB") {
		t.Errorf("a merge of a 2 MiB invalid output: exit %d, want 1 refusing it\n%.600s", code, stderr)
	}
	if runs := mergedRuns(t, dir); len(runs) != 0 {
		t.Errorf("the refused merge stored %d runs", len(runs))
	}
}

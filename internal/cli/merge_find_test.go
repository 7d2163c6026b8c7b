package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeFindsBenchmarkByIRHash: benchy merge without --benchmark (the spelling of the
// README before it had the flag) finds the shards' benchmark as the one benchmark file of
// their workspace whose IR has the manifests' IR hash, never by the path a manifest
// records: a forged path there is neither read nor stored, and a benchmark changed since
// (another IR hash), or two files of the same IR, are refused with a word of --benchmark.
func TestMergeFindsBenchmarkByIRHash(t *testing.T) {
	dir := invoiceRun(t)
	t.Chdir(dir) // the working directory's workspace is searched too: the test's own, not the checkout's
	bench, out := invoiceShards(t, dir, "2", "0", "1")
	editManifests(t, out, func(m map[string]any) { m["benchmark"] = "../../../../etc/passwd" })
	merged := filepath.Join(dir, "merged.json")
	code, _, stderr := runBenchy(t, "merge", "-o", merged, "--into-store", dir, out)
	if code != 0 || !strings.Contains(stderr, "found by their IR hash") || strings.Contains(stderr, "passwd") {
		t.Fatalf("merge without --benchmark: exit %d, want 0 naming the benchmark found by its IR hash\n%s", code, stderr)
	}
	if runs := mergedRuns(t, dir); len(runs) != 1 || runs[0].Benchmark != "benchmark.yaml" {
		t.Fatalf("stored runs %+v, want one of benchmark.yaml", runs)
	}

	src, err := os.ReadFile(bench)
	if err != nil {
		t.Fatal(err)
	}
	copyOf := filepath.Join(dir, "copy.yaml")
	if err := os.WriteFile(copyOf, src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runBenchy(t, "merge", "-o", merged, out)
	if code != 1 || !strings.Contains(stderr, "2 benchmark files have the shards' IR hash") || !strings.Contains(stderr, "--benchmark") {
		t.Errorf("two files of the shards' IR: exit %d, want 1 asking for --benchmark\n%s", code, stderr)
	}
	os.Remove(copyOf)

	changed := strings.Replace(string(src), "total: 5", "total: 4", 1)
	if changed == string(src) {
		t.Fatal("the benchmark has no \"total: 5\" weight to change")
	}
	if err := os.WriteFile(bench, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runBenchy(t, "merge", "-o", merged, out)
	if code != 1 || !strings.Contains(stderr, "has the shards' IR hash") || !strings.Contains(stderr, "--benchmark") {
		t.Errorf("the benchmark changed since: exit %d, want 1 asking for --benchmark\n%s", code, stderr)
	}
}

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunsExportNeverOverwritesInputs: `runs export -o` follows run's -o rule (readsClash):
// it is refused with exit 2 when it names, by any path, the store (its -wal and -shm too,
// each called what it is), the run's benchmark, its runtime file, its dataset or an
// artifact the dataset names, any file named like a runtime file, or a hidden file of the
// workspace; what was there is left as it was and the store still opens.
func TestRunsExportNeverOverwritesInputs(t *testing.T) {
	dir, id := storedRun(t)
	in := func(p string) string { return filepath.Join(dir, p) }
	os.Symlink("benchmark.yaml", in("bench-link.csv"))
	os.Symlink(".benchy", in("store-link"))
	os.Symlink("data/invoices.jsonl", in("data-link.jsonl"))
	os.Mkdir(in("sub"), 0o755)
	before := map[string][]byte{}
	for _, p := range []string{".benchy/benchy.db", "benchmark.yaml", "benchy.runtime.yaml", "data/invoices.jsonl", "images/invoice-001.png"} {
		before[p], _ = os.ReadFile(in(p))
	}
	for _, c := range []struct{ out, want string }{
		{".benchy/benchy.db", "would overwrite the run store"},
		{"store-link/benchy.db", "would overwrite the run store"},
		{".benchy/benchy.db-wal", "benchy.db"}, // the store's, if it is there; else a hidden file
		{"store-link/benchy.db-shm", "benchy.db"},
		{"data/invoices.jsonl", "would overwrite the dataset ./data/invoices.jsonl"},
		{"data-link.jsonl", "would overwrite the dataset"},
		{"images/invoice-001.png", "would overwrite an artifact of the dataset (line 1, input.image"},
		{".benchy/new.csv", "hidden file or folder"},
		{"store-link/new.csv", "hidden file or folder"},
		{".env", "hidden file or folder"},
		{"benchmark.yaml", "would overwrite the benchmark"},
		{"bench-link.csv", "would overwrite the benchmark"},
		{"benchy.runtime.yaml", "would overwrite the runtime file"},
		{"sub/Benchy.Runtime.YAML", "would write a runtime file"},
	} {
		code, _, stderr := runBenchy(t, "runs", "export", "--workspace", dir, "--format", "csv", "-o", in(c.out), id)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("-o %s: exit %d, %q; want 2 and one line with %q", c.out, code, stderr, c.want)
		}
	}
	for p, want := range before {
		if got, _ := os.ReadFile(in(p)); string(got) != string(want) {
			t.Errorf("%s changed", p)
		}
	}
	// The store's write-ahead log is called what it is, not the store. SQLite removes it when
	// the last connection closes; an empty one, as it leaves it at times, is no harm.
	wal := in(".benchy/benchy.db-wal")
	if _, err := os.Stat(wal); err != nil {
		os.WriteFile(wal, nil, 0o644)
	}
	_, _, stderr := runBenchy(t, "runs", "export", "--workspace", dir, "-o", wal, id)
	if want := "would overwrite the run store's write-ahead log " + wal + " ("; !strings.Contains(stderr, want) {
		t.Errorf("-o .benchy/benchy.db-wal: %q, want %q", stderr, want)
	}
	if _, err := os.Lstat(in("sub/Benchy.Runtime.YAML")); err == nil {
		t.Errorf("a runtime file was written")
	}
	if code, _, stderr := runBenchy(t, "runs", "export", "--workspace", dir, "--format", "csv", "-o", in("sub/export.csv"), id); code != 0 {
		t.Errorf("a plain -o: exit %d\n%s", code, stderr)
	}
	if rows := listRows(t, "--workspace", dir); len(rows) != 1 {
		t.Errorf("the store after the refused exports: %q", rows)
	}
}

// storedRun runs the invoice workspace's benchmark with its store and returns the workspace
// and the stored run's id.
func storedRun(t *testing.T) (dir, id string) {
	t.Helper()
	dir = invoiceRun(t)
	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml"))
	m := storedLine.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	return dir, m[1]
}

// TestRunThroughLinkedFolder: a benchmark reached through a link to its workspace is stored
// under its workspace path, as the server names it: the workspace is found with links
// resolved, and so is the benchmark's path in it (it was stored as ../link/benchmark.yaml).
func TestRunThroughLinkedFolder(t *testing.T) {
	dir := invoiceRun(t)
	os.MkdirAll(filepath.Join(dir, ".benchy"), 0o755)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(t.TempDir(), "r.json"), filepath.Join(link, "benchmark.yaml"))
	if code != 0 || !strings.Contains(stderr, filepath.Join(dir, ".benchy", "benchy.db")) {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	code, stdout, _ := runBenchy(t, "runs", "list", "--workspace", dir)
	if code != 0 || !strings.Contains(stdout, "benchmark.yaml") || strings.Contains(stdout, "..") {
		t.Errorf("runs list: exit %d\n%s\nwant the run stored as benchmark.yaml", code, stdout)
	}
}

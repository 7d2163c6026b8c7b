package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportNeverOverwritesInputs: `benchy report -o` follows `runs export -o`'s rule
// (exportClash): refused with exit 2, one line, when it names the run's dataset, an
// artifact, the benchmark, the runtime file, the program a binding runs, the store or
// .env; nothing is changed (the adapter keeps its exec bit). A folder that is not there is
// said in those words before any work, not as the temporary file's name.
func TestReportNeverOverwritesInputs(t *testing.T) {
	dir, id := storedRun(t)
	in := func(p string) string { return filepath.Join(dir, p) }
	os.WriteFile(in(".env"), []byte("KEY=secret\n"), 0o600)
	guarded := []string{".benchy/benchy.db", "benchmark.yaml", "benchy.runtime.yaml", "data/invoices.jsonl", "images/invoice-001.png", "invoice-adapter", ".env"}
	before := map[string][]byte{}
	for _, p := range guarded {
		before[p], _ = os.ReadFile(in(p))
	}
	for _, c := range []struct{ out, want string }{
		{"data/invoices.jsonl", "would overwrite the dataset"},
		{"images/invoice-001.png", "would overwrite an artifact of the dataset (line 1, input.image"},
		{"benchmark.yaml", "would overwrite the benchmark"},
		{"benchy.runtime.yaml", "runtime file"},
		{"invoice-adapter", "a file a binding's command in the runtime file"},
		{".benchy/benchy.db", "would overwrite the run store"},
		{".env", "hidden file or folder"},
	} {
		code, _, stderr := runBenchy(t, "report", "--workspace", dir, "-o", in(c.out), id)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("-o %s: exit %d, %q; want 2 and one line with %q", c.out, code, stderr, c.want)
		}
	}
	for p, want := range before {
		if got, _ := os.ReadFile(in(p)); string(got) != string(want) {
			t.Errorf("%s changed", p)
		}
	}
	if info, err := os.Stat(in("invoice-adapter")); err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("the adapter lost its exec bit: %v %v", info.Mode(), err)
	}

	missing := filepath.Join(dir, "nosuch", "x.html")
	code, _, stderr := runBenchy(t, "report", "--workspace", dir, "-o", missing, id)
	if want := "benchy report: -o " + missing + ": folder " + filepath.Dir(missing) + " does not exist\n"; code != 2 || stderr != want {
		t.Errorf("-o in a missing folder: exit %d, %q; want 2 and %q", code, stderr, want)
	}
	if code, _, stderr := runBenchy(t, "report", "--workspace", dir, "-o", in("report.html"), id); code != 0 {
		t.Errorf("a plain -o: exit %d\n%s", code, stderr)
	}
}

// TestJUnitNeverOverwritesInputs: --junit follows -o's rule, artifacts included, and is
// never a result file by any path (an absolute one for a relative -o, a linked folder);
// a --junit or -o in a folder that is not there is refused before the run starts, in
// those words, not the lock file's.
func TestJUnitNeverOverwritesInputs(t *testing.T) {
	dir := invoiceRun(t)
	in := func(p string) string { return filepath.Join(dir, p) }
	os.Mkdir(in("b1"), 0o755)
	os.Symlink("b1", in("b1-link"))
	image, _ := os.ReadFile(in("images/invoice-001.png"))
	t.Chdir(dir)
	for _, c := range []struct {
		out, junit, want string
	}{
		{"b1/out.json", in("images/invoice-001.png"), "--junit " + in("images/invoice-001.png") + " would overwrite an artifact of the dataset (line 1, input.image"},
		{"b1/out.json", in("b1/out.json"), "is a result file of the run"},
		{"b1/out.json", in("b1-link/out.jsonl"), "is a result file of the run"},
		{"b1/out.json", in("nosuch/junit.xml"), "--junit " + in("nosuch/junit.xml") + ": folder " + in("nosuch") + " does not exist"},
		{"nosuch/out.json", in("junit.xml"), "-o nosuch/out.json: folder nosuch does not exist"},
	} {
		code, _, stderr := runBenchy(t, "run", "--no-store", "-o", c.out, "--junit", c.junit, "benchmark.yaml")
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, ".lock") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("-o %s --junit %s: exit %d, %q; want 2 and one line with %q", c.out, c.junit, code, stderr, c.want)
		}
	}
	if got, _ := os.ReadFile(in("images/invoice-001.png")); string(got) != string(image) {
		t.Errorf("the image was overwritten")
	}
	if _, err := os.Stat(in("b1/out.json")); err == nil {
		t.Errorf("a refused run wrote its results")
	}
}

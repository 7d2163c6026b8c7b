package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// boardWorkspace is the invoice workspace with other.yaml, the same benchmark taken by a
// second AI-system (invoice-copy, bound to the same adapter), and slow.yaml, another
// benchmark (one weight changed). It runs benchmark.yaml and other.yaml and returns the
// workspace and the two runs' ids.
func boardWorkspace(t *testing.T) (dir, a, b string) {
	t.Helper()
	dir = invoiceRun(t)
	src, err := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFiles(t, dir, map[string]string{
		"other.yaml": strings.Replace(string(src), "id: invoice-extractor-v7", "id: invoice-copy", 1),
		"slow.yaml":  strings.Replace(string(src), "total: 5", "total: 4", 1),
		"benchy.runtime.yaml": "bindings:\n  invoice-extractor-v7:\n    command: [./invoice-adapter]\n" +
			"  invoice-copy:\n    command: [./invoice-adapter]\n",
	})
	ids := make([]string, 2)
	for i, f := range []string{"benchmark.yaml", "other.yaml"} {
		code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, f+".json"), filepath.Join(dir, f))
		m := storedLine.FindStringSubmatch(stderr)
		if code != 0 || m == nil {
			t.Fatalf("run %s: exit %d\n%s", f, code, stderr)
		}
		ids[i] = m[1]
	}
	return dir, ids[0], ids[1]
}

// benchyIn runs the real benchy process in dir.
func benchyIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(benchyProcess(t), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// body is the body of GET path, which must answer 200.
func body(t *testing.T, srv interface{ Client() *http.Client }, base, path string) string {
	t.Helper()
	resp, err := srv.Client().Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v %s", path, resp.StatusCode, err, data)
	}
	return string(data)
}

// TestLeaderboardAndCompareCommands: `benchy leaderboard` and `benchy runs compare`, run
// as the real binary, print what the API answers for the same store (--json: the same
// bytes), a table of 100 columns, and refuse runs that are not comparable with exit 1.
func TestLeaderboardAndCompareCommands(t *testing.T) {
	dir, a, b := boardWorkspace(t)
	srv := serveAPI(t, dir)

	code, out, stderr := benchyIn(t, dir, "leaderboard", "--json", "benchmark.yaml")
	want := body(t, srv, srv.URL, api.LeaderboardFor(url.Values{"benchmark": {"benchmark.yaml"}}))
	if code != 0 || out != want {
		t.Errorf("leaderboard --json: exit %d %s\n%s\nthe API: %s", code, stderr, out, want)
	}
	code, out, stderr = benchyIn(t, dir, "leaderboard", "other.yaml")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 4 || !strings.HasPrefix(lines[0], "RANK") || !strings.Contains(lines[1], "invoice-copy") ||
		!strings.Contains(lines[2], "invoice-extractor-v7") || !strings.HasPrefix(lines[3], "benchmark sha256:") {
		t.Errorf("leaderboard: exit %d %s\n%s", code, stderr, out)
	}
	for _, l := range lines {
		if len([]rune(l)) > 100 {
			t.Errorf("a line over 100 columns: %q", l)
		}
	}

	code, out, stderr = benchyIn(t, dir, "runs", "compare", "--json", a, b)
	if want := body(t, srv, srv.URL, api.ComparePath(a, b)); code != 0 || out != want {
		t.Errorf("runs compare --json: exit %d %s\n%s\nthe API: %s", code, stderr, out, want)
	}
	code, out, stderr = benchyIn(t, dir, "runs", "compare", a, b)
	for _, w := range []string{"A  " + a + "  invoice-extractor-v7", "B  " + b + "  invoice-copy", "delta B-A +0.0000", "DIMENSION", "total", "no example changed"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("runs compare: exit %d %s: no %q in\n%s", code, stderr, w, out)
		}
	}

	// Another benchmark's run is refused, naming both hashes.
	code, _, stderr = runBenchy(t, "run", "-o", filepath.Join(dir, "slow.json"), filepath.Join(dir, "slow.yaml"))
	m := storedLine.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("run slow.yaml: exit %d\n%s", code, stderr)
	}
	code, out, stderr = benchyIn(t, dir, "runs", "compare", a, m[1])
	if code != 1 || out != "" || !strings.Contains(stderr, "different_benchmarks: ") || strings.Count(stderr, "sha256:") != 2 {
		t.Errorf("two benchmarks: exit %d\n%s%s", code, out, stderr)
	}
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"runs", "compare", a}, 2, "expects two run IDs"},
		{[]string{"runs", "compare", a, "01NOSUCHRUN0000000000000000"}, 1, "no such run"},
		{[]string{"leaderboard", "--dataset", "sha256:ffff", "benchmark.yaml"}, 1, "no completed run of this benchmark took it; its datasets: sha256:"},
		{[]string{"leaderboard", "missing.yaml"}, 1, "missing.yaml"},
		{[]string{"leaderboard"}, 2, "expects exactly one FILE"},
	} {
		code, _, stderr := benchyIn(t, dir, c.args...)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("%v: exit %d, want %d saying %q:\n%s", c.args, code, c.code, c.says, stderr)
		}
	}
	// The dataset named by the start of its digest, as the table shows it.
	var digest string
	if _, after, ok := strings.Cut(lines[3], "dataset "); ok {
		digest = after
	}
	if code, out, stderr := benchyIn(t, dir, "leaderboard", "--dataset", digest, "benchmark.yaml"); code != 0 || !strings.Contains(out, "invoice-copy") {
		t.Errorf("--dataset %s: exit %d %s\n%s", digest, code, stderr, out)
	}
}

// TestLeaderboardNoRuns: a workspace without runs has an empty board, not an error, of
// the file's dataset as it stands.
func TestLeaderboardNoRuns(t *testing.T) {
	dir := invoiceRun(t)
	code, out, stderr := benchyIn(t, dir, "leaderboard", "benchmark.yaml")
	if code != 0 || !strings.Contains(out, "no completed full run") || !strings.Contains(out, "dataset sha256:") {
		t.Errorf("exit %d %s\n%s", code, stderr, out)
	}
	code, out, _ = benchyIn(t, dir, "leaderboard", "--json", "benchmark.yaml")
	if code != 0 || !strings.Contains(out, `"entries":[]`) || !strings.Contains(out, `"benchmark_hash":"sha256:`) {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}

// TestSystemsScripts runs testdata/systems/*.txtar: scripts of runs against several
// AI-systems, with runids to name the runs they stored.
func TestSystemsScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/systems",
		RequireExplicitExec: true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsonvalid": jsonValid,
			"exitcode":  exitCode,
			"runids":    runIDs,
		},
	})
}

// runIDs sets $RUN_<label> to the id of the newest run of each AI-system in the store of
// the script's workspace ($WORK), $RUNHEAD_<label> to its first 20 characters and
// $RUNTAIL_<label> to its last 8. Usage: runids.
func runIDs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 0 {
		ts.Fatalf("usage: runids")
	}
	st, err := store.Open(store.Path(ts.Getenv("WORK")))
	ts.Check(err)
	defer st.Close()
	runs, err := st.ListRuns(store.Filter{}, 1000)
	ts.Check(err)
	seen := map[string]bool{}
	for _, r := range runs { // newest first
		if r.System != nil && !seen[r.System.Label] {
			seen[r.System.Label] = true
			ts.Setenv("RUN_"+r.System.Label, r.ID)
			ts.Setenv("RUNHEAD_"+r.System.Label, r.ID[:20]) // the start and the end
			ts.Setenv("RUNTAIL_"+r.System.Label, r.ID[len(r.ID)-8:])
		}
	}
}

// TestLeaderboardOfTheFilesDataset: two folders' copies of one benchmark (one hash:
// ./data/invoices.jsonl as written) on different datasets each have the board of their
// own folder's dataset, whichever ran last, as the API answers it; a dataset that no
// longer validates gives the newest run's board, saying so.
func TestLeaderboardOfTheFilesDataset(t *testing.T) {
	dir := invoiceRun(t)
	src, err := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := os.ReadFile(filepath.Join(dir, "data", "invoices.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, f := range []string{"a", "b"} {
		testkit.CopyTree(t, filepath.Join(dir, "images"), filepath.Join(dir, f, "images"))
		data := string(rows)
		if f == "b" {
			data = strings.Replace(data, "F-001", "F-00X", 1)
		}
		testkit.WriteFiles(t, filepath.Join(dir, f), map[string]string{"benchmark.yaml": string(src), "data/invoices.jsonl": data})
		code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, f+".json"), filepath.Join(dir, f, "benchmark.yaml"))
		m := storedLine.FindStringSubmatch(stderr)
		if code != 0 || m == nil {
			t.Fatalf("run %s: exit %d\n%s", f, code, stderr)
		}
		ids[f] = m[1]
	}
	srv := serveAPI(t, dir)
	for _, f := range []string{"a", "b"} {
		file := f + "/benchmark.yaml"
		code, out, stderr := benchyIn(t, dir, "leaderboard", "--json", file)
		var board api.Leaderboard
		if err := json.Unmarshal([]byte(out), &board); err != nil || code != 0 {
			t.Fatalf("leaderboard --json %s: exit %d %s\n%s", file, code, stderr, out)
		}
		if len(board.Entries) != 1 || board.Entries[0].Run != ids[f] || len(board.Datasets) != 2 {
			t.Errorf("the board of %s: %+v, want run %s alone", file, board, ids[f])
		}
		if want := body(t, srv, srv.URL, api.LeaderboardFor(url.Values{"benchmark": {file}})); out != want {
			t.Errorf("leaderboard --json %s:\n%s\nthe API: %s", file, out, want)
		}
	}
	testkit.WriteFiles(t, filepath.Join(dir, "a"), map[string]string{"data/invoices.jsonl": "not json\n"})
	code, out, stderr := benchyIn(t, dir, "leaderboard", "a/benchmark.yaml")
	if code != 0 || !strings.Contains(out, "invoice-extractor-v7") || !strings.Contains(out, "a/benchmark.yaml: its dataset a/data/invoices.jsonl does not validate now") {
		t.Errorf("a dataset that does not validate: exit %d %s\n%s", code, stderr, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 100 {
			t.Errorf("a line over 100 columns: %q", l)
		}
	}
}

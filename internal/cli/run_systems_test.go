package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// labelAdapter is the web's stand-in classifier (web/testdata/label-adapter): against the
// slow adapter's benchmark every answer lacks its fields, so it scores 0 where the slow
// adapter scores 1.
var labelAdapter = &program{pkg: "../../web/testdata/label-adapter"}

// twoSystems is a workspace with the slow adapter's benchmark over n examples, its own
// AI-system the slow adapter (slow-system, logging each call to calls.log), and a second
// command adapter bound as label.
func twoSystems(t *testing.T, n int) string {
	t.Helper()
	dir := slowWorkspace(t, n, 0)
	rt := fmt.Sprintf("bindings:\n  slow-system:\n    command: [%q, -log, %q]\n  label:\n    command: [%q]\n",
		slowBin(t), filepath.Join(dir, "calls.log"), labelAdapter.build(t))
	testkit.WriteFiles(t, dir, map[string]string{"benchy.runtime.yaml": rt})
	return dir
}

// storedRuns is every run of workspace dir's store, by label.
func storedRuns(t *testing.T, dir string) map[string]store.Run {
	t.Helper()
	runs := map[string]store.Run{}
	if _, err := os.Stat(store.Path(dir)); err != nil {
		return runs
	}
	st, err := store.Open(store.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	list, err := st.ListRuns(store.Filter{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		if r.System == nil {
			t.Fatalf("run %s has no system", r.ID)
		}
		full, err := st.GetRun(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		runs[r.System.Label] = full
	}
	return runs
}

// TestRunSystems runs one benchmark against two command adapters with --system, one after
// the other and both at once: each is a stored run of the same benchmark_hash and
// dataset_digest with its own effective IR and ir_hash, a line as it ends, its own result
// files by -o's {system}, and the run ends with the leaderboard, the leader first.
func TestRunSystems(t *testing.T) {
	for _, parallel := range []string{"1", "2"} {
		t.Run("parallel "+parallel, func(t *testing.T) {
			dir := twoSystems(t, 5)
			out := filepath.Join(dir, "out", "r-{system}.json")
			os.Mkdir(filepath.Join(dir, "out"), 0o755)
			code, stdout, stderr := runBenchy(t, "run", "--system", "label", "--system", "slow-system", "--parallel-systems", parallel,
				"-o", out, filepath.Join(dir, "benchmark.yaml"))
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			if strings.Contains(stderr, "not recorded") { // both runs opened the new store at once
				t.Errorf("a run went unrecorded:\n%s", stderr)
			}
			runs := storedRuns(t, dir)
			label, slow := runs["label"], runs["slow-system"]
			if len(runs) != 2 || label.Status != store.Completed || slow.Status != store.Completed {
				t.Fatalf("stored %d runs: %+v", len(runs), runs)
			}
			if label.BenchmarkHash == "" || label.BenchmarkHash != slow.BenchmarkHash || label.IRHash == slow.IRHash ||
				label.DatasetDigest == "" || label.DatasetDigest != slow.DatasetDigest {
				t.Errorf("benchmark_hash %s %s, ir_hash %s %s, dataset_digest %s %s", label.BenchmarkHash, slow.BenchmarkHash,
					label.IRHash, slow.IRHash, label.DatasetDigest, slow.DatasetDigest)
			}
			for name, r := range runs {
				b, err := ir.Unmarshal(r.IR)
				if err != nil || b.AISystem.ID != name || ir.Hash(r.IR) != r.IRHash || r.Binding != name {
					t.Errorf("run %s stores the IR of %+v (%v), binding %s", name, b.AISystem, err, r.Binding)
				}
				doc, err := os.ReadFile(filepath.Join(dir, "out", "r-"+name+".json"))
				if err != nil || !strings.Contains(string(doc), r.IRHash) {
					t.Errorf("the result document of %s: %v", name, err)
				}
				if !strings.Contains(stderr, name+": score ") || !strings.Contains(stderr, "run "+r.ID) {
					t.Errorf("no line for %s (run %s):\n%s", name, r.ID, stderr)
				}
			}
			first, second := strings.Index(stdout, "1     slow-system  1.0000"), strings.Index(stdout, "2     label        0.0000")
			if first < 0 || second < first || !strings.Contains(stdout, "RANK") {
				t.Errorf("the leaderboard:\n%s", stdout)
			}
			if parallel == "1" && strings.Index(stderr, "label: score") > strings.Index(stderr, "slow-system: score") {
				t.Errorf("the runs are not in the order given:\n%s", stderr)
			}
		})
	}
}

// TestRunOneSystem: one --system is one run of it, -o a plain file; nothing of the
// benchmark's own AI-system is bound (it need not be).
func TestRunOneSystem(t *testing.T) {
	dir := twoSystems(t, 3)
	bench := filepath.Join(dir, "benchmark.yaml")
	text, _ := os.ReadFile(bench)
	os.WriteFile(bench, []byte(strings.Replace(string(text), "id: slow-system", "id: unbound-anywhere", 1)), 0o644)
	code, stdout, stderr := runBenchy(t, "run", "--system", "slow-system", "-o", filepath.Join(dir, "one.json"), bench)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "one.json")); err != nil || len(storedRuns(t, dir)) != 1 {
		t.Errorf("one.json: %v; %d runs stored", err, len(storedRuns(t, dir)))
	}
}

// TestRunSystemsRefused: every system is resolved and bound, and every result file
// checked, before any runs: a refusal makes no AI-system call and stores nothing, and
// says what is wrong.
func TestRunSystemsRefused(t *testing.T) {
	dir := twoSystems(t, 3)
	bench := filepath.Join(dir, "benchmark.yaml")
	testkit.WriteFiles(t, dir, map[string]string{
		"bad-system.yaml":  "ai-system:\n  type: externl\n  id: x\nextra: 1\n",
		"good-system.yaml": "ai-system: {type: external, id: label}\n",
	})
	os.Symlink("benchmark.yaml", filepath.Join(dir, "r-label.json"))
	badFile := filepath.Join(dir, "bad-system.yaml")
	for _, tc := range []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"an unknown id: the closest binding, and every one", []string{"--system", "slow-system", "--system", "lable"}, 1,
			[]string{`missing_binding`, `no binding for the external AI-system "lable" (did you mean "label"?); it binds label, slow-system`}},
		{"an unknown provider", []string{"--system", "slow-system", "--model", "openai/gpt-x"}, 1,
			[]string{`missing_binding`, `defines no provider "openai"`}},
		{"a system file that does not compile: FILE:LINE:COL, every problem", []string{"--system-file", badFile, "--system", "slow-system"}, 1,
			[]string{badFile + ":2:9: invalid_value: ai-system type must be model or external", badFile + ":4:1: unknown_key: unknown key \"extra\""}},
		{"a system file that is not there", []string{"--system-file", filepath.Join(dir, "none.yaml")}, 1,
			[]string{"--system-file " + filepath.Join(dir, "none.yaml")}},
		{"a model that is not PROVIDER/MODEL", []string{"--model", "gpt-x", "--system", "label"}, 2,
			[]string{"--model gpt-x: model \"gpt-x\" is not PROVIDER/MODEL"}},
		{"several systems into one -o", []string{"--system", "label", "--system", "slow-system", "-o", filepath.Join(dir, "r.json")}, 2,
			[]string{"names one file, but 2 systems run: put {system} in it"}},
		{"a system twice writes one file twice", []string{"--system", "label", "--system-file", filepath.Join(dir, "good-system.yaml"), "-o", filepath.Join(dir, "x-{system}.json")}, 2,
			[]string{"would both write " + filepath.Join(dir, "x-label.json")}},
		{"-o's guards hold for each name {system} makes", []string{"--system", "slow-system", "--system", "label", "-o", filepath.Join(dir, "r-{system}.json")}, 2,
			[]string{"-o " + filepath.Join(dir, "r-label.json") + " would overwrite the benchmark"}},
		{"--parallel-systems 0", []string{"--system", "label", "--parallel-systems", "0"}, 2, []string{"--parallel-systems at least 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runBenchy(t, append(append([]string{"run"}, tc.args...), bench)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, stderr)
			}
			for _, s := range tc.says {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr)
				}
			}
			if n, runs := calls(dir), storedRuns(t, dir); n > 0 || len(runs) > 0 {
				t.Errorf("%d calls, %d runs stored before the refusal", n, len(runs))
			}
		})
	}
}

package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/store"
)

// editLine rewrites the journal line of example index in shard k/n under out with edit,
// and fails the test when edit changes nothing.
func editLine(t *testing.T, out string, k, n, index int, edit func(line string) string) {
	t.Helper()
	p := filepath.Join(out, "shard-"+itoa(k)+"-of-"+itoa(n), "results.jsonl")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	prefix := `{"index":` + itoa(index) + `,`
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			if e := edit(l); e != l {
				lines[i] = e
				if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
	t.Fatalf("no line of example %d of shard %d/%d to edit in\n%s", index, k, n, data)
}

// editManifests rewrites every manifest under out with edit, which changes its decoded
// JSON.
func editManifests(t *testing.T, out string, edit func(m map[string]any)) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "shard-*-of-*", "manifest.json"))
	if len(files) == 0 {
		t.Fatal("no manifest to edit")
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		data, _ = json.MarshalIndent(m, "", "  ")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// mergedRuns is the runs of the store of workspace dir (none when it has no store).
func mergedRuns(t *testing.T, dir string) []store.Run {
	t.Helper()
	real, _ := filepath.EvalSymlinks(dir)
	file := store.Path(real)
	if _, err := os.Stat(file); os.IsNotExist(err) {
		return nil
	}
	st, err := store.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.ListRuns(store.Filter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// The invoice example's example 4 is answered wrong on every field (score 0), example 6
// with an object that is no invoice (invalid_output, missing_field): both in shard 0/2, as
// its lines 3 and 4.
const (
	allWrongScores = `"field_scores":[{"path":["invoice_number"],"score":0,"weight":1},{"path":["date"],"score":0,"weight":1},{"path":["supplier"],"score":0,"weight":1},{"path":["subtotal"],"score":0,"weight":1},{"path":["total"],"score":0,"weight":5}],"score":0,"contribution":0,"error":null`
	allRightScores = `"field_scores":[{"path":["invoice_number"],"score":1,"weight":1},{"path":["date"],"score":1,"weight":1},{"path":["supplier"],"score":1,"weight":1},{"path":["subtotal"],"score":1,"weight":1},{"path":["total"],"score":1,"weight":5}],"score":1,"contribution":1,"error":null`
)

// TestMergeRescoresForgedLine: a journal line whose numbers agree with each other but not
// with its prediction (a wrong answer scored 1), or a line that claims valid for a
// prediction that is no valid output, refuses benchy merge --into-store, naming the shard
// and the line; nothing is stored and no document is written. Each line is scored again
// from its prediction against the dataset's expected output, as the engine scores.
func TestMergeRescoresForgedLine(t *testing.T) {
	for _, c := range []struct {
		name  string
		index int
		edit  func(string) string
		want  string
	}{
		{"wrong prediction scored 1", 4, func(l string) string { return strings.Replace(l, allWrongScores, allRightScores, 1) }, "line 3 does not score as the benchmark does"},
		{"invalid prediction claimed valid", 6, func(l string) string {
			i := strings.Index(l, `"field_scores":`)
			return strings.Replace(l[:i], `"status":"invalid_output"`, `"status":"valid"`, 1) + allRightScores + "}\n"
		}, "line 4 does not score as the benchmark does"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := invoiceRun(t)
			bench, out := invoiceShards(t, dir, "2", "0", "1")
			editLine(t, out, 0, 2, c.index, c.edit)
			merged := filepath.Join(dir, "merged.json")
			code, _, stderr := runBenchy(t, "merge", "-o", merged, "--benchmark", bench, "--into-store", dir, out)
			if code != 1 || !strings.Contains(stderr, "shard 0/2") || !strings.Contains(stderr, c.want) {
				t.Fatalf("merge of a forged line: exit %d, want 1 naming shard 0/2 and %q\n%s", code, c.want, stderr)
			}
			if runs := mergedRuns(t, dir); len(runs) != 0 {
				t.Errorf("the refused merge stored %d runs: %+v", len(runs), runs)
			}
			if _, err := os.Stat(merged); !os.IsNotExist(err) {
				t.Errorf("the refused merge wrote %s (%v)", merged, err)
			}
		})
	}
}

// TestMergeRefusesForeignManifests: manifests that agree with each other but not with the
// benchmark as it is in the workspace (another AI-system's label, another binding, another
// IR hash, another dataset) refuse benchy merge --into-store, naming what differs; nothing
// is stored.
func TestMergeRefusesForeignManifests(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"system label", func(m map[string]any) { m["system"].(map[string]any)["label"] = "forged-system" }, "system"},
		{"system hash", func(m map[string]any) {
			m["system"].(map[string]any)["hash"] = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
		}, "system"},
		{"binding", func(m map[string]any) { m["binding"] = "elsewhere" }, "binding"},
		{"dataset", func(m map[string]any) {
			m["dataset_digest"] = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
		}, "dataset"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := invoiceRun(t)
			bench, out := invoiceShards(t, dir, "2", "0", "1")
			editManifests(t, out, c.edit)
			code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, "--into-store", dir, out)
			if code != 1 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "since the shards ran; restore what they ran, or run the shards again") {
				t.Fatalf("merge of shards with another %s: exit %d, want 1 naming %q and what to do\n%s", c.name, code, c.want, stderr)
			}
			if runs := mergedRuns(t, dir); len(runs) != 0 {
				t.Errorf("the refused merge stored %d runs: %+v", len(runs), runs)
			}
		})
	}
}

// TestMergeTakesNoPathFromManifest: manifests naming ../../../../etc/passwd as their
// benchmark change nothing: the stored run names the benchmark the merge was given,
// relative to the workspace, and the command to re-run a missing shard names it too.
func TestMergeTakesNoPathFromManifest(t *testing.T) {
	dir := invoiceRun(t)
	bench, out := invoiceShards(t, dir, "2", "0", "1")
	const forged = "../../../../etc/passwd"
	editManifests(t, out, func(m map[string]any) { m["benchmark"] = forged })
	code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, "--into-store", dir, out)
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, stderr)
	}
	runs := mergedRuns(t, dir)
	if len(runs) != 1 || runs[0].Benchmark != "benchmark.yaml" {
		var names []string
		for _, r := range runs {
			names = append(names, r.Benchmark)
		}
		t.Fatalf("stored runs of %q, want one of benchmark.yaml", names)
	}
	os.RemoveAll(filepath.Join(out, "shard-1-of-2"))
	code, _, stderr = runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, out)
	if code != 1 || strings.Contains(stderr, "passwd") || !strings.Contains(stderr, "run "+bench+" --shard 1/2") {
		t.Errorf("a merge missing shard 1: exit %d, want its command with %s and nothing of the manifest's path\n%s", code, bench, stderr)
	}
}

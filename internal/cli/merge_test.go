package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/store"
)

// invoiceShards runs shards ks (K of each) of n of the invoice example into
// DIR/shards and returns the benchmark and DIR/shards.
func invoiceShards(t *testing.T, dir string, n string, ks ...string) (bench, out string) {
	t.Helper()
	bench = filepath.Join(dir, "benchmark.yaml")
	out = filepath.Join(dir, "shards")
	for _, k := range ks {
		if code, _, stderr := runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "--shard", k+"/"+n, "--out-dir", out, bench); code != 0 {
			t.Fatalf("shard %s/%s: exit %d\n%s", k, n, code, stderr)
		}
	}
	return bench, out
}

// TestMergeEdited: a journal line whose score was edited (it would move the merged score
// from 0.4333 to 0.3833) refuses the merge, naming the shard and the line, as does a line
// whose index was edited; the hint removes the damaged journal before re-running the
// shard (its run refuses the journal too), and following it merges.
func TestMergeEdited(t *testing.T) {
	dir := invoiceRun(t)
	bench, out := invoiceShards(t, dir, "3", "0", "1", "2")
	rt := filepath.Join(dir, "benchy.runtime.yaml")
	cases := []struct {
		name string
		edit func(line []byte) ([]byte, bool)
		want string
	}{
		{"score", func(l []byte) ([]byte, bool) {
			e := bytes.Replace(l, []byte(`"score":1,"contribution":1,`), []byte(`"score":0.5,"contribution":0.5,`), 1)
			return e, !bytes.Equal(e, l)
		}, "does not score as the benchmark does"},
		{"index", func(l []byte) ([]byte, bool) {
			e := bytes.Replace(l, []byte(`{"index":0,`), []byte(`{"index":3,`), 1)
			return e, !bytes.Equal(e, l)
		}, "holds another result where example 0 should be"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			journal, line := "", 0
			for _, k := range []string{"0", "1", "2"} {
				p := filepath.Join(out, "shard-"+k+"-of-3", "results.jsonl")
				data, _ := os.ReadFile(p)
				lines := bytes.SplitAfter(data, []byte("\n"))
				for i, l := range lines {
					if e, ok := c.edit(l); ok && journal == "" {
						lines[i], journal, line = e, p, i+1
					}
				}
				if journal == p {
					os.WriteFile(p, bytes.Join(lines, nil), 0o644)
				}
			}
			if journal == "" {
				t.Fatal("no line to edit")
			}
			code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, out)
			shardName := filepath.Base(filepath.Dir(journal))
			if code != 1 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "rm "+journal+" && benchy run") {
				t.Fatalf("merge of an edited line %d of %s: exit %d\n%s", line, journal, code, stderr)
			}
			if c.name == "score" && !strings.Contains(stderr, "line "+string(rune('0'+line))) {
				t.Errorf("the refusal does not name line %d of %s:\n%s", line, shardName, stderr)
			}
			k := strings.TrimPrefix(strings.TrimSuffix(shardName, "-of-3"), "shard-")
			os.Remove(journal)
			if code, _, stderr := runBenchy(t, "run", "--runtime", rt, "--shard", k+"/3", "--out-dir", out, bench); code != 0 {
				t.Fatalf("shard %s again: exit %d\n%s", k, code, stderr)
			}
			if code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, out); code != 0 || !strings.Contains(stderr, "0.4333") {
				t.Fatalf("merge once the shard ran again: exit %d\n%s", code, stderr)
			}
		})
	}
}

// TestMergeManyShards: a merge of 100000 shards, all but one missing, says so in a few
// lines with the runs as ranges (it printed a 2.7 MB line and 99,999 commands), and the
// range it names is one --only takes.
func TestMergeManyShards(t *testing.T) {
	dir := invoiceRun(t)
	bench, out := invoiceShards(t, dir, "100000", "0")
	code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "merged.json"), "--benchmark", bench, out)
	if code != 1 || !strings.Contains(stderr, "shards 1–99999 of 100000 missing") || !strings.Contains(stderr, "--only 1-99999") {
		t.Fatalf("exit %d\n%.2000s", code, stderr)
	}
	if n := strings.Count(stderr, "\n"); n > 22 || len(stderr) > 4000 {
		t.Errorf("%d lines, %d bytes:\n%.2000s", n, len(stderr), stderr)
	}
	code, _, stderr = runBenchy(t, "run", "--runtime", filepath.Join(dir, "benchy.runtime.yaml"), "--shard", "0/100001", "--out-dir", out, filepath.Join(dir, "benchmark.yaml"))
	if code != 2 || !strings.Contains(stderr, "at most 100000") {
		t.Errorf("--shard 0/100001: exit %d\n%s", code, stderr)
	}
}

// TestMergeIntoStoreTwice: --into-store of a folder inside a workspace records in that
// workspace's store and says so (it named the folder's own, which it did not write), and
// merging the same shards again answers with the run already recorded, exit 0, no twin.
func TestMergeIntoStoreTwice(t *testing.T) {
	dir := invoiceRun(t)
	bench, out := invoiceShards(t, dir, "2", "0", "1")
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	real, _ := filepath.EvalSymlinks(dir)
	file := store.Path(real)
	code, _, stderr := runBenchy(t, "merge", "-o", filepath.Join(dir, "a.json"), "--benchmark", bench, "--into-store", sub, out)
	if code != 0 || !strings.Contains(stderr, "in "+file+"\n") {
		t.Fatalf("first merge: exit %d, want the store %s named\n%s", code, file, stderr)
	}
	code, _, stderr = runBenchy(t, "merge", "-o", filepath.Join(dir, "b.json"), "--benchmark", bench, "--into-store", dir, out)
	if code != 0 || !strings.Contains(stderr, "already recorded as run") {
		t.Fatalf("second merge: exit %d\n%s", code, stderr)
	}
	st, err := store.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.ListRuns(store.Filter{}, 0)
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs in the store (%v), want 1", len(runs), err)
	}
	var a, b struct {
		RunID string `json:"run_id"`
	}
	da, _ := os.ReadFile(filepath.Join(dir, "a.json"))
	db, _ := os.ReadFile(filepath.Join(dir, "b.json"))
	json.Unmarshal(da, &a)
	json.Unmarshal(db, &b)
	if a.RunID != runs[0].ID || b.RunID != runs[0].ID {
		t.Errorf("run ids %q and %q, want %q", a.RunID, b.RunID, runs[0].ID)
	}
}

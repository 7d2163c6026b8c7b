package cli_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var storedLine = regexp.MustCompile(`(?m)^run ([0-9A-Z]{26}): results stored in (.+)$`)

// listRows runs `benchy runs list` with args and returns its rows, header left out, as fields.
func listRows(t *testing.T, args ...string) [][]string {
	t.Helper()
	code, stdout, stderr := runBenchy(t, append([]string{"runs", "list"}, args...)...)
	if code != 0 {
		t.Fatalf("runs list %v: exit %d\n%s", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("runs list %v: no header:\n%s", args, stdout)
	}
	var rows [][]string
	for _, l := range lines[1:] {
		rows = append(rows, strings.Fields(l))
	}
	return rows
}

// TestRunsStore: the invoice example's folder is a workspace (it has benchy.runtime.yaml),
// so `benchy run` records there, and `benchy runs` lists, shows and exports what it
// recorded: the export gives back the files the run wrote.
func TestRunsStore(t *testing.T) {
	dir := invoiceRun(t)
	bench := filepath.Join(dir, "benchmark.yaml")
	out := filepath.Join(dir, "results.json")
	db := filepath.Join(dir, ".benchy", "benchy.db")

	code, _, stderr := runBenchy(t, "run", "-o", out, bench)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	m := storedLine.FindStringSubmatch(stderr)
	if m == nil || m[2] != db {
		t.Fatalf("the summary does not say where the run is stored (want %s):\n%s", db, stderr)
	}
	id := m[1]

	// Found from a directory inside the workspace, with no --workspace.
	t.Chdir(filepath.Join(dir, "data"))
	rows := listRows(t)
	if len(rows) != 1 || !reflect.DeepEqual(rows[0][:5], []string{id, "completed", "benchmark.yaml", "0.4333", "10"}) {
		t.Fatalf("runs list: %q", rows)
	}
	if sys := rows[0][len(rows[0])-1]; sys != "invoice-extractor-v7" {
		t.Errorf("runs list names the system %q, want the run's label invoice-extractor-v7", sys)
	}
	// The end of an id, as the web app and leaderboards show it, names the run.
	if code, stdout, stderr := runBenchy(t, "runs", "show", "…"+id[len(id)-10:]); code != 0 || !strings.Contains(stdout, id) {
		t.Errorf("runs show by the end of its id: exit %d\n%s%s", code, stdout, stderr)
	}
	// So does its start, in any case, and either names the run to export into a file.
	if code, stdout, stderr := runBenchy(t, "runs", "show", strings.ToLower(id[:12])); code != 0 || !strings.Contains(stdout, id) {
		t.Errorf("runs show by the start of its id: exit %d\n%s%s", code, stdout, stderr)
	}
	byEnd := filepath.Join(dir, "by-end.jsonl")
	if code, stdout, stderr := runBenchy(t, "runs", "export", "--format", "jsonl", "-o", byEnd, id[len(id)-8:]); code != 0 || stdout != "" {
		t.Errorf("runs export -o by the end of its id: exit %d\n%s%s", code, stdout, stderr)
	} else if data, _ := os.ReadFile(byEnd); strings.Count(string(data), "\n") != 10 {
		t.Errorf("runs export -o by the end of its id wrote:\n%s", data)
	}

	code, stdout, stderr := runBenchy(t, "runs", "show", id)
	var run struct {
		ID, Status, Benchmark, Binding string
		IRHash                         string          `json:"ir_hash"`
		IR                             json.RawMessage `json:"ir"`
		Total, Done                    int
		Summary                        struct{ Examples, Valid int }
		Report                         struct {
			Score float64 `json:"benchmark_score"`
		}
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &run) != nil {
		t.Fatalf("runs show: exit %d\n%s%s", code, stdout, stderr)
	}
	_, hash, _ := runBenchy(t, "compile", "--hash", bench)
	hash = strings.TrimSpace(hash)
	if run.ID != id || run.Status != "completed" || run.Benchmark != "benchmark.yaml" || run.Binding != "invoice-extractor-v7" ||
		run.IRHash != hash || run.IR != nil || run.Total != 10 || run.Done != 10 || run.Summary.Examples != 10 || run.Summary.Valid != 6 {
		t.Errorf("runs show:\n%s", stdout)
	}
	if _, stdout, _ := runBenchy(t, "runs", "show", "--ir", id); !strings.Contains(stdout, `"ir": {`) {
		t.Errorf("runs show --ir has no IR:\n%.300s", stdout)
	}

	// jsonl is the stream the run wrote, json the result document, each result with its
	// row's input and expected output besides.
	wantJSONL, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	code, jsonl, stderr := runBenchy(t, "runs", "export", id, "--format", "jsonl")
	if code != 0 || strings.Count(jsonl, "\n") != 10 || !reflect.DeepEqual(withoutRows(t, strings.Split(jsonl, "\n")), withoutRows(t, strings.Split(string(wantJSONL), "\n"))) {
		t.Errorf("export jsonl: exit %d %s\ngot:\n%s\nwant:\n%s", code, stderr, jsonl, wantJSONL)
	}
	code, doc, stderr := runBenchy(t, "runs", "export", "--format", "json", id)
	var got, want map[string]any
	wantDoc, _ := os.ReadFile(out)
	json.Unmarshal(wantDoc, &want)
	if code != 0 || json.Unmarshal([]byte(doc), &got) != nil {
		t.Fatalf("export json: exit %d %s\n%s", code, stderr, doc)
	}
	for _, r := range got["results"].([]any) {
		r := r.(map[string]any)
		if r["input"] == nil || r["expected"] == nil {
			t.Errorf("export json: a result without its input or expected output: %v", r)
		}
		delete(r, "input")
		delete(r, "expected")
	}
	if want["run_id"] != id { // the result file names its stored run; the store's report does not
		t.Errorf("results.json: run_id %v, want %s", want["run_id"], id)
	}
	delete(want, "run_id")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("export json: exit %d %s\ngot:\n%s\nwant:\n%s", code, stderr, doc, wantDoc)
	}
	var parsed resultDoc
	json.Unmarshal([]byte(doc), &parsed)
	if parsed.BenchmarkScore < 0.4333 || parsed.BenchmarkScore > 0.4334 || len(parsed.Results) != 10 {
		t.Errorf("export json: score %v, %d results", parsed.BenchmarkScore, len(parsed.Results))
	}
	csvFile := filepath.Join(dir, "export.csv")
	if code, stdout, stderr := runBenchy(t, "runs", "export", id, "--format", "csv", "-o", csvFile); code != 0 || stdout != "" {
		t.Fatalf("export csv: exit %d\n%s%s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(csvFile)
	records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(records) != 11 || records[0][0] != "index" || records[6][1] != "invalid_output" {
		t.Errorf("export csv (%v):\n%s", err, data)
	}

	// --no-store records nothing; another run adds a row, newest first.
	if code, _, stderr := runBenchy(t, "run", "--no-store", "-o", out, bench); code != 0 || strings.Contains(stderr, "stored in") {
		t.Fatalf("run --no-store: exit %d\n%s", code, stderr)
	}
	if data, _ := os.ReadFile(out); strings.Contains(string(data), `"run_id"`) {
		t.Errorf("run --no-store wrote a run_id:\n%.300s", data)
	}
	if rows := listRows(t, "--workspace", dir); len(rows) != 1 {
		t.Fatalf("after --no-store: %q", rows)
	}
	_, _, stderr = runBenchy(t, "run", "-o", out, bench)
	m = storedLine.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("second run:\n%s", stderr)
	}
	rows = listRows(t, "--workspace", dir)
	if len(rows) != 2 || rows[0][0] != m[1] || rows[1][0] != id || rows[0][1] != "completed" || rows[0][3] != "0.4333" {
		t.Fatalf("after a second run: %q", rows)
	}

	// The leaderboard names the one dataset its runs took, by one system.
	if code, _, stderr := runBenchy(t, "leaderboard", "--dataset", "sha256:ffff", bench); code != 1 || !regexp.MustCompile(`its datasets: sha256:[0-9a-f]+ \(1 system\)$`).MatchString(strings.TrimSpace(stderr)) {
		t.Errorf("leaderboard --dataset of no run: exit %d\n%s", code, stderr)
	}

	// Filters and the limit; other.yaml is a benchmark no run took.
	if err := os.WriteFile(filepath.Join(dir, "other.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		n    int
	}{
		{[]string{"--benchmark", "../benchmark.yaml"}, 2}, // from the working directory (dir/data)
		{[]string{"--benchmark", "benchmark.yaml"}, 2},    // from the workspace
		{[]string{"--benchmark", "other.yaml"}, 0},
		{[]string{"--ir-hash", hash}, 2},
		{[]string{"--ir-hash", strings.TrimPrefix(hash, "sha256:")}, 2},
		{[]string{"--ir-hash", "sha256:00"}, 0},
		{[]string{"--limit", "1"}, 1},
	} {
		if rows := listRows(t, tt.args...); len(rows) != tt.n {
			t.Errorf("runs list %v: %d rows, want %d", tt.args, len(rows), tt.n)
		}
	}

	// Failures: an unknown run exits 1, a wrong command line 2.
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"runs", "show", "01NOSUCHRUN0000000000000000"}, 1, "no such run"},
		{[]string{"runs", "export", "01NOSUCHRUN0000000000000000", "--format", "jsonl"}, 1, "no such run"},
		{[]string{"runs", "export", id, "--format", "xml"}, 2, "want json, jsonl or csv"},
		{[]string{"runs", "show"}, 2, "expects exactly one run ID"},
		{[]string{"runs", "list", "extra"}, 2, "takes no arguments"},
		{[]string{"runs", "list", "--limit", "0"}, 2, "--limit"},
		{[]string{"runs", "list", "--benchmark", "nosuch.yaml"}, 1, "--benchmark nosuch.yaml: no such file"},
		{[]string{"runs"}, 2, "expects a subcommand"},
		{[]string{"runs", "delete"}, 2, `unknown subcommand "delete"`},
		{[]string{"runs", "list", "--workspace", filepath.Join(dir, "nosuch")}, 1, "not a directory"},
		{[]string{"runs", "show", id, "--workspace", t.TempDir()}, 1, "no runs stored in"},
	} {
		if code, _, stderr := runBenchy(t, tt.args...); code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("benchy %s: exit %d, want %d with %q\n%s", strings.Join(tt.args, " "), code, tt.code, tt.stderr, stderr)
		}
	}
	// Outside every workspace, a command without --workspace says so.
	t.Chdir(t.TempDir())
	if wd, _ := os.Getwd(); !inWorkspace(wd) {
		if code, _, stderr := runBenchy(t, "runs", "list"); code != 1 || !strings.Contains(stderr, "not in a workspace") {
			t.Errorf("no workspace: exit %d\n%s", code, stderr)
		}
	}
	t.Chdir(dir)
	// A workspace with no store yet lists nothing and is left as it was.
	empty := t.TempDir()
	if code, stdout, stderr := runBenchy(t, "runs", "list", "--workspace", empty); code != 0 || stdout != "" || !strings.Contains(stderr, "no runs stored") {
		t.Errorf("empty workspace: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(empty, ".benchy")); err == nil {
		t.Errorf("runs list created a store")
	}

	// A run the dataset aborts is recorded as aborted, with no score and no result document.
	dataset := filepath.Join(dir, "data", "invoices.jsonl")
	original, _ := os.ReadFile(dataset)
	os.WriteFile(dataset, []byte(`{"input": {"image": "../images/none.png"}, "expected": {}}`+"\n"), 0o644)
	code, _, stderr = runBenchy(t, "run", "-o", out, bench)
	if code != 1 || !strings.Contains(stderr, "recorded as aborted in "+db) {
		t.Fatalf("aborted run: exit %d\n%s", code, stderr)
	}
	rows = listRows(t)
	if len(rows) != 3 || rows[0][1] != "aborted" || rows[0][3] != "-" || rows[0][4] != "0/0" {
		t.Errorf("after an aborted run: %q", rows)
	}
	if code, _, stderr := runBenchy(t, "runs", "export", rows[0][0]); code != 1 || !strings.Contains(stderr, "--format jsonl or csv") {
		t.Errorf("json export of an aborted run: exit %d\n%s", code, stderr)
	}

	// A store that cannot be opened is a warning: the result files are the run's output.
	os.WriteFile(dataset, original, 0o644)
	os.Rename(db, db+".away")
	os.Mkdir(db, 0o755)
	os.Remove(out)
	code, _, stderr = runBenchy(t, "run", "-o", out, bench)
	if _, err := os.Stat(out); code != 0 || err != nil || !strings.Contains(stderr, "warning: this run is not recorded") || strings.Contains(stderr, "stored in") {
		t.Errorf("unusable store: exit %d, %v\n%s", code, err, stderr)
	}
}

// inWorkspace reports whether dir or a directory above it is a workspace, as the machine
// running the test may have one above its temporary directory.
func inWorkspace(dir string) bool {
	for {
		for _, name := range []string{".benchy", "benchy.runtime.yaml"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				return true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// withoutRows parses JSON lines, checking that each one that has "input" and "expected"
// has both, and drops them: the export's lines are the stream's with the row beside.
func withoutRows(t *testing.T, lines []string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		_, in := m["input"]
		_, exp := m["expected"]
		if in != exp {
			t.Errorf("a line with only one of input and expected: %s", l)
		}
		delete(m, "input")
		delete(m, "expected")
		out = append(out, m)
	}
	return out
}

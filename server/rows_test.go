package server

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// Pages of results carry each example's input and expected output from the dataset: blank
// lines, a BOM, CRLF and long rows do not shift which row is whose.
func TestWithRows(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 600<<10) // longer than the reader's buffer
	rows := "\xef\xbb\xbf" + `{"input":{"t":"zero"},"expected":{"l":"a"}}` + "\r\n\n   \n" +
		`{"input":{"t":"` + long + `"},"expected":{"l":"b"}}` + "\n" +
		`{"input":{"t":"two"},"expected":{"l":"c"}}` // no final newline
	os.MkdirAll(filepath.Join(dir, "b", "data"), 0o755)
	os.WriteFile(filepath.Join(dir, "b", "data", "rows.jsonl"), []byte(rows), 0o644)
	s, err := New(Config{Workspace: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run := store.Run{Benchmark: "b/benchmark.yaml", IR: json.RawMessage(`{"data":{"format":"jsonl","path":"./data/rows.jsonl"}}`)}
	indices := []int{2, 0, 1, 7}
	version := func() fs.FileInfo { // the dataset as a page finds it, its digest checked
		info, err := s.statRegular(datasetPath(run))
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	got, _ := s.rowsOf(datasetPath(run), version(), indices, make([]int, len(indices)), maxPageBytes)
	want := []string{`"two"`, `"zero"`, long[:100], ""}
	for k, row := range got {
		var r struct {
			Input    any            `json:"input"`
			Expected map[string]any `json:"expected"`
		}
		r.Input = row.Input
		if row.Input != nil {
			json.Unmarshal(row.Input, &r.Input)
		}
		json.Unmarshal(row.Expected, &r.Expected)
		switch {
		case want[k] == "":
			if row.Input != nil {
				t.Errorf("index %d beyond the dataset got an input", indices[k])
			}
		case !strings.Contains(fmt.Sprint(r.Input), strings.Trim(want[k], `"`)):
			t.Errorf("index %d: input %.40v, expected %v", indices[k], r.Input, r.Expected)
		}
		// The long row is clipped: its start, read alone, and not what follows the cut.
		if long := indices[k] == 1; row.Clipped != long || long && (row.Expected != nil || !strings.Contains(string(row.Input), "[clipped: over ")) ||
			!long && want[k] != "" && r.Expected == nil {
			t.Errorf("index %d: clipped %v, expected %s, input %d bytes", indices[k], row.Clipped, row.Expected, len(row.Input))
		}
	}
	// The dataset changes: the index is rebuilt.
	os.WriteFile(filepath.Join(dir, "b", "data", "rows.jsonl"), []byte(`{"input":{"t":"new"},"expected":{"l":"z"}}`+"\n"), 0o644)
	later := time.Now().Add(time.Hour) // a new version even within the clock's resolution
	os.Chtimes(filepath.Join(dir, "b", "data", "rows.jsonl"), later, later)
	got, _ = s.rowsOf(datasetPath(run), version(), []int{0}, []int{0}, maxPageBytes)
	if !strings.Contains(string(got[0].Input), `"new"`) {
		t.Errorf("after the dataset changed: %s", got[0].Input)
	}
	// The dataset is replaced by another file of the same size and time (a rename over
	// it, as editors and rsync write): the index is rebuilt, its rows not another's.
	data := filepath.Join(dir, "b", "data", "rows.jsonl")
	os.WriteFile(data, []byte(`{"input":{"t":"aa"}}`+"\n"+`{"input":{"t":"b"}}`+"\n"), 0o644)
	os.Chtimes(data, later, later)
	rowsOf := func() string {
		got, _ := s.rowsOf(datasetPath(run), version(), []int{1}, []int{0}, maxPageBytes)
		return string(got[0].Input)
	}
	if in := rowsOf(); !strings.Contains(in, `"b"`) {
		t.Fatalf("before the rename: %s", in)
	}
	os.WriteFile(data+".new", []byte(`{"input":{"t":"a"}}`+"\n"+`{"input":{"t":"bb"}}`+"\n"), 0o644)
	os.Chtimes(data+".new", later, later)
	if err := os.Rename(data+".new", data); err != nil {
		t.Fatal(err)
	}
	if in := rowsOf(); !strings.Contains(in, `"bb"`) {
		t.Errorf("after a rename of a file of the same size and time over it: %q", in)
	}
	// A dataset outside the workspace is not read.
	run.IR = json.RawMessage(`{"data":{"path":"../../../etc/passwd"}}`)
	if datasetPath(run) != "" {
		t.Errorf("datasetPath escaped the workspace: %q", datasetPath(run))
	}
}

// TestHardeningRowsNeverPrivate: the pages of a run whose IR names the runtime file, .env or
// the store as its dataset (a stored IR is data too) show none of their lines.
func TestHardeningRowsNeverPrivate(t *testing.T) {
	for _, p := range []string{"./benchy.runtime.yaml", "../benchy.runtime.yaml", "./.env", "../.benchy/benchy.db", "./.hidden/rows.jsonl"} {
		run := store.Run{Benchmark: "b/benchmark.yaml", IR: json.RawMessage(`{"data":{"path":"` + p + `"}}`)}
		if got := datasetPath(run); got != "" {
			t.Errorf("data path %s is read for pages as %q", p, got)
		}
	}
}

// setFile writes a workspace file as another version of it, whatever the clock's grain.
func setFile(t *testing.T, name, text string, age time.Duration) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	when := time.Now().Add(-age)
	if err := os.Chtimes(name, when, when); err != nil {
		t.Fatal(err)
	}
}

// TestRowsOfTheRunsDataset: the results page of a run that did not record its rows, and
// the example grid, show a run's input and expected output only while its dataset is the
// one it took: line 1 changed, they show
// none and say why (rows_note), a dataset that no longer validates is a note too, never
// an error, and the dataset set back shows them again.
func TestRowsOfTheRunsDataset(t *testing.T) {
	dir, srv := twoSystems(t)
	id := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, id, store.Completed)
	forgetRows(t, dir, id) // its pages read the dataset (TestRecordedRowsShown)
	data := filepath.Join(dir, "data", "invoices.jsonl")
	orig, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what, note string) {
		t.Helper()
		var page api.ResultPage
		decode(t, srv, "GET", api.RunPath(id)+"/results?limit=3", "", http.StatusOK, &page)
		var grid api.Grid
		decode(t, srv, "GET", api.GridFor(url.Values{"benchmark_hash": {getRun(t, srv, id).BenchmarkHash}, "dataset_digest": {getRun(t, srv, id).DatasetDigest}}), "", http.StatusOK, &grid)
		if len(page.Results) != 3 || len(grid.Rows) == 0 {
			t.Fatalf("%s: %d results, %d rows", what, len(page.Results), len(grid.Rows))
		}
		shown := page.Results[0].Input != nil || page.Results[0].Expected != nil
		gridShown := grid.Rows[0].Input != nil || grid.Rows[0].Expected != nil
		if shown != (note == "") || gridShown != (note == "") || !strings.Contains(page.RowsNote, note) || !strings.Contains(grid.RowsNote, note) ||
			(note == "" && (page.RowsNote != "" || grid.RowsNote != "")) {
			t.Errorf("%s: rows shown %v (grid %v), notes %q and %q, want %q", what, shown, gridShown, page.RowsNote, grid.RowsNote, note)
		}
		if note == "" && !strings.Contains(string(page.Results[0].Expected), "F-001") {
			t.Errorf("%s: expected %s", what, page.Results[0].Expected)
		}
	}
	check("the dataset as run", "")
	changed := strings.Replace(string(orig), "F-001", "F-00X", 1)
	setFile(t, data, changed, time.Hour)
	check("line 1 changed", noteChanged)
	setFile(t, data, string(orig)+"not json\n", time.Hour)
	check("a row that does not validate", "does not validate now")
	setFile(t, data, string(orig), time.Hour)
	check("the dataset set back", "")
	setFile(t, data, changed, 2*time.Hour)
	check("line 1 changed again", noteChanged)
	// A known version's digest holds only while its files do (TestDigestSeesArtifactChange):
	// the images gone, the dataset does not validate now.
	images := filepath.Join(dir, "images")
	if err := os.Rename(images, images+".gone"); err != nil {
		t.Fatal(err)
	}
	defer os.Rename(images+".gone", images)
	check("the images of a known version gone", "does not validate now")
}

// TestPartialRow: the start of a long row shows the values it holds whole and the start of
// the one it cuts, marked, whatever their order and wherever the cut falls.
func TestPartialRow(t *testing.T) {
	long := strings.Repeat("é", 3*maxCellBytes)
	tests := []struct {
		name, row       string
		input, expected string // "" none, "clipped" the start and the marker, else the value
	}{
		{"cut in the expected output", `{"input": {"t": "a"}, "expected": {"l": "` + long + `"}}`, `{"t": "a"}`, "clipped"},
		{"cut in the input", `{"input": {"t": "` + long + `"}, "expected": {"l": "b"}}`, "clipped", ""},
		{"expected first", `{"expected": {"l": "b"}, "id": 7, "input": {"t": "` + long + `"}}`, "clipped", `{"l": "b"}`},
		{"cut in a key", `{"expected": {"l": "b"}, "` + long + `": 1, "input": {"t": "a"}}`, "", ""},
		{"no input", `{"expected": {"l": "` + long + `"}}`, "", ""},
	}
	for _, tt := range tests {
		start := []byte(tt.row[:maxRowRead])
		got := partialRow(start)
		for _, c := range []struct {
			what string
			got  json.RawMessage
			want string
		}{{"input", got.Input, tt.input}, {"expected", got.Expected, tt.expected}} {
			var s string
			switch {
			case c.want == "" && c.got != nil, c.want == "clipped" && (json.Unmarshal(c.got, &s) != nil || !strings.Contains(s, "… [clipped: over ") || len(c.got) > 2*maxCellBytes),
				c.want != "" && c.want != "clipped" && string(c.got) != c.want:
				t.Errorf("%s: %s %.80s, want %s", tt.name, c.what, c.got, c.want)
			}
		}
		if got.Input != nil && !got.Clipped {
			t.Errorf("%s: not marked clipped", tt.name)
		}
	}
}

// datasetPath is the workspace path of a run's dataset, or "" when it is not inside the
// workspace (or the IR does not say).
func datasetPath(run store.Run) string {
	var b struct {
		Data struct {
			Path string `json:"path"`
		} `json:"data"`
	}
	if json.Unmarshal(run.IR, &b) != nil {
		return ""
	}
	return datasetPathOf(run.Benchmark, b.Data.Path)
}

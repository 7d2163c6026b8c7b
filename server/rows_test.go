package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	page := store.Page{}
	for _, i := range []int{2, 0, 1, 7} {
		page.Results = append(page.Results, json.RawMessage(fmt.Sprintf(`{"index":%d,"status":"valid"}`, i)))
	}
	got := s.withRows(run, page)
	want := []string{`"two"`, `"zero"`, long, ""}
	for k, res := range got.Results {
		var r struct {
			Index    int            `json:"index"`
			Input    map[string]any `json:"input"`
			Expected map[string]any `json:"expected"`
		}
		if err := json.Unmarshal(res, &r); err != nil {
			t.Fatalf("result %d is not JSON: %v", k, err)
		}
		switch {
		case want[k] == "":
			if r.Input != nil {
				t.Errorf("index %d beyond the dataset got an input", r.Index)
			}
		case !strings.Contains(fmt.Sprint(r.Input["t"]), strings.Trim(want[k], `"`)) || r.Expected == nil:
			t.Errorf("index %d: input %.40v, expected %v", r.Index, r.Input, r.Expected)
		}
	}
	// The dataset changes: the index is rebuilt.
	os.WriteFile(filepath.Join(dir, "b", "data", "rows.jsonl"), []byte(`{"input":{"t":"new"},"expected":{"l":"z"}}`+"\n"), 0o644)
	later := time.Now().Add(time.Hour) // a new version even within the clock's resolution
	os.Chtimes(filepath.Join(dir, "b", "data", "rows.jsonl"), later, later)
	got = s.withRows(run, store.Page{Results: []json.RawMessage{json.RawMessage(`{"index":0}`)}})
	if !strings.Contains(string(got.Results[0]), `"new"`) {
		t.Errorf("after the dataset changed: %s", got.Results[0])
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

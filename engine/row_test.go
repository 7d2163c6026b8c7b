package engine

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestResultCarriesRow: each result carries its dataset row as the file wrote it (key
// order, spacing inside, artifact paths as written, not the absolute paths the adapter
// is given), and the results stream (A.14) does not.
func TestResultCarriesRow(t *testing.T) {
	rows := []string{
		`{"expected":{"n":1,"label":"yes"},"input":{"doc":"./files/../files/a.txt","text":"a"}}`,
		`  {"input": {"text":"b\u00e9", "doc":"files/a.txt"}, "expected": {"label":"no","n":2}}  `,
	}
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/exam.jsonl":  jsonl(rows...),
		"data/files/a.txt": "first",
	})
	var mu sync.Mutex
	got := map[int]string{}
	var c counter
	rr, err := run(t, compileYAML(t, datasetBench), root, &c, func(_ context.Context, i int, in map[string]any) (any, error) {
		return map[string]any{"label": "yes", "n": 1}, nil
	}, Options{Concurrency: 2, OnResult: func(res ExampleResult, _ bool) {
		mu.Lock()
		got[res.Index] = string(res.Row)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range rows {
		if want = string(bytes.TrimSpace([]byte(want))); got[i] != want {
			t.Errorf("result %d's row %s, want %s", i, got[i], want)
		}
	}
	if bytes.Contains(rr.raw, []byte("files/a.txt")) || bytes.Contains(rr.raw, []byte(`"input"`)) {
		t.Errorf("the results stream has the row: %s", rr.raw)
	}
}

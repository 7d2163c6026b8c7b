package engine

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestReportCountsCache: the report's cache counts the examples whose usage says where the
// reply came from (hits true, misses false) and is absent when none says.
func TestReportCountsCache(t *testing.T) {
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/exam.jsonl": jsonl(goodRow, goodRow, goodRow, goodRow), "data/files/a.txt": "x"})
	yes, no := true, false
	for _, c := range []struct {
		name   string
		cached []*bool
		want   string
	}{
		{"no cache", []*bool{nil, nil, nil, nil}, "null"},
		{"hits and misses", []*bool{&yes, &no, &yes, nil}, `{"hits":2,"misses":1}`},
	} {
		var k counter
		rr, err := run(t, compileYAML(t, datasetBench), root, &k, func(_ context.Context, i int, _ map[string]any) (any, error) {
			return &Answer{Output: map[string]any{"label": "yes", "n": json.Number("1")}, Usage: &Usage{Cached: c.cached[i]}}, nil
		}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(rr.report.Cache)
		if string(got) != c.want {
			t.Errorf("%s: cache %s, want %s", c.name, got, c.want)
		}
	}
}

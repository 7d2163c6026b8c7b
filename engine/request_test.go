package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestBoundRequest: a rendered request is kept whole up to MaxRequest, and a longer one is
// cut at a character boundary with a marker naming its length.
func TestBoundRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		cut  bool
	}{
		{"empty", "", false},
		{"short", `{"model":"m"}`, false},
		{"at the bound", strings.Repeat("a", MaxRequest), false},
		{"over", strings.Repeat("a", MaxRequest+1), true},
		{"over inside a character", strings.Repeat("a", MaxRequest-1) + "é" + strings.Repeat("b", 10), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := boundRequest(tc.in)
			if !utf8.ValidString(got) {
				t.Fatalf("boundRequest cut a character: %q", got[len(got)-40:])
			}
			if !tc.cut {
				if got != tc.in {
					t.Fatalf("boundRequest changed a request of %d bytes", len(tc.in))
				}
				return
			}
			if len(got) > MaxRequest+64 || !strings.Contains(got, "(cut: the request was") {
				t.Fatalf("boundRequest(%d bytes) = %d bytes, tail %q", len(tc.in), len(got), got[len(got)-40:])
			}
		})
	}
}

// TestRecordRequests: the examples that keep the request sent are the first by index
// (DefaultRecordRequests unless told), the same at any concurrency; RecordAll keeps every
// one, RecordNone none, and a failure keeps its request as an answer does.
func TestRecordRequests(t *testing.T) {
	var rows []string
	for i := range 30 {
		rows = append(rows, fmt.Sprintf(`{"input":{"doc":"files/a.txt","text":"t%d"},"expected":{"label":"yes","n":1}}`, i))
	}
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
		"data/exam.jsonl":  jsonl(rows...),
		"data/files/a.txt": "first",
	})
	for _, c := range []struct {
		name   string
		record int
		kept   func(i int) bool
	}{
		{"default", 0, func(i int) bool { return i < DefaultRecordRequests }},
		{"first 5", 5, func(i int) bool { return i < 5 }},
		{"all", RecordAll, func(int) bool { return true }},
		{"none", RecordNone, func(int) bool { return false }},
	} {
		for _, workers := range []int{1, 8} {
			var mu sync.Mutex
			got := map[int]string{}
			var n counter
			_, err := run(t, compileYAML(t, datasetBench), root, &n, func(ctx context.Context, i int, in map[string]any) (any, error) {
				if KeepsRequest(ctx) != c.kept(i) {
					t.Errorf("%s, %d workers: example %d's adapter is told the run keeps its request: %v, want %v", c.name, workers, i, KeepsRequest(ctx), c.kept(i))
				}
				sent := fmt.Sprintf("POST {base_url}/x\n{\"i\": %d}", i)
				if i%3 == 0 {
					return nil, &Failure{Status: StatusExecutionError, Code: "provider_error", Message: "HTTP 500", Request: sent}
				}
				return &Answer{Output: map[string]any{"label": "yes", "n": 1}, Request: sent}, nil
			}, Options{Concurrency: workers, RecordRequests: c.record, OnResult: func(res ExampleResult, _ bool) {
				mu.Lock()
				got[res.Index] = res.Request
				mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			for i := range rows {
				if kept := got[i] != ""; kept != c.kept(i) {
					t.Errorf("%s, %d workers: example %d keeps its request: %v, want %v", c.name, workers, i, kept, c.kept(i))
				}
			}
		}
	}
}

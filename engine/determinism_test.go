package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// mixedRun lays out n examples of statusBench and an AI-system whose answers depend only on
// the example (valid and right, valid and wrong, invalid, failing) but whose latency varies
// at random, so that workers finish out of order.
func mixedRun(t testing.TB, n int) (*ir.Benchmark, string, answerFunc) {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf(`{"input":{"text":"%d"},"expected":{"name":"N%d","count":%d,"kind":"a","when":"2026-01-01","meta":{"ok":true},"file":"f.txt"}}`, i, i, i)
	}
	root := testkit.WriteFiles(t, t.TempDir(), map[string]string{"data/exam.jsonl": jsonl(rows...), "data/f.txt": "x"})
	f := filepath.Join(root, "data", "f.txt")
	answer := func(_ context.Context, i int, in map[string]any) (any, error) {
		time.Sleep(rand.N(200 * time.Microsecond))
		if in["text"] != fmt.Sprint(i) {
			return nil, fmt.Errorf("example %d got input %v", i, in)
		}
		out := map[string]any{"name": fmt.Sprintf("N%d", i), "count": i, "kind": "a", "when": "2026-01-01",
			"meta": map[string]any{"ok": true}, "file": f}
		switch i % 7 {
		case 1:
			out["name"] = "wrong"
		case 2:
			out["count"] = i + 1
		case 3:
			delete(out, "kind")
		case 4:
			return nil, errors.New("flaky")
		case 5:
			return nil, ExecutionError(diag.Timeout, "slow")
		case 6:
			out["when"] = 20260101
		}
		return out, nil
	}
	return compileYAML(t, statusBench), root, answer
}

// TestDeterminism: concurrency is an optimisation that must not change semantics (A.10):
// the same run at 1 and 16 workers writes byte-identical results and the same report, but
// for the number of workers.
func TestDeterminism(t *testing.T) {
	b, root, answer := mixedRun(t, 400)
	fixed := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return fixed }
	var raws [][]byte
	var reports [][]byte
	for _, workers := range []int{1, 16, 16} {
		var c counter
		rr, err := run(t, b, root, &c, answer, Options{Concurrency: workers, Clock: clock, IRHash: "sha256:x", Binding: "sys-1"})
		if err != nil {
			t.Fatal(err)
		}
		if rr.report.Concurrency != workers {
			t.Errorf("report says concurrency %d, want %d", rr.report.Concurrency, workers)
		}
		rr.report.Concurrency = 0
		rep, _ := json.Marshal(rr.report)
		raws = append(raws, rr.raw)
		reports = append(reports, rep)
		if rr.report.Summary.Valid == 0 || rr.report.Summary.InvalidOutputs == 0 || rr.report.Summary.ExecutionErrors == 0 {
			t.Fatalf("the run should mix every status: %+v", rr.report.Summary)
		}
		for i, res := range rr.results {
			if res.Index != i {
				t.Fatalf("result %d has index %d: results are not in index order", i, res.Index)
			}
		}
	}
	for i := 1; i < len(raws); i++ {
		if !bytes.Equal(raws[0], raws[i]) {
			t.Errorf("results differ between concurrency 1 and 16 (run %d)", i)
		}
		if !bytes.Equal(reports[0], reports[i]) {
			t.Errorf("reports differ:\n%s\n%s", reports[0], reports[i])
		}
	}
}

// TestProgress: progress is reported once per example, in order, ending at the total.
func TestProgress(t *testing.T) {
	b, root, answer := mixedRun(t, 50)
	var seen []int
	var last Progress
	var c counter
	_, err := run(t, b, root, &c, answer, Options{Concurrency: 8, Progress: func(p Progress) {
		seen = append(seen, p.Done)
		last = p
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range seen {
		if d != i+1 {
			t.Fatalf("progress %d reports %d done", i, d)
		}
	}
	if len(seen) != 50 || last.Total != 50 || last.Summary.Examples != 50 {
		t.Errorf("last progress %+v after %d calls", last, len(seen))
	}
}

package server

import (
	"encoding/json"
	"testing"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// storeRun writes into workspace dir's store one completed run of benchmark src with n
// results, result(i) the i-th (its Row and Expected set from row(i)), counted as
// workspace.Execute counts a run (store.Labels), without running anything: the tests of
// what a large run costs to show build one in milliseconds. It returns the run's id.
func storeRun(t *testing.T, dir, src string, n int, row func(i int) (input, expected map[string]any), result func(i int) engine.ExampleResult) string {
	t.Helper()
	canonical, _, ds := compiler.CompileCanonical([]byte(src))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	hash, err := ir.BenchmarkHash(canonical)
	if err != nil {
		t.Fatal(err)
	}
	st := storeBeside(t, dir)
	sys := engine.NewSystem(ir.AISystem{Type: ir.SystemExternal, ID: "system-00"}, "", "local", "")
	run, err := st.CreateRun(store.RunSpec{Benchmark: "b.yaml", IR: canonical, IRHash: "sha256:stored",
		AISystem: sys.Definition, Binding: "local", BenchmarkHash: hash, System: &sys})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.MarkRunning(run.ID, n); err != nil {
		t.Fatal(err)
	}
	bm, err := ir.Unmarshal(canonical)
	if err != nil {
		t.Fatal(err)
	}
	rw := st.ResultWriter(run.ID, store.Labels(store.EnumsOf(bm)))
	rep := &engine.Report{Version: engine.ResultVersion, BenchmarkHash: hash, Summary: engine.Summary{Examples: n}}
	for i := range n {
		in, exp := row(i)
		res := result(i)
		res.Index = i
		res.Expected = exp
		if res.Row, err = json.Marshal(map[string]any{"input": in, "expected": exp}); err != nil {
			t.Fatal(err)
		}
		switch res.Status {
		case engine.StatusValid:
			rep.Summary.Valid++
		case engine.StatusInvalidOutput:
			rep.Summary.InvalidOutputs++
		default:
			rep.Summary.ExecutionErrors++
		}
		rep.BenchmarkScore += res.Contribution / float64(n)
		if err := rw.Add(res); err != nil {
			t.Fatal(err)
		}
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Finish(run.ID, rep); err != nil {
		t.Fatal(err)
	}
	return run.ID
}

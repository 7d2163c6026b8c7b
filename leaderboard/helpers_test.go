package leaderboard

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

const (
	bench   = "sha256:b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
	digestA = "sha256:da7a000000000000000000000000000000000000000000000000000000000000"
	digestB = "sha256:da7ab00000000000000000000000000000000000000000000000000000000000"
)

// openStore opens a fresh store in a test directory.
func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), ".benchy", "benchy.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// stored is a run to store: a system (label, and a fingerprint to make two systems of one
// label), a dataset, a --limit and each example's contribution (1 valid right, 0 valid
// wrong, -1 an execution error).
type stored struct {
	label, fingerprint string
	digest             string
	limit              int
	q                  []float64
	latency            float64 // recorded on every example when above 0
}

// system is the engine.System of a run of label through a binding of fingerprint.
func system(label, fingerprint string) *engine.System {
	s := engine.NewSystem(ir.AISystem{Type: ir.SystemExternal, ID: label}, "", "local", fingerprint)
	return &s
}

// store stores r as a completed run of the benchmark and returns its id.
func (r stored) store(t testing.TB, st *store.Store) string {
	t.Helper()
	run, err := st.CreateRun(store.RunSpec{Benchmark: "b.yaml", IR: json.RawMessage(`{}`), IRHash: "sha256:ir-" + r.label,
		AISystem: map[string]any{"type": "external", "id": r.label}, Binding: "local",
		Options: store.Options{Limit: r.limit}, BenchmarkHash: bench, System: system(r.label, r.fingerprint)})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.MarkRunning(run.ID, len(r.q)); err != nil {
		t.Fatal(err)
	}
	w := st.ResultWriter(run.ID)
	rep := &engine.Report{Version: engine.ResultVersion, DatasetDigest: r.digest, BenchmarkHash: bench, Limit: r.limit,
		Summary: engine.Summary{Examples: len(r.q)}}
	right, sum := 0, 0.0
	scores := make([]float64, len(r.q))
	for i, q := range r.q {
		res := engine.ExampleResult{Index: i, Status: engine.StatusValid, Contribution: max(q, 0)}
		if q < 0 {
			res.Status = engine.StatusExecutionError
			rep.Summary.ExecutionErrors++
		} else {
			res.Score = &res.Contribution
			res.FieldScores = []engine.FieldScore{{Path: []string{"label"}, Score: q, Weight: 1}}
			rep.Summary.Valid++
			if q == 1 {
				right++
			}
		}
		if r.latency > 0 {
			res.Usage = &engine.Usage{LatencyMS: r.latency * float64(i+1)}
		}
		scores[i] = res.Contribution
		sum += res.Contribution
		if err := w.Add(res); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(r.q) > 0 {
		rep.BenchmarkScore = sum / float64(len(r.q))
	}
	acc := 0.0
	if rep.Summary.Valid > 0 {
		acc = float64(right) / float64(rep.Summary.Valid)
	}
	rep.Dimensions = []engine.DimensionAccuracy{{Path: []string{"label"}, Weight: 1, Correct: right, Valid: rep.Summary.Valid, Accuracy: &acc}}
	rep.Confidence = engine.Interval{Level: 0.95, Low: rep.BenchmarkScore - 0.1, High: rep.BenchmarkScore + 0.1, Method: "test"}
	if err := st.Finish(run.ID, rep); err != nil {
		t.Fatal(err)
	}
	return run.ID
}

// ones is n contributions, the first k of them 1 and the rest 0.
func ones(n, k int) []float64 {
	q := make([]float64, n)
	for i := range k {
		q[i] = 1
	}
	return q
}

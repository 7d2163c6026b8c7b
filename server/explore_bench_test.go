package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

const exploreExamples = 1_000_000

// BenchmarkExplore times, at the handler, filtered pages of 50 results of one completed
// run of 1,000,000 results in a real SQLite store (its rows recorded, as runs record them
// since migration 5): each filter of the results explorer, a deep page, an example's
// detail and the charts (counted, and kept). Target: p95 ≤ 200 ms a page. Skipped with
// -short.
func BenchmarkExplore(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a store of a million results")
	}
	dir := b.TempDir()
	start := time.Now()
	id := buildExploreRun(b, dir, exploreExamples)
	fi, _ := os.Stat(store.Path(dir))
	b.Logf("a run of %d results, %d MB, built in %v", exploreExamples, fi.Size()>>20, time.Since(start).Round(time.Millisecond))
	s, err := New(Config{Workspace: dir, AllowedHosts: []string{"bench.test"}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h := s.Handler()
	get := func(b *testing.B, path string, v any) time.Duration {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		req.Host = "bench.test"
		t0 := time.Now()
		h.ServeHTTP(rec, req)
		took := time.Since(t0)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		if v != nil {
			if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
				b.Fatal(err)
			}
		}
		return took
	}
	for _, c := range []struct{ name, query string }{
		{"all", ""},
		{"deep", "after=900000"},
		{"status", "status=execution_error"},
		{"imperfect", "imperfect=1"},
		{"imperfect-by-score", "imperfect=1&sort=score"},
		{"wrong", "wrong=label"},
		{"code", "code=timeout"},
		{"text", "q=number+99999"},
		{"text-rare", "q=no+such+text"},
		{"cell", "field=label&expected=l1&predicted=l2"},
		{"status-and-text", "status=valid&q=number+5"},
		{"score-bin", "score_min=0.9&score_max=1&imperfect=1"},
		{"score-perfect", "score_min=1&score_max=1"},
		{"score-range-by-score", "score_min=0&score_max=0.5&sort=score"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				var p api.ResultPage
				took = append(took, get(b, api.RunPath(id)+"/results?limit=50&"+c.query, &p))
			}
			report(b, took, "page")
		})
	}
	b.Run("detail", func(b *testing.B) {
		var took []time.Duration
		i := 0
		for b.Loop() {
			var d api.ExampleDetail
			took = append(took, get(b, api.ExamplePath(id, (i*7919)%exploreExamples)+"?imperfect=1", &d))
			i++
		}
		report(b, took, "detail")
	})
	b.Run("run-cold", func(b *testing.B) { // its health: the most frequent error counted
		var took []time.Duration
		for b.Loop() {
			s.chartsC = chartsCache{}
			var v api.Run
			took = append(took, get(b, api.RunPath(id), &v))
			if v.Health == nil || v.Health.Code != "timeout" {
				b.Fatalf("health %+v", v.Health)
			}
		}
		report(b, took, "run")
	})
	b.Run("charts-cold", func(b *testing.B) { // counted by the store each time
		var took []time.Duration
		for b.Loop() {
			s.chartsC = chartsCache{}
			var c api.Charts
			took = append(took, get(b, api.ChartsPath(id), &c))
		}
		report(b, took, "charts")
	})
	b.Run("charts", func(b *testing.B) { // a completed run's, kept
		var took []time.Duration
		for b.Loop() {
			var c api.Charts
			took = append(took, get(b, api.ChartsPath(id), &c))
		}
		report(b, took, "charts")
	})
}

// report reports the p50 and p95 of took, in ms.
func report(b *testing.B, took []time.Duration, what string) {
	slices.Sort(took)
	q := func(p float64) float64 {
		return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms/"+what)
	b.ReportMetric(q(0.95), "p95-ms/"+what)
}

// buildExploreRun writes workspace dir (b.yaml, data.jsonl) and a store with one completed
// run of n results of its classify benchmark (boardYAML): every 37th an execution error
// (timeout), every 101st an invalid output, the others right 60% of the time, each with
// its dataset row. It returns the run's id.
func buildExploreRun(b *testing.B, dir string, n int) string {
	data := make([]byte, 0, 64*n)
	for i := range n {
		data = fmt.Appendf(data, `{"input": {"text": "example number %d"}, "expected": {"label": "l%d"}}`+"\n", i, i%7)
	}
	if err := os.WriteFile(filepath.Join(dir, "data.jsonl"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(boardYAML), 0o644); err != nil {
		b.Fatal(err)
	}
	canonical, _, ds := compiler.CompileCanonical([]byte(boardYAML))
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	hash, err := ir.BenchmarkHash(canonical)
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(store.Path(dir))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sys := engine.NewSystem(ir.AISystem{Type: ir.SystemExternal, ID: "system-00"}, "", "local", "")
	run, err := st.CreateRun(store.RunSpec{Benchmark: "b.yaml", IR: canonical, IRHash: "sha256:explore",
		AISystem: sys.Definition, Binding: "local", BenchmarkHash: hash, System: &sys})
	if err != nil {
		b.Fatal(err)
	}
	st.MarkRunning(run.ID, n)
	bm, err := ir.Unmarshal(canonical)
	if err != nil {
		b.Fatal(err)
	}
	rw := st.ResultWriter(run.ID, store.Labels(store.EnumsOf(bm))) // as workspace.Execute writes a run
	rep := &engine.Report{Version: engine.ResultVersion, BenchmarkHash: hash, Summary: engine.Summary{Examples: n},
		Dimensions: []engine.DimensionAccuracy{{Path: []string{"label"}, Weight: 1}}}
	sum := 0.0
	for i := range n {
		res := engine.ExampleResult{Index: i,
			Row: fmt.Appendf(nil, `{"input": {"text": "example number %d"}, "expected": {"label": "l%d"}}`, i, i%7)}
		switch {
		case i%37 == 0:
			res.Status = engine.StatusExecutionError
			res.Error = &engine.ResultError{Code: "timeout", Message: "no answer in time"}
			rep.Summary.ExecutionErrors++
		case i%101 == 0:
			res.Status = engine.StatusInvalidOutput
			res.Prediction = map[string]any{"label": "l9"}
			res.Error = &engine.ResultError{Code: "invalid_enum", Path: []string{"label"}, Message: "label is not one of l0, ..., l6"}
			rep.Summary.InvalidOutputs++
		default:
			q := 0.0
			if (i*2654435761)%100 >= 40 {
				q = 1
			}
			res.Status = engine.StatusValid
			res.Prediction = map[string]any{"label": fmt.Sprintf("l%d", (i+int(1-q))%7)}
			res.FieldScores = []engine.FieldScore{{Path: []string{"label"}, Score: q, Weight: 1}}
			res.Score, res.Contribution = &q, q
			rep.Summary.Valid++
			rep.Dimensions[0].Valid++
			rep.Dimensions[0].Correct += int(q)
		}
		sum += res.Contribution
		if err := rw.Add(res); err != nil {
			b.Fatal(err)
		}
	}
	if err := rw.Close(); err != nil {
		b.Fatal(err)
	}
	rep.BenchmarkScore = sum / float64(n)
	acc := float64(rep.Dimensions[0].Correct) / float64(rep.Dimensions[0].Valid)
	rep.Dimensions[0].Accuracy = &acc
	rep.Confidence = engine.Interval{Level: 0.95, Low: rep.BenchmarkScore - 0.001, High: rep.BenchmarkScore + 0.001, Method: "normal"}
	if err := st.Finish(run.ID, rep); err != nil {
		b.Fatal(err)
	}
	return run.ID
}

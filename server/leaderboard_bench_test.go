package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/leaderboard"
	"github.com/benchy-eval/benchy/store"
)

const (
	boardSystems  = 10
	boardExamples = 100_000
)

// boardYAML is the benchmark of the store buildBoardWorkspace makes: its runs are of its
// hash and of its dataset's digest, so that the grid shows the dataset's rows.
const boardYAML = `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: classify
  domain: general
  language: en
program:
  input:
    text: string
  output:
    label:
      enum: [l0, l1, l2, l3, l4, l5, l6]
scoring:
  weights:
    label: 1
  aggregator: weighted_mean
data:
  path: ./data.jsonl
ai-system:
  type: external
  id: system-00
`

// BenchmarkLeaderboard times, at the handler, the leaderboard of 10 systems × 100,000
// examples in a real SQLite store (made with store.ResultWriter, once per benchmark run,
// in a temporary workspace with its 100,000-row dataset): cold (an empty cache: every
// result's columns read), warm, and a page of the example grid (50 examples × 10 systems)
// unfiltered, deep and filtered. Targets: cold ≤ 1 s, warm ≤ 50 ms, grid ≤ 100 ms. Skipped
// with -short. cpu-ms/board is the process's CPU time: what the wall time is on 2 idle
// cores, about half of it (the runs are read two at a time).
func BenchmarkLeaderboard(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a store of a million results")
	}
	dir := b.TempDir()
	start := time.Now()
	boardHash, boardDigest := buildBoardWorkspace(b, dir)
	fi, _ := os.Stat(store.Path(dir))
	b.Logf("a store of %d runs × %d results, %d MB, built in %v", boardSystems, boardExamples, fi.Size()>>20, time.Since(start).Round(time.Millisecond))
	s, err := New(Config{Workspace: dir, AllowedHosts: []string{"bench.test"}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h := s.Handler()
	keys := url.Values{"benchmark_hash": {boardHash}, "dataset_digest": {boardDigest}}
	get := func(b *testing.B, path string, v any) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		req.Host = "bench.test"
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		if v != nil {
			if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
				b.Fatal(err)
			}
		}
	}
	saved := boards
	defer func() { boards = saved }()
	b.Run("cold", func(b *testing.B) {
		cpu := testkit.CPUTime()
		for b.Loop() {
			boards = leaderboard.NewCache(leaderboard.DefaultBytes)
			var board api.Leaderboard
			get(b, api.LeaderboardFor(keys), &board)
			if len(board.Entries) != boardSystems || board.Entries[0].DeltaInterval != nil || board.Entries[9].DeltaInterval == nil {
				b.Fatalf("board %+v", board.Entries[0])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/board")
		b.ReportMetric(float64((testkit.CPUTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/board")
	})
	boards = leaderboard.NewCache(leaderboard.DefaultBytes)
	get(b, api.LeaderboardFor(keys), nil)
	b.Run("warm", func(b *testing.B) {
		for b.Loop() {
			get(b, api.LeaderboardFor(keys), nil)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/board")
	})
	for _, c := range []struct{ name, query string }{
		{"grid", ""},
		{"grid-deep", "&after=90000"},
		{"grid-disagree", "&filter=disagree&after=50000"},
		{"grid-all-wrong-error", "&filter=all_wrong&status=execution_error"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				var g api.Grid
				get(b, api.GridFor(keys)+"&limit=50"+c.query, &g)
				if len(g.Rows) != 50 || len(g.Rows[0].Cells) != boardSystems || g.Rows[0].Input == nil {
					b.Fatalf("grid of %d rows, matched %d", len(g.Rows), g.Matched)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/page")
		})
	}
}

// buildBoardWorkspace writes workspace dir: b.yaml, data.jsonl, and a store with one
// completed run of each system over it; it returns their benchmark hash and dataset
// digest. System j answers example i right with a chance that falls with j, fails every
// 37th example plus j, and records a latency.
func buildBoardWorkspace(b *testing.B, dir string) (boardHash, boardDigest string) {
	f, err := os.Create(filepath.Join(dir, "data.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range boardExamples {
		fmt.Fprintf(w, `{"input": {"text": "example number %d"}, "expected": {"label": "l%d"}}`+"\n", i, i%7)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(boardYAML), 0o644); err != nil {
		b.Fatal(err)
	}
	canonical, _, ds := compiler.CompileCanonical([]byte(boardYAML))
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	bench, err := ir.Unmarshal(canonical)
	if err != nil {
		b.Fatal(err)
	}
	if boardHash, err = ir.BenchmarkHash(canonical); err != nil {
		b.Fatal(err)
	}
	v, err := engine.DatasetDigest(context.Background(), bench, dir, engine.Paths{Workspace: dir})
	if err != nil {
		b.Fatal(err)
	}
	boardDigest = v.Digest
	st, err := store.Open(store.Path(dir))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for j := range boardSystems {
		label := fmt.Sprintf("system-%02d", j)
		sys := engine.NewSystem(ir.AISystem{Type: ir.SystemExternal, ID: label}, "", "local", "")
		run, err := st.CreateRun(store.RunSpec{Benchmark: "b.yaml", IR: canonical,
			IRHash: "sha256:ir" + label, AISystem: sys.Definition, Binding: "local", BenchmarkHash: boardHash, System: &sys})
		if err != nil {
			b.Fatal(err)
		}
		st.MarkRunning(run.ID, boardExamples)
		rw := st.ResultWriter(run.ID)
		rep := &engine.Report{Version: engine.ResultVersion, BenchmarkHash: boardHash, DatasetDigest: boardDigest,
			Summary: engine.Summary{Examples: boardExamples}, Dimensions: []engine.DimensionAccuracy{{Path: []string{"label"}, Weight: 1}}}
		sum := 0.0
		for i := range boardExamples {
			res := engine.ExampleResult{Index: i, Status: engine.StatusValid, Usage: &engine.Usage{LatencyMS: float64(100 + (i*7+j)%400)}}
			if (i+j)%37 == 0 {
				res.Status = engine.StatusExecutionError
				res.Error = &engine.ResultError{Code: "timeout", Message: "no answer in time"}
				rep.Summary.ExecutionErrors++
			} else {
				q := 0.0
				if (i*2654435761+j*40503)%100 >= 40+3*j {
					q = 1
				}
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
		rep.BenchmarkScore = sum / boardExamples
		acc := float64(rep.Dimensions[0].Correct) / float64(rep.Dimensions[0].Valid)
		rep.Dimensions[0].Accuracy = &acc
		rep.Confidence = engine.Interval{Level: 0.95, Low: rep.BenchmarkScore - 0.003, High: rep.BenchmarkScore + 0.003, Method: "normal"}
		if err := st.Finish(run.ID, rep); err != nil {
			b.Fatal(err)
		}
	}
	return boardHash, boardDigest
}

package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/leaderboard"
	"github.com/benchy-eval/benchy/store"
)

// maxGridLimit is the most examples one page of the example grid holds.
const maxGridLimit = 200

// boards keeps what the leaderboards read of completed runs (they never change), shared
// by every leaderboard and example grid this process serves.
var boards = leaderboard.Default

// leaderboard answers GET /api/leaderboard?benchmark=PATH (the file's benchmark hash) or
// ?benchmark_hash=H, with ?dataset_digest=D or else the dataset of the benchmark's newest
// completed run. A benchmark without a completed run has a board with no entries.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	hash, digest, path, err := s.boardKeys(q)
	if err != nil {
		return err
	}
	board, err := boards.Build(s.st, hash, digest)
	if err != nil {
		return storeError(err)
	}
	board.Benchmark = path
	return writeJSON(w, http.StatusOK, board)
}

var hashPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// boardKeys reads which board a query names: its benchmark hash (a file's, compiled
// afresh, or given), its dataset digest ("" for the newest) and the file asked for.
func (s *Server) boardKeys(q url.Values) (hash, digest, path string, err error) {
	for _, k := range []string{"benchmark", "benchmark_hash", "dataset_digest"} {
		if len(q[k]) > 1 { // Get reads the first: the board of one, a page naming another
			return "", "", "", refuse(http.StatusBadRequest, api.BadRequest, "?%s= is given %d times: name it once", k, len(q[k]))
		}
	}
	digest = q.Get("dataset_digest")
	if digest != "" && !hashPattern.MatchString(digest) {
		return "", "", "", refuse(http.StatusBadRequest, api.BadRequest, "dataset_digest is sha256: and 64 lowercase hex digits")
	}
	path, hash = q.Get("benchmark"), q.Get("benchmark_hash")
	switch {
	case path != "" && hash != "":
		return "", "", "", refuse(http.StatusBadRequest, api.BadRequest, "name the benchmark once: ?benchmark=PATH or ?benchmark_hash=H")
	case hash != "":
		if !hashPattern.MatchString(hash) {
			return "", "", "", refuse(http.StatusBadRequest, api.BadRequest, "benchmark_hash is sha256: and 64 lowercase hex digits")
		}
		return hash, digest, "", nil
	case path == "":
		return "", "", "", refuse(http.StatusBadRequest, api.BadRequest, "name the benchmark: ?benchmark=PATH or ?benchmark_hash=H&dataset_digest=D")
	case !validBenchmarkPath(path):
		return "", "", "", refuse(http.StatusBadRequest, api.BadPath, "%s", badPathMessage)
	}
	src, version, err := s.readRegular(path, s.maxBenchmarkFile())
	if err != nil {
		return "", "", "", fileError("benchmark", path, err)
	}
	res, _, err := s.compileFile(path, src, version)
	if err != nil {
		return "", "", "", internalError(err)
	}
	if res.BenchmarkHash == "" {
		return "", "", "", refuse(http.StatusBadRequest, api.InvalidBenchmark, "%s does not compile (%d problems): it has no benchmark hash", path, len(res.Diagnostics))
	}
	return res.BenchmarkHash, digest, path, nil
}

// grid answers GET /api/leaderboard/examples: a page of the board's examples (those
// ?filter= and ?status= keep, after ?after=, at most ?limit=), each with its input and
// expected output from the dataset and every system's result. The filters run on the
// boards' cached outcomes; only the page's results are read.
func (s *Server) grid(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	gq := leaderboard.GridQuery{Filter: q.Get("filter"), Status: engine.Status(q.Get("status"))}
	switch gq.Filter {
	case "", "all", api.FilterDisagree, api.FilterAllWrong:
	default:
		return refuse(http.StatusBadRequest, api.BadRequest, "filter is %s or %s", api.FilterDisagree, api.FilterAllWrong)
	}
	switch gq.Status {
	case "", engine.StatusValid, engine.StatusInvalidOutput, engine.StatusExecutionError:
	default:
		return refuse(http.StatusBadRequest, api.BadRequest, "status is valid, invalid_output or execution_error")
	}
	var err error
	if gq.After, err = intParam(q, "after", store.First, store.First); err != nil {
		return err
	}
	if gq.Limit, err = intParam(q, "limit", 50, 1); err != nil {
		return err
	}
	gq.Limit = min(gq.Limit, maxGridLimit)
	hash, digest, _, err := s.boardKeys(q)
	if err != nil {
		return err
	}
	sel, err := boards.Select(s.st, hash, digest, gq)
	if err != nil {
		return storeError(err)
	}
	out := api.Grid{BenchmarkHash: sel.Board.BenchmarkHash, DatasetDigest: sel.Board.DatasetDigest,
		Systems: []api.GridSystem{}, Rows: make([]api.GridRow, len(sel.Indices)), Matched: sel.Matched, Next: sel.Next}
	for i, idx := range sel.Indices {
		out.Rows[i] = api.GridRow{Index: idx, Cells: make([]api.GridCell, len(sel.Runs))}
	}
	for j, run := range sel.Runs {
		out.Systems = append(out.Systems, api.GridSystem{System: sel.Board.Entries[j].System, Run: run.ID})
		results, err := s.st.ResultsAt(run.ID, sel.Indices)
		if err != nil {
			return storeError(err)
		}
		for i, idx := range sel.Indices {
			body, ok := results[idx]
			if !ok {
				continue
			}
			var res api.Result
			if err := json.Unmarshal(body, &res); err != nil {
				return internalError(fmt.Errorf("run %s, example %d: %w", run.ID, idx, err))
			}
			out.Rows[i].Cells[j] = api.GridCell{Status: res.Status, Prediction: res.Prediction, Score: res.Score,
				Fields: res.FieldScores, Error: res.Error}
			if out.Rows[i].Cells[j].Fields == nil {
				out.Rows[i].Cells[j].Fields = []api.FieldScore{}
			}
		}
	}
	if len(sel.Runs) > 0 && len(sel.Indices) > 0 {
		s.gridRows(sel.Runs[0].ID, out.Rows)
	}
	return writeJSON(w, http.StatusOK, out)
}

// gridRows fills each row's input and expected output from the dataset of run id (the
// leader's: every run of the board took the same dataset), through the rows index pages
// of results use (withRows). Rows it cannot read are left without.
func (s *Server) gridRows(id string, rows []api.GridRow) {
	run, err := s.st.GetRun(id) // with its IR, which names the dataset
	if err != nil {
		return
	}
	page := store.Page{Results: make([]json.RawMessage, len(rows))}
	for i, r := range rows {
		page.Results[i] = json.RawMessage(fmt.Sprintf(`{"index":%d}`, r.Index))
	}
	page = s.withRows(run, page)
	for i, body := range page.Results {
		var ex struct {
			Input    json.RawMessage `json:"input"`
			Expected json.RawMessage `json:"expected"`
		}
		if json.Unmarshal(body, &ex) == nil {
			rows[i].Input, rows[i].Expected = ex.Input, ex.Expected
		}
	}
}

package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/leaderboard"
	"github.com/benchy-eval/benchy/store"
)

// maxGridLimit is the most examples one page of the example grid holds.
const maxGridLimit = 200

// boards keeps what the leaderboards read of completed runs (they never change), shared
// by every leaderboard and example grid this process serves.
var boards = leaderboard.Default

// leaderboard answers GET /api/leaderboard?benchmark=PATH (the file's benchmark hash, on
// the file's dataset as it now stands) or ?benchmark_hash=H (on the dataset of the
// benchmark's newest completed run), or either with ?dataset_digest=D. A benchmark
// without a completed run of that dataset has a board with no entries.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	k, err := s.boardKeys(r.Context(), q)
	if err != nil {
		return err
	}
	board, err := boards.Build(s.st, k.hash, k.digest)
	if err != nil {
		return storeError(err)
	}
	board.Benchmark, board.DatasetNote = k.path, k.note
	return writeJSON(w, http.StatusOK, board)
}

var hashPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// badHash refuses value, given as query parameter name, when it is not a hash as the store
// keeps them ("" is none given): a malformed one would match nothing, and the answer would
// be an empty list or board rather than why.
func badHash(name, value string) error {
	if value == "" || hashPattern.MatchString(value) {
		return nil
	}
	return refuse(http.StatusBadRequest, api.BadRequest, "%s is sha256: and 64 lowercase hex digits", name)
}

// keys name a board: its benchmark hash and dataset digest ("" for the newest run's), the
// file asked for, and why the board is not of that file's dataset when it is not.
type keys struct {
	hash, digest, path, note string
}

// boardKeys reads which board a query names. A file's is of its hash, compiled afresh,
// and unless a digest is given of its dataset as it stands now: the benchmark hash covers
// data.path as written, so two folders' benchmarks with ./data/texts.jsonl share it, and
// only the dataset itself tells their exams apart. When the file's dataset does not
// validate now the board is of the newest run's dataset, and says so.
func (s *Server) boardKeys(ctx context.Context, q url.Values) (keys, error) {
	hash, digest, path, err := s.boardNames(q)
	if err != nil || path == "" {
		return keys{hash: hash, digest: digest}, err
	}
	src, version, err := s.readRegular(path, s.maxBenchmarkFile())
	if err != nil {
		return keys{}, fileError("benchmark", path, err)
	}
	res, _, err := s.compileFile(path, src, version)
	if err != nil {
		return keys{}, internalError(err)
	}
	if res.BenchmarkHash == "" {
		return keys{}, refuse(http.StatusBadRequest, api.InvalidBenchmark, "%s does not compile (%d problems): it has no benchmark hash", path, len(res.Diagnostics))
	}
	k := keys{hash: res.BenchmarkHash, digest: digest, path: path}
	if digest != "" {
		return k, nil
	}
	b, err := ir.Unmarshal(res.IR)
	if err != nil {
		return keys{}, internalError(err)
	}
	if now := s.datasetDigestNow(ctx, path, b, res.BenchmarkHash); now.digest != "" {
		k.digest = now.digest
	} else {
		k.note = path + ": " + now.why + "; the board is of the dataset of the newest completed run"
	}
	return k, nil
}

// boardNames reads the names a query gives: a benchmark hash, or a file (path) to compile,
// and a dataset digest.
func (s *Server) boardNames(q url.Values) (hash, digest, path string, err error) {
	for _, k := range []string{"benchmark", "benchmark_hash", "dataset_digest"} {
		if len(q[k]) > 1 { // Get reads the first: the board of one, a page naming another
			return "", "", "", refuse(http.StatusBadRequest, api.BadRequest, "?%s= is given %d times: name it once", k, len(q[k]))
		}
	}
	digest = q.Get("dataset_digest")
	if err := badHash("dataset_digest", digest); err != nil {
		return "", "", "", err
	}
	path, hash = q.Get("benchmark"), q.Get("benchmark_hash")
	switch {
	case path != "" && hash != "":
		return "", "", "", refuse(http.StatusBadRequest, api.BadRequest, "name the benchmark once: ?benchmark=PATH or ?benchmark_hash=H")
	case hash != "":
		if err := badHash("benchmark_hash", hash); err != nil {
			return "", "", "", err
		}
		return hash, digest, "", nil
	case path == "":
		return "", "", "", refuse(http.StatusBadRequest, api.BadRequest, "name the benchmark: ?benchmark=PATH or ?benchmark_hash=H&dataset_digest=D")
	case !validBenchmarkPath(path):
		return "", "", "", refuse(http.StatusBadRequest, api.BadPath, "%s", badPathMessage)
	}
	return "", digest, path, nil
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
	k, err := s.boardKeys(r.Context(), q)
	if err != nil {
		return err
	}
	sel, err := boards.Select(s.st, k.hash, k.digest, gq)
	if err != nil {
		return storeError(err)
	}
	out := api.Grid{BenchmarkHash: sel.Board.BenchmarkHash, DatasetDigest: sel.Board.DatasetDigest,
		Systems: []api.GridSystem{}, Rows: []api.GridRow{}, Matched: sel.Matched, Next: sel.Next}
	for j, run := range sel.Runs {
		out.Systems = append(out.Systems, api.GridSystem{System: sel.Board.Entries[j].System, Run: run.ID})
	}
	rows, sizes := make([]api.GridRow, len(sel.Indices)), make([]int, len(sel.Indices))
	for i, idx := range sel.Indices {
		rows[i] = api.GridRow{Index: idx, Cells: make([]api.GridCell, len(sel.Runs))}
	}
	// System by system, each cell clipped; the rows past the page's bound are dropped as
	// soon as they are, so that later systems read fewer.
	for j, run := range sel.Runs {
		cells, err := s.st.Cells(run.ID, sel.Indices[:len(rows)])
		if err != nil {
			return storeError(err)
		}
		for i := range rows {
			c, ok := cells[rows[i].Index]
			if !ok {
				continue
			}
			cell := api.GridCell{Status: string(c.Status), Score: c.Score, Fields: []api.FieldScore{}, Prediction: c.Prediction,
				Error: store.WireError(c.Error), Clipped: c.Clipped}
			if err := json.Unmarshal(c.FieldScores, &cell.Fields); err != nil || cell.Fields == nil {
				cell.Fields = []api.FieldScore{}
			}
			rows[i].Cells[j] = cell
			sizes[i] += c.Bytes()
		}
		rows = rows[:fits(sizes[:len(rows)], maxGridBytes)]
	}
	if len(sel.Runs) > 0 && len(rows) > 0 {
		out.RowsNote = s.gridRows(r.Context(), sel.Runs[0].ID, rows, sizes)
		rows = rows[:fits(sizes[:len(rows)], maxGridBytes)]
	}
	if len(rows) < len(sel.Indices) { // the bound ended the page early: the next starts after it
		out.Next = rows[len(rows)-1].Index
	}
	out.Rows = append(out.Rows, rows...)
	return writeJSON(w, http.StatusOK, out)
}

// Bounds of a page of the example grid: each prediction, error, input and expected output
// beyond maxCellBytes of JSON is clipped (store.Clip), and a page stops before the row that
// takes it past maxGridBytes (it has one row at least). A page of 200 rows × 10 systems of
// 4 MiB answers was a 235 MB body and 1.28 GB of memory.
const maxCellBytes = store.MaxShown

var maxGridBytes = 8 << 20 // a variable for its test

// fits is how many of the rows of sizes a page bound to bound bytes takes: those within
// it, at least one.
func fits(sizes []int, bound int) int {
	total := 0
	for i, n := range sizes {
		if total += n; total > bound && i > 0 {
			return i
		}
	}
	return len(sizes)
}

// gridRows fills each row's input and expected output from the dataset of run id (the
// leader's: every run of the board took the same dataset), clipped, as pages of results
// read them (withRows), and adds their bytes to sizes; or says why it does not. Rows it
// cannot read are left without.
func (s *Server) gridRows(ctx context.Context, id string, rows []api.GridRow, sizes []int) string {
	run, err := s.st.GetRun(id) // with its IR, which names the dataset
	if err != nil {
		return "the run " + id + " cannot be read: its rows are not shown"
	}
	indices := make([]int, len(rows))
	for i, r := range rows {
		indices[i] = r.Index
	}
	read, note := s.withRows(ctx, run, indices, sizes, maxGridBytes)
	for i, row := range read {
		rows[i].Input, rows[i].Expected = row.Input, row.Expected
	}
	return note
}

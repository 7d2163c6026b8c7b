package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// twoSystems is runWorkspace with other.yaml: the invoice benchmark taken by a second
// AI-system (another id, bound to the same adapter), one benchmark with two IR hashes.
func twoSystems(t *testing.T) (string, *httptest.Server) {
	t.Helper()
	dir := runWorkspace(t, slow{})
	src, err := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(string(src), "id: invoice-extractor-v7", "id: invoice-copy", 1)
	rt, err := os.ReadFile(filepath.Join(dir, RuntimeFile))
	if err != nil {
		t.Fatal(err)
	}
	rt = append(rt, "  invoice-copy:\n    command: [./invoice-adapter]\n    timeout: 10s\n"...)
	for name, body := range map[string]string{"other.yaml": other, RuntimeFile: string(rt)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, srv := serve(t, Config{Workspace: dir})
	return dir, srv
}

// errorCode is the code of an error answer.
func errorCode(t *testing.T, r reply) api.Code {
	t.Helper()
	var e api.Error
	if err := json.Unmarshal([]byte(r.body), &e); err != nil {
		t.Fatalf("not an error answer: %d %s", r.status, r.body)
	}
	return e.Error.Code
}

// TestLeaderboardAPI: a benchmark without runs has an empty board naming its hash; two
// systems' runs of it rank side by side (by label, on equal scores), a limited run is on
// no board, the board answers by file or by hashes, two systems' runs compare, and bad
// parameters are 400s.
func TestLeaderboardAPI(t *testing.T) {
	_, srv := twoSystems(t)
	var empty api.Leaderboard
	decode(t, srv, "GET", "/api/leaderboard?benchmark=benchmark.yaml", "", http.StatusOK, &empty)
	if !strings.HasPrefix(empty.BenchmarkHash, "sha256:") || empty.Entries == nil || len(empty.Entries) != 0 || empty.Benchmark != "benchmark.yaml" {
		t.Errorf("a board without runs: %+v", empty)
	}
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, a, store.Completed)
	b := startRun(t, srv, `{"benchmark": "other.yaml"}`)
	waitStatus(t, srv, b, store.Completed)
	limited := startRun(t, srv, `{"benchmark": "other.yaml", "limit": 3}`)
	waitStatus(t, srv, limited, store.Completed)

	var board api.Leaderboard
	decode(t, srv, "GET", "/api/leaderboard?benchmark=other.yaml", "", http.StatusOK, &board)
	if board.BenchmarkHash != empty.BenchmarkHash || !strings.HasPrefix(board.DatasetDigest, "sha256:") || len(board.Entries) != 2 {
		t.Fatalf("board %+v", board)
	}
	first, second := board.Entries[0], board.Entries[1]
	if first.System != "invoice-copy" || first.Run != b || second.System != "invoice-extractor-v7" || second.Run != a ||
		first.Rank != 1 || second.Rank != 1 || second.DeltaVsLeader != 0 || second.Significant || first.Examples != 10 {
		t.Errorf("entries %+v", board.Entries)
	}
	if len(board.Dimensions) != 5 || len(first.Dimensions) != 5 || len(board.Datasets) != 1 || board.Datasets[0].Systems != 2 {
		t.Errorf("dimensions %v, datasets %+v", board.Dimensions, board.Datasets)
	}
	var byHash api.Leaderboard
	decode(t, srv, "GET", api.LeaderboardFor(url.Values{"benchmark_hash": {board.BenchmarkHash}, "dataset_digest": {board.DatasetDigest}}),
		"", http.StatusOK, &byHash)
	if len(byHash.Entries) != 2 || byHash.Entries[0].Run != b || byHash.Benchmark != "" {
		t.Errorf("by hash %+v", byHash)
	}
	// The two systems' runs compare, though their IR hashes differ.
	var cmp api.Comparison
	decode(t, srv, "GET", api.ComparePath(a, b), "", http.StatusOK, &cmp)
	if cmp.Examples != 10 || cmp.Delta != 0 {
		t.Errorf("comparison %+v", cmp)
	}
	if r := call(t, srv, "GET", api.ComparePath(a, limited), ""); r.status != http.StatusConflict || errorCode(t, r) != api.DifferentLengths {
		t.Errorf("a limited run: %d %s", r.status, r.body)
	}

	for _, c := range []struct {
		query  string
		status int
		code   api.Code
	}{
		{"", http.StatusBadRequest, api.BadRequest},
		{"?benchmark_hash=sha256:abc", http.StatusBadRequest, api.BadRequest},
		{"?benchmark_hash=" + board.BenchmarkHash + "&dataset_digest=nope", http.StatusBadRequest, api.BadRequest},
		{"?benchmark=benchmark.yaml&benchmark_hash=" + board.BenchmarkHash, http.StatusBadRequest, api.BadRequest},
		{"?benchmark=../benchmark.yaml", http.StatusBadRequest, api.BadPath},
		{"?benchmark=data/invoices.jsonl", http.StatusBadRequest, api.BadPath},
		{"?benchmark=broken.yaml", http.StatusBadRequest, api.InvalidBenchmark},
		{"?benchmark=missing.yaml", http.StatusNotFound, api.NotFound},
		{"?benchmark=benchmark.yaml&benchmark=other.yaml", http.StatusBadRequest, api.BadRequest},
		{"?benchmark_hash=" + board.BenchmarkHash + "&benchmark_hash=" + board.BenchmarkHash, http.StatusBadRequest, api.BadRequest},
		{"?benchmark_hash=" + board.BenchmarkHash + "&dataset_digest=" + board.DatasetDigest + "&dataset_digest=" + board.DatasetDigest, http.StatusBadRequest, api.BadRequest},
	} {
		r := call(t, srv, "GET", "/api/leaderboard"+c.query, "")
		if r.status != c.status || errorCode(t, r) != c.code {
			t.Errorf("%q: %d %s, want %d %s", c.query, r.status, r.body, c.status, c.code)
		}
	}
	var unknown api.Leaderboard
	decode(t, srv, "GET", "/api/leaderboard?benchmark_hash=sha256:"+strings.Repeat("0", 64), "", http.StatusOK, &unknown)
	if len(unknown.Entries) != 0 || unknown.Entries == nil {
		t.Errorf("an unknown hash: %+v", unknown)
	}
}

// TestGridAPI: a page of the board's examples has each system's cell and the dataset's
// input and expected output; filters and statuses count every match and page on.
func TestGridAPI(t *testing.T) {
	_, srv := twoSystems(t)
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, a, store.Completed)
	b := startRun(t, srv, `{"benchmark": "other.yaml"}`)
	waitStatus(t, srv, b, store.Completed)
	var g api.Grid
	decode(t, srv, "GET", "/api/leaderboard/examples?benchmark=benchmark.yaml&limit=4", "", http.StatusOK, &g)
	if len(g.Systems) != 2 || g.Systems[0].Run != b || len(g.Rows) != 4 || g.Matched != 10 || g.Next != 3 {
		t.Fatalf("grid %+v", g)
	}
	row := g.Rows[0]
	if row.Index != 0 || !strings.Contains(string(row.Input), "invoice-001.png") || !strings.Contains(string(row.Expected), "F-001") ||
		len(row.Cells) != 2 || row.Cells[0].Status == "" || string(row.Cells[0].Prediction) != string(row.Cells[1].Prediction) {
		t.Errorf("row %+v", row)
	}
	if c := row.Cells[0]; c.Status == api.Valid && len(c.Fields) != 5 {
		t.Errorf("a valid cell's fields: %+v", c)
	}
	decode(t, srv, "GET", "/api/leaderboard/examples?benchmark=benchmark.yaml&after=3&limit=200", "", http.StatusOK, &g)
	if len(g.Rows) != 6 || g.Rows[0].Index != 4 || g.Next != -1 {
		t.Errorf("the second page: %d rows from %d, next %d", len(g.Rows), g.Rows[0].Index, g.Next)
	}
	// The systems are the same adapter: they never disagree.
	decode(t, srv, "GET", "/api/leaderboard/examples?benchmark=benchmark.yaml&filter=disagree", "", http.StatusOK, &g)
	if g.Matched != 0 || len(g.Rows) != 0 || g.Rows == nil {
		t.Errorf("disagreements of one adapter: %+v", g)
	}
	var wrong, valid api.Grid
	decode(t, srv, "GET", "/api/leaderboard/examples?benchmark=benchmark.yaml&filter=all_wrong", "", http.StatusOK, &wrong)
	decode(t, srv, "GET", "/api/leaderboard/examples?benchmark=benchmark.yaml&status=valid", "", http.StatusOK, &valid)
	run := getRun(t, srv, a)
	if valid.Matched != run.Summary.Valid || wrong.Matched == 0 || wrong.Matched == 10 {
		t.Errorf("valid %d (summary %d), all wrong %d", valid.Matched, run.Summary.Valid, wrong.Matched)
	}
	for _, r := range wrong.Rows {
		for _, c := range r.Cells {
			if c.Score != nil && *c.Score == 1 {
				t.Errorf("an all-wrong row has a right cell: %+v", r)
			}
		}
	}
	for _, q := range []string{"filter=some", "status=fine", "limit=0", "after=-2", "after=x", ""} {
		r := call(t, srv, "GET", "/api/leaderboard/examples?benchmark=benchmark.yaml&"+q, "")
		if q == "" {
			r = call(t, srv, "GET", "/api/leaderboard/examples", "")
		}
		if r.status != http.StatusBadRequest {
			t.Errorf("%q: %d %s", q, r.status, r.body)
		}
	}
}

// TestCompareRefusals: runs of two benchmarks are refused as different_benchmarks, and a
// run after one byte of an image artifact changed as different_datasets, each message
// naming both values; the runs are real runs of the engine.
func TestCompareRefusals(t *testing.T) {
	dir, srv := twoSystems(t)
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, a, store.Completed)
	other := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml"}`)
	waitStatus(t, srv, other, store.Completed)
	r := call(t, srv, "GET", api.ComparePath(a, other), "")
	if r.status != http.StatusConflict || errorCode(t, r) != api.DifferentBenchmarks || !strings.Contains(r.body, a) || !strings.Contains(r.body, "sha256:") {
		t.Errorf("two benchmarks: %d %s", r.status, r.body)
	}
	image := filepath.Join(dir, "images", "invoice-003.png")
	img, err := os.ReadFile(image)
	if err != nil {
		t.Fatal(err)
	}
	img[len(img)/2] ^= 1
	if err := os.WriteFile(image, img, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour) // another version of the file, whatever the clock's grain
	if err := os.Chtimes(image, later, later); err != nil {
		t.Fatal(err)
	}
	b := startRun(t, srv, `{"benchmark": "other.yaml"}`)
	run := waitStatus(t, srv, b, store.Completed)
	r = call(t, srv, "GET", api.ComparePath(a, b), "")
	if r.status != http.StatusConflict || errorCode(t, r) != api.DifferentDatasets || !strings.Contains(r.body, "run "+b+" has") {
		t.Errorf("one byte of an artifact changed: %d %s", r.status, r.body)
	}
	if first := getRun(t, srv, a); first.DatasetDigest == run.DatasetDigest || !strings.Contains(r.body, run.DatasetDigest[:19]) {
		t.Errorf("digests %s and %s; %s", first.DatasetDigest, run.DatasetDigest, r.body)
	}
	// The board is of the newest run's dataset, and lists both.
	var board api.Leaderboard
	decode(t, srv, "GET", "/api/leaderboard?benchmark=benchmark.yaml", "", http.StatusOK, &board)
	if len(board.Entries) != 1 || board.Entries[0].Run != b || len(board.Datasets) != 2 {
		t.Errorf("board after the change: %+v", board)
	}
}

// twoFolders is runWorkspace with a/ and b/, each a copy of the invoice benchmark with its
// data and images: one benchmark hash (./data/invoices.jsonl as written), two datasets
// (b's first expected invoice number differs).
func twoFolders(t *testing.T) (string, *httptest.Server) {
	t.Helper()
	dir := runWorkspace(t, slow{})
	for _, f := range []string{"a", "b"} {
		testkit.CopyTree(t, filepath.Join(dir, "images"), filepath.Join(dir, f, "images"))
		testkit.CopyTree(t, filepath.Join(dir, "data"), filepath.Join(dir, f, "data"))
		src, err := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		testkit.WriteFiles(t, filepath.Join(dir, f), map[string]string{"benchmark.yaml": string(src)})
	}
	data := filepath.Join(dir, "b", "data", "invoices.jsonl")
	rows, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	setFile(t, data, strings.Replace(string(rows), "F-001", "F-00X", 1), time.Hour)
	_, srv := serve(t, Config{Workspace: dir})
	return dir, srv
}

// TestLeaderboardOfTheFilesDataset: the boards of two folders' benchmarks of one hash are
// each of its own folder's dataset, whichever ran last; the grid's too. A file whose
// dataset no longer validates has the newest run's board, and says so.
func TestLeaderboardOfTheFilesDataset(t *testing.T) {
	dir, srv := twoFolders(t)
	a := startRun(t, srv, `{"benchmark": "a/benchmark.yaml"}`)
	ra := waitStatus(t, srv, a, store.Completed)
	b := startRun(t, srv, `{"benchmark": "b/benchmark.yaml"}`)
	rb := waitStatus(t, srv, b, store.Completed)
	if ra.BenchmarkHash != rb.BenchmarkHash || ra.DatasetDigest == rb.DatasetDigest {
		t.Fatalf("runs of hashes %s %s, digests %s %s: want one benchmark, two datasets", ra.BenchmarkHash, rb.BenchmarkHash, ra.DatasetDigest, rb.DatasetDigest)
	}
	for _, c := range []struct {
		file string
		run  api.Run
	}{{"a/benchmark.yaml", ra}, {"b/benchmark.yaml", rb}} {
		var board api.Leaderboard
		decode(t, srv, "GET", api.LeaderboardFor(url.Values{"benchmark": {c.file}}), "", http.StatusOK, &board)
		if board.DatasetDigest != c.run.DatasetDigest || len(board.Entries) != 1 || board.Entries[0].Run != c.run.ID || board.DatasetNote != "" || len(board.Datasets) != 2 {
			t.Errorf("the board of %s: %+v, want run %s alone", c.file, board, c.run.ID)
		}
		var grid api.Grid
		decode(t, srv, "GET", api.GridFor(url.Values{"benchmark": {c.file}, "limit": {"1"}}), "", http.StatusOK, &grid)
		if grid.DatasetDigest != c.run.DatasetDigest || len(grid.Systems) != 1 || grid.Systems[0].Run != c.run.ID || len(grid.Rows) != 1 || grid.RowsNote != "" {
			t.Errorf("the grid of %s: %+v", c.file, grid)
		}
	}
	setFile(t, filepath.Join(dir, "a", "data", "invoices.jsonl"), "not json\n", time.Hour)
	var board api.Leaderboard
	decode(t, srv, "GET", api.LeaderboardFor(url.Values{"benchmark": {"a/benchmark.yaml"}}), "", http.StatusOK, &board)
	if board.DatasetDigest != rb.DatasetDigest || len(board.Entries) != 1 || board.Entries[0].Run != b ||
		!strings.Contains(board.DatasetNote, "a/benchmark.yaml: its dataset a/data/invoices.jsonl does not validate now") {
		t.Errorf("a dataset that does not validate: %+v", board)
	}
}

// TestGridClipped: a prediction of 4 MiB shows in the grid as a JSON string of its start
// and a marker, clipped; the others whole. A page stops at its bound in bytes, and the
// next page starts after its last row: every example shows once.
func TestGridClipped(t *testing.T) {
	dir, srv := twoSystems(t)
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, a, store.Completed)
	b := startRun(t, srv, `{"benchmark": "other.yaml"}`)
	waitStatus(t, srv, b, store.Completed)
	db := openDB(t, dir)
	big := `say "` + strings.Repeat("é", 2<<20) + `"` // 4 MiB of UTF-8, quotes to escape
	if _, err := db.Exec(`UPDATE results SET result = json_set(result, '$.prediction', ?) WHERE run_id = ?`, big, b); err != nil {
		t.Fatal(err)
	}
	r := call(t, srv, "GET", api.GridFor(url.Values{"benchmark": {"benchmark.yaml"}, "limit": {"200"}}), "")
	var g api.Grid
	if err := json.Unmarshal([]byte(r.body), &g); err != nil || r.status != http.StatusOK {
		t.Fatalf("%d %.300s", r.status, r.body)
	}
	if len(r.body) > 1<<20 || len(g.Rows) != 10 || g.Next != -1 || g.Systems[0].Run != b {
		t.Fatalf("a grid of %d bytes, %d rows, next %d, systems %+v", len(r.body), len(g.Rows), g.Next, g.Systems)
	}
	for _, row := range g.Rows {
		clipped, whole := row.Cells[0], row.Cells[1]
		var text string
		if !clipped.Clipped || json.Unmarshal(clipped.Prediction, &text) != nil || !strings.HasPrefix(text, `"say \"éé`) ||
			!strings.Contains(text, "[clipped: ") || len(clipped.Prediction) > 3*maxCellBytes {
			t.Errorf("row %d: the long prediction (%d bytes) %.80s", row.Index, len(clipped.Prediction), clipped.Prediction)
		}
		if whole.Clipped || strings.Contains(string(whole.Prediction), "clipped") || len(whole.Fields) == 0 && whole.Status == api.Valid {
			t.Errorf("row %d: a short prediction: %+v", row.Index, whole)
		}
	}
	saved := maxGridBytes
	maxGridBytes = 3 * maxCellBytes
	defer func() { maxGridBytes = saved }()
	var seen []int
	after := "-1"
	for pages := 0; after != "-1" || pages == 0; pages++ {
		if pages > 10 {
			t.Fatalf("more than 10 pages: %v", seen)
		}
		decode(t, srv, "GET", api.GridFor(url.Values{"benchmark": {"benchmark.yaml"}, "limit": {"200"}, "after": {after}}), "", http.StatusOK, &g)
		if len(g.Rows) == 0 || len(g.Rows) > 2 {
			t.Fatalf("a page of %d rows under a bound of three cells", len(g.Rows))
		}
		for _, row := range g.Rows {
			seen = append(seen, row.Index)
		}
		if g.Next != -1 && g.Next != g.Rows[len(g.Rows)-1].Index {
			t.Errorf("next %d after a page ending at %d", g.Next, g.Rows[len(g.Rows)-1].Index)
		}
		after = strconv.Itoa(g.Next)
	}
	if !slices.Equal(seen, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("the pages showed %v", seen)
	}
}

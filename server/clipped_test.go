package server

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// bigRows is a workspace with big/benchmark.yaml, the slow adapter's benchmark over rows of
// about 800 KB (each expected number a text of 400 KB): the adapter answers its short
// input. The completed run's predictions are then made 400 KB each too. It returns the
// workspace, the server and the run's id.
func bigRows(t *testing.T) (string, *httptest.Server, string) {
	t.Helper()
	dir := runWorkspace(t, slow{})
	var data strings.Builder
	for i := range 12 {
		fmt.Fprintf(&data, `{"input": {"text": "ex-%02d"}, "expected": {"number": %q, "total": 5}}`+"\n", i, longText(i))
	}
	testkit.WriteFiles(t, dir, map[string]string{"big/benchmark.yaml": slowYAML})
	setFile(t, filepath.Join(dir, "big", "data.jsonl"), data.String(), time.Hour) // its digest is kept, not computed at every page
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "big/benchmark.yaml"}`)
	waitStatus(t, srv, id, store.Completed)
	db := openDB(t, dir)
	if _, err := db.Exec(`UPDATE results SET result = json_set(result, '$.prediction', json_object('number', printf('ex-%02d-', idx) || ?))
		WHERE run_id = ?`, strings.Repeat("é", 200<<10), id); err != nil {
		t.Fatal(err)
	}
	return dir, srv, id
}

// openDB opens the store of workspace dir beside its server, to change its results as a
// hostile AI-system's answers would have them; it waits out the server's writes.
func openDB(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", store.Path(dir)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// longText is a text of 400 KB, of example i.
func longText(i int) string { return fmt.Sprintf("ex-%02d-", i) + strings.Repeat("é", 200<<10) }

// allocated is how many bytes of Go memory the process allocates in fn (the server runs
// in it).
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestResultsClipped: a page of results of 400 KB predictions and 800 KB rows shows each
// prediction and expected output as its start and a marker, clipped (a 14 MB page before, under
// 1 MiB now); the export has them whole. A page bound in bytes pages on with every result
// once.
func TestResultsClipped(t *testing.T) {
	_, srv, id := bigRows(t)
	r := call(t, srv, "GET", api.RunPath(id)+"/results?limit=1000", "")
	var page api.ResultPage
	if err := json.Unmarshal([]byte(r.body), &page); err != nil || r.status != http.StatusOK {
		t.Fatalf("%d %.300s", r.status, r.body)
	}
	if len(r.body) > 1<<20 || len(page.Results) != 12 || page.Next != -1 || page.RowsNote != "" {
		t.Fatalf("a page of %d bytes, %d results, next %d, note %q", len(r.body), len(page.Results), page.Next, page.RowsNote)
	}
	for _, res := range page.Results {
		var pred string
		if !res.Clipped || json.Unmarshal(res.Prediction, &pred) != nil || !strings.HasPrefix(pred, fmt.Sprintf(`{"number":"ex-%02d-éé`, res.Index)) ||
			!strings.Contains(pred, "[clipped: ") || len(res.Prediction) > 2*maxCellBytes {
			t.Errorf("result %d: its prediction (%d bytes) %.80s", res.Index, len(res.Prediction), res.Prediction)
		}
		var expected string
		if string(res.Input) != fmt.Sprintf(`{"text":"ex-%02d"}`, res.Index) || json.Unmarshal(res.Expected, &expected) != nil ||
			!strings.HasPrefix(strings.ReplaceAll(expected, " ", ""), fmt.Sprintf(`{"number":"ex-%02d-éé`, res.Index)) || !strings.Contains(expected, "[clipped: ") ||
			len(res.Expected) > 2*maxCellBytes {
			t.Errorf("result %d: its input %.80s, expected (%d bytes) %.80s", res.Index, res.Input, len(res.Expected), res.Expected)
		}
	}
	// The export streams every value whole: each prediction and expected output.
	_, body := export(t, srv, id, "jsonl")
	if n := strings.Count(body, strings.Repeat("é", 200<<10)); n != 2*12 || strings.Contains(body, "clipped") {
		t.Errorf("the export holds %d whole predictions and expected outputs in %d bytes", n, len(body))
	}

	saved := maxPageBytes
	maxPageBytes = 3 * maxCellBytes
	defer func() { maxPageBytes = saved }()
	var seen []int
	for after, pages := -1, 0; pages == 0 || after != -1; pages++ {
		if pages > 12 {
			t.Fatalf("more than 12 pages: %v", seen)
		}
		decode(t, srv, "GET", api.RunPath(id)+"/results?limit=1000&after="+strconv.Itoa(after), "", http.StatusOK, &page)
		if len(page.Results) == 0 || len(page.Results) > 2 {
			t.Fatalf("a page of %d results under a bound of three values", len(page.Results))
		}
		for _, res := range page.Results {
			seen = append(seen, res.Index)
		}
		if page.Next != -1 && page.Next != page.Results[len(page.Results)-1].Index {
			t.Errorf("next %d after a page ending at %d", page.Next, page.Results[len(page.Results)-1].Index)
		}
		after = page.Next
	}
	if !slices.Equal(seen, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}) {
		t.Errorf("the pages showed %v", seen)
	}
}

// TestGridReadsRowsClipped: a page of the example grid reads only the start of each long
// dataset row (800 KB each), not the row. Eleven rows more cost 27 MB, 2.5 MB a row, to
// show 32 KiB of each; now 6 MB, mostly the answer's own bytes (encoded, sent, read).
// Measured as the difference between a page of one row and one of twelve, so that what
// every page costs (validating the dataset, when its digest is not kept) cancels.
func TestGridReadsRowsClipped(t *testing.T) {
	_, srv, id := bigRows(t)
	run := getRun(t, srv, id)
	page := func(limit int) (api.Grid, uint64) {
		path := api.GridFor(url.Values{"benchmark_hash": {run.BenchmarkHash}, "dataset_digest": {run.DatasetDigest}, "limit": {strconv.Itoa(limit)}})
		var r reply
		n := allocated(func() { r = call(t, srv, "GET", path, "") })
		var g api.Grid
		if err := json.Unmarshal([]byte(r.body), &g); err != nil || r.status != http.StatusOK || len(g.Rows) != limit || g.RowsNote != "" ||
			!strings.Contains(string(g.Rows[0].Expected), "[clipped: ") {
			t.Fatalf("%d %.300s", r.status, r.body)
		}
		return g, n
	}
	page(12) // the board, once
	_, one := page(1)
	_, twelve := page(12)
	if twelve-min(one, twelve) > 11<<20 {
		t.Errorf("a grid page of 12 rows allocated %d bytes, one of 1 row %d", twelve, one)
	}
	t.Logf("a grid page of 12 rows allocated %d bytes, one of 1 row %d", twelve, one)
}

// TestErrorsClipped: an extra_field error whose key is 4 MiB (in its path and its message)
// shows in the grid and in a page of results as its start and a marker, clipped: the
// path stays a list of strings. A grid page of two such cells was a 16 MB body.
func TestErrorsClipped(t *testing.T) {
	dir, srv := twoSystems(t)
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, a, store.Completed)
	db := openDB(t, dir)
	key := strings.Repeat("k", 4<<20)
	if _, err := db.Exec(`UPDATE results SET status = 'invalid_output', score = NULL, result = json_set(result, '$.status', 'invalid_output',
		'$.error', json_object('code', 'extra_field', 'path', json_array(?), 'message', 'unexpected field ' || ?)) WHERE run_id = ?`, key, key, a); err != nil {
		t.Fatal(err)
	}
	check := func(where string, e *api.ResultError, clipped bool) {
		t.Helper()
		if !clipped || e == nil || e.Code != "extra_field" || len(e.Path) != 1 || !strings.HasPrefix(e.Path[0], "kkk") ||
			!strings.Contains(e.Path[0], "[clipped: the path is ") || len(e.Path[0]) > 2*maxCellBytes ||
			!strings.HasPrefix(e.Message, "unexpected field kkk") || !strings.Contains(e.Message, "[clipped: 4194321 bytes in all") || len(e.Message) > 2*maxCellBytes {
			t.Errorf("%s: clipped %v, error %.80v", where, clipped, e)
		}
	}
	r := call(t, srv, "GET", api.GridFor(url.Values{"benchmark": {"benchmark.yaml"}, "limit": {"2"}}), "")
	var g api.Grid
	if err := json.Unmarshal([]byte(r.body), &g); err != nil || r.status != http.StatusOK || len(g.Rows) != 2 || len(r.body) > 256<<10 {
		t.Fatalf("%d, %d bytes: %.300s", r.status, len(r.body), r.body)
	}
	for _, row := range g.Rows {
		check(fmt.Sprintf("grid row %d", row.Index), row.Cells[0].Error, row.Cells[0].Clipped)
	}
	r = call(t, srv, "GET", api.RunPath(a)+"/results?limit=2", "")
	var page api.ResultPage
	if err := json.Unmarshal([]byte(r.body), &page); err != nil || r.status != http.StatusOK || len(page.Results) != 2 || len(r.body) > 256<<10 {
		t.Fatalf("%d, %d bytes: %.300s", r.status, len(r.body), r.body)
	}
	for _, res := range page.Results {
		check(fmt.Sprintf("result %d", res.Index), res.Error, res.Clipped)
	}
}

// TestCompareFlipsClipped: two runs whose every example changed, one of them answering
// 4 MiB each, compare with each flip's long prediction as its start and a marker (a 40 MB
// answer before, recomputed at every request since the cache skips answers over 4 MiB).
func TestCompareFlipsClipped(t *testing.T) {
	dir, srv := twoSystems(t)
	a := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, a, store.Completed)
	b := startRun(t, srv, `{"benchmark": "other.yaml"}`)
	waitStatus(t, srv, b, store.Completed)
	db := openDB(t, dir)
	big := `say "` + strings.Repeat("é", 2<<20) + `"`
	if _, err := db.Exec(`UPDATE results SET status = 'valid', contribution = 7, result = json_set(result, '$.prediction', ?,
		'$.status', 'valid', '$.contribution', 7) WHERE run_id = ?`, big, b); err != nil {
		t.Fatal(err)
	}
	r := call(t, srv, "GET", "/api/runs/compare?a="+a+"&b="+b, "")
	var cmp api.Comparison
	if err := json.Unmarshal([]byte(r.body), &cmp); err != nil || r.status != http.StatusOK {
		t.Fatalf("%d %.300s", r.status, r.body)
	}
	if len(r.body) > 1<<20 || len(cmp.Flips) != 10 {
		t.Fatalf("a comparison of %d bytes, %d flips", len(r.body), len(cmp.Flips))
	}
	for _, f := range cmp.Flips {
		var text string
		if json.Unmarshal(f.PredictionB, &text) != nil || !strings.HasPrefix(text, `"say \"éé`) || !strings.Contains(text, "[clipped: ") ||
			len(f.PredictionB) > 2*maxCellBytes || strings.Contains(string(f.PredictionA), "clipped") {
			t.Errorf("flip %d: %.80s (%d bytes), a %.80s", f.Index, f.PredictionB, len(f.PredictionB), f.PredictionA)
		}
	}
}

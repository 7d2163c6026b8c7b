package store

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// labelled are the Labels of explored's run: its enum dimension.
var labelled = Labels([]Enum{{Path: []string{"label"}, Values: labels}})

// writeAll adds results to run id through a writer with opts and closes it.
func writeAll(t *testing.T, s *Store, id string, results []engine.ExampleResult, opts ...WriterOption) {
	t.Helper()
	w := s.ResultWriter(id, opts...)
	for _, res := range results {
		if err := w.Add(res); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func exploredN(from, to int) []engine.ExampleResult {
	var out []engine.ExampleResult
	for i := from; i < to; i++ {
		out = append(out, explored(i))
	}
	return out
}

// TestChartsCounted: a run stored through a writer with Labels has its charts counted as
// it was stored, the confusion matrix too: they are what its results hold even with its
// rows' JSON gone (which the matrix of a run without counts reads).
func TestChartsCounted(t *testing.T) {
	s, _ := open(t)
	id := create(t, s, "explore.yaml").ID
	all := exploredN(0, 500)
	writeAll(t, s, id, all, labelled)
	if _, err := s.w.Exec(`UPDATE results SET example = NULL WHERE run_id = ?`, id); err != nil {
		t.Fatal(err)
	}
	checkCharts(t, s, id, all)
}

// TestChartsResumeCountsOnce: a resume adding stored results again (some with another
// answer, in order, scattered, twice in a batch) counts only the results it adds; a
// resume through a writer without Labels leaves the matrix to the results' JSON, still
// right.
func TestChartsResumeCountsOnce(t *testing.T) {
	s, _ := open(t)
	id := create(t, s, "explore.yaml").ID
	stored := exploredN(0, 60)
	writeAll(t, s, id, stored, labelled)
	again := exploredN(0, 120)
	for i := range 60 {
		if again[i].Status == engine.StatusValid { // another answer for a stored index
			p := again[i].Prediction.(map[string]any)
			again[i].Prediction = map[string]any{"label": labels[(i+1)%3], "amount": p["amount"], "note": p["note"]}
			sc := 1.0
			again[i].Score, again[i].Contribution = &sc, 1
		}
	}
	again = append(again, explored(70), explored(3)) // twice in one batch
	writeAll(t, s, id, again, labelled)
	stored = append(stored, exploredN(60, 120)...)
	// Scattered indexes: stored ones and new ones far apart (each seeks the index).
	writeAll(t, s, id, []engine.ExampleResult{explored(5), explored(100_000), explored(119), explored(50_000), explored(100_000)}, labelled)
	stored = append(stored, explored(50_000), explored(100_000))
	checkCharts(t, s, id, stored)
	if r, _ := s.GetRun(id); r.Done != len(stored) {
		t.Errorf("done %d, want %d", r.Done, len(stored))
	}

	writeAll(t, s, id, exploredN(200, 230)) // without Labels: its results' cells are not counted
	stored = append(stored, exploredN(200, 230)...)
	if marked(t, s, id) {
		t.Errorf("a run with results stored without Labels still says its cells are counted")
	}
	checkCharts(t, s, id, stored) // from the results' JSON, kept
	if !marked(t, s, id) {
		t.Errorf("the matrix read from the results' JSON is not kept")
	}
	writeAll(t, s, id, exploredN(230, 260), labelled) // counted on from the kept matrix
	stored = append(stored, exploredN(230, 260)...)
	if _, err := s.w.Exec(`UPDATE results SET example = NULL WHERE run_id = ?`, id); err != nil {
		t.Fatal(err)
	}
	checkCharts(t, s, id, stored)
}

// marked says whether run id's confusion cells of the label are counted.
func marked(t *testing.T, s *Store, id string) bool {
	t.Helper()
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM result_counts WHERE run_id = ? AND kind = 'labelled'`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// TestKeepCellsOnlyUnchanged: a matrix read from the results' JSON is not kept when a
// result was stored since it was read (done moved on).
func TestKeepCellsOnlyUnchanged(t *testing.T) {
	s, _ := open(t)
	id := create(t, s, "explore.yaml").ID
	writeAll(t, s, id, exploredN(0, 50))
	ms, err := func() ([]matrix, error) {
		tx, err := s.r.Begin()
		if err != nil {
			return nil, err
		}
		defer tx.Rollback()
		m, err := confusionOfJSON(tx, id, Enum{Path: []string{"label"}, Values: labels})
		return []matrix{m}, err
	}()
	if err != nil {
		t.Fatal(err)
	}
	writeAll(t, s, id, exploredN(50, 60))
	if err := s.keepCells(id, 50, ms); err != nil {
		t.Fatal(err)
	}
	if marked(t, s, id) {
		t.Fatal("a matrix of 50 results kept for a run of 60")
	}
	if err := s.keepCells(id, 60, ms); err != nil || !marked(t, s, id) {
		t.Fatalf("a matrix of an unchanged run not kept: %v", err)
	}
}

// TestMigrateFromV5: a store of schema version 5 opens migrated: its runs' charts are
// counted from their results' columns (statuses, bins, wrong dimensions, codes with
// their first example), its confusion matrices read from the results' JSON, as is a
// resume's; its results have no request.
func TestMigrateFromV5(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".benchy", "benchy.db")
	os.MkdirAll(filepath.Dir(path), 0o755)
	db, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(db, migrations[:5], backfills); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO runs (id, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at)
		VALUES ('old', 'b.yaml', '{}', 'h', '{}', 'x', '{}', 'interrupted', '2026-01-01T00:00:00.000000000Z')`); err != nil {
		t.Fatal(err)
	}
	all := exploredN(0, 300)
	for _, res := range all {
		body, err := marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var code any
		if res.Error != nil {
			code = string(res.Error.Code)
		}
		if _, err := db.Exec(`INSERT INTO results (run_id, idx, status, score, contribution, result, error_code, example) VALUES ('old', ?, ?, ?, ?, ?, ?, ?)`,
			res.Index, string(res.Status), res.Score, res.Contribution, string(body), code, string(res.Row)); err != nil {
			t.Fatal(err)
		}
		for d, fs := range res.FieldScores {
			if fs.Score == 0 && res.Status == engine.StatusValid {
				db.Exec(`INSERT INTO result_wrong (run_id, dim, idx) VALUES ('old', ?, ?)`, d, res.Index)
			}
		}
	}
	db.Exec(`UPDATE runs SET done = 300 WHERE id = 'old'`)
	db.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var counted int
	s.r.QueryRow(`SELECT count(*) FROM result_counts WHERE run_id = 'old'`).Scan(&counted)
	if counted == 0 {
		t.Fatal("no counts backfilled")
	}
	checkCharts(t, s, "old", all)
	writeAll(t, s, "old", exploredN(250, 400), labelled) // a resume, with Labels now
	all = append(all, exploredN(300, 400)...)
	checkCharts(t, s, "old", all)
	d, ok, err := s.Detail("old", 7, ResultFilter{})
	if !ok || err != nil || d.Request != "" {
		t.Errorf("an old result's detail: %v, %v, request %q", ok, err, d.Request)
	}
}

// TestDetailRequest: a detail has the request its example sent, whole; an example that
// sent none has "".
func TestDetailRequest(t *testing.T) {
	s, _ := open(t)
	id := create(t, s, "explore.yaml").ID
	const sent = "POST /v1/chat\n{\"messages\":[{\"role\":\"user\",\"content\":\"Classify: café ☕\"}]}"
	a, b := explored(0), explored(1)
	a.Request = sent
	writeAll(t, s, id, []engine.ExampleResult{a, b}, labelled)
	for i, want := range []string{sent, ""} {
		d, ok, err := s.Detail(id, i, ResultFilter{})
		if !ok || err != nil || d.Request != want {
			t.Errorf("detail %d: %v, %v, request %q, want %q", i, ok, err, d.Request, want)
		}
	}
	var n int
	s.r.QueryRow(`SELECT count(*) FROM results WHERE run_id = ? AND request IS NULL`, id).Scan(&n)
	if n != 1 {
		t.Errorf("%d results without a request stored NULL, want 1", n)
	}
}

// TestLabelsFromExpected: the confusion labels of a result are the same from the expected
// output the engine decoded (a fresh result) as from its dataset row (a result read back):
// a nested enum, a value outside the enum, a missing member.
func TestLabelsFromExpected(t *testing.T) {
	enums := []labelledEnum{{Enum: Enum{Path: []string{"sentiment"}, Values: []string{"pos", "neg"}}, key: "a"},
		{Enum: Enum{Path: []string{"meta", "lang"}, Values: []string{"en", "fr"}}, key: "b"}}
	for i, row := range []string{
		`{"input":{},"expected":{"sentiment":"pos","meta":{"lang":"fr"}}}`,
		`{"input":{},"expected":{"sentiment":"other","meta":{"lang":"en"}}}`,
		`{"input":{},"expected":{"sentiment":"neg"}}`,
	} {
		var decoded struct{ Expected map[string]any }
		if err := json.Unmarshal([]byte(row), &decoded); err != nil {
			t.Fatal(err)
		}
		pred := map[string]any{"sentiment": "neg", "meta": map[string]any{"lang": "en"}}
		fromRow := labelsOf(enums, &engine.ExampleResult{Status: engine.StatusValid, Prediction: pred, Row: json.RawMessage(row)})
		fromExpected := labelsOf(enums, &engine.ExampleResult{Status: engine.StatusValid, Prediction: pred, Expected: decoded.Expected})
		if want := []int{2, 1, 1}[i]; !reflect.DeepEqual(fromRow, fromExpected) || len(fromRow) != want {
			t.Errorf("%s: labels %v from the row, %v from the decoded expected output", row, fromRow, fromExpected)
		}
	}
}

package store

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestMigrateFromV4: a store of schema version 4 (before the results explorer) opens
// migrated: its results gain their error codes and wrong dimensions from their JSON (so
// the code and wrong filters find them), no dataset row (a page shows no input), and
// deleting a run deletes its wrong dimensions with it.
func TestMigrateFromV4(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".benchy", "benchy.db")
	os.MkdirAll(filepath.Dir(path), 0o755)
	db, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(db, migrations[:4], backfills); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO runs (id, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at)
		VALUES ('old', 'b.yaml', '{}', 'h', '{}', 'x', '{}', 'completed', '2026-01-01T00:00:00.000000000Z')`); err != nil {
		t.Fatal(err)
	}
	var all []engine.ExampleResult
	for i := range 40 {
		res := explored(i)
		res.Row = nil
		all = append(all, res)
		body, err := marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO results (run_id, idx, status, score, contribution, result) VALUES ('old', ?, ?, ?, ?, ?)`,
			i, string(res.Status), res.Score, res.Contribution, string(body)); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, f := range []ResultFilter{{Code: "timeout"}, {Code: "provider_error"}, {Code: "invalid_value"},
		{Wrong: []string{"label"}}, {Wrong: []string{"amount"}}, {Wrong: []string{"note"}}} {
		p, err := s.Page("old", PageQuery{Filter: f, After: First, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, sh := range p.Results {
			got = append(got, sh.Index)
			if sh.Input != nil || sh.Expected != nil {
				t.Errorf("result %d of a run before rows shows input %s", sh.Index, sh.Input)
			}
		}
		if want := brute(f, all); !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("%+v after the migration: %v, want %v", f, got, want)
		}
	}
	var wrong int
	s.r.QueryRow(`SELECT count(*) FROM result_wrong WHERE run_id = 'old'`).Scan(&wrong)
	if wrong == 0 {
		t.Fatal("no wrong dimensions backfilled")
	}
	if _, err := s.w.Exec(`DELETE FROM runs WHERE id = 'old'`); err != nil {
		t.Fatal(err)
	}
	s.r.QueryRow(`SELECT count(*) FROM result_wrong`).Scan(&wrong)
	if wrong != 0 {
		t.Errorf("%d wrong dimensions outlive their run", wrong)
	}
}

// TestWriterWrongOnResume: adding results again (a resume) keeps the stored ones and
// their wrong dimensions, not the ones added.
func TestWriterWrongOnResume(t *testing.T) {
	s, _ := open(t)
	id, all := exploredRun(t, s, 60)
	w := s.ResultWriter(id)
	for i := range 120 {
		res := explored(i)
		if i < 60 && res.Status == engine.StatusValid { // a different answer for a stored index
			for d := range res.FieldScores {
				res.FieldScores[d].Score = 1 - res.FieldScores[d].Score
			}
		}
		if i >= 60 {
			all = append(all, res)
		}
		if err := w.Add(res); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	for _, dim := range []string{"label", "amount", "note"} {
		f := ResultFilter{Wrong: []string{dim}}
		p, err := s.Page(id, PageQuery{Filter: f, After: First, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, sh := range p.Results {
			got = append(got, sh.Index)
		}
		if want := brute(f, all); !slices.Equal(got, want) {
			t.Errorf("%s wrong: %v, want %v", dim, got, want)
		}
	}
}

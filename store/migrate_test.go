package store

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenSettings(t *testing.T) {
	s, _ := open(t)
	for _, c := range []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"busy_timeout", "10000"},
		{"page_size", "16384"},
	} {
		for _, p := range []struct {
			name string
			db   *sql.DB
		}{{"writer", s.w}, {"reader", s.r}} {
			name, db := p.name, p.db
			var got string
			if err := db.QueryRow("PRAGMA " + c.pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("%s: PRAGMA %s = %s, want %s", name, c.pragma, got, c.want)
			}
		}
	}
	if _, err := s.r.Exec(`DELETE FROM runs`); err == nil {
		t.Error("the read pool accepts writes")
	}
}

// appliedAt returns the schema_version rows.
func appliedAt(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT version || ' ' || applied_at FROM schema_version ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

func TestReopenMigratesNothing(t *testing.T) {
	s, path := open(t)
	before := appliedAt(t, s.w)
	if len(before) != len(migrations) {
		t.Fatalf("schema_version: %q, want %d rows", before, len(migrations))
	}
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if after := appliedAt(t, s2.w); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("reopening changed schema_version: %q, then %q", before, after)
	}
	// Run the migrations again by hand: still nothing to do (migration 1 is not idempotent
	// by itself, CREATE TABLE would fail).
	if err := migrate(s2.w, migrations, nil); err != nil {
		t.Fatal(err)
	}
}

func TestUpgradeFromOlderVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// A database made by a benchy that knew only the first migration, holding a run.
	if err := migrate(db, migrations[:1], nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO runs (id, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at)
		VALUES ('r1', 'b.yaml', '{}', 'h', '{}', 'x', '{}', 'completed', '2026-01-01T00:00:00.000000000Z')`); err != nil {
		t.Fatal(err)
	}
	// A later benchy adds two migrations, neither idempotent: re-applying would fail.
	newer := append(migrations[:1:1],
		`ALTER TABLE runs ADD COLUMN note TEXT; UPDATE runs SET note = 'migrated'`,
		`CREATE TABLE tags (run_id TEXT NOT NULL REFERENCES runs (id), tag TEXT NOT NULL)`)
	for range 2 {
		if err := migrate(db, newer, nil); err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := version(db); v != 3 {
		t.Errorf("version %d, want 3", v)
	}
	var note string
	if err := db.QueryRow(`SELECT note FROM runs WHERE id = 'r1'`).Scan(&note); err != nil || note != "migrated" {
		t.Errorf("note %q, %v: the upgrade did not run in order over the existing data", note, err)
	}
	// An older benchy refuses the newer database instead of misreading it.
	if err := migrate(db, migrations[:1], nil); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("an older schema list accepted a newer database: %v", err)
	}
}

func TestFailedMigrationRollsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bad := []string{`CREATE TABLE a (x)`, `CREATE TABLE b (x); CREATE TABLE oops (`}
	if err := migrate(db, bad, nil); err == nil || !strings.Contains(err.Error(), "migration 2") {
		t.Fatalf("want an error naming migration 2, got %v", err)
	}
	var n int
	db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name IN ('a', 'b')`).Scan(&n)
	if v, _ := version(db); v != 0 || n != 0 {
		t.Errorf("after a failed migration: version %d, %d tables; want 0 and 0 (all or nothing)", v, n)
	}
}

func TestOpenRejectsQueryCharacters(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "a?b.db")); err == nil {
		t.Error("a path with '?' was accepted")
	}
}

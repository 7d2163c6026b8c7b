package store

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// TestBackfillOddRuns: migration 3's backfill over runs a version-2 store may hold whose IR
// or ai_system cannot be read: each keeps an empty benchmark hash (or no system) and the
// migration still applies, for every run, in one go.
func TestBackfillOddRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(db, migrations[:2], nil); err != nil {
		t.Fatal(err)
	}
	good := `{"version":"1.0","benchmark":{"task":"extract"},"ai_system":{"type":"external","id":"a"}}`
	goodHash, err := ir.BenchmarkHash([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id, ir, aiSystem string
		hash, label      string
		system           bool
	}{
		{"01-good", good, `{"type":"external","id":"a"}`, goodHash, "a", true},
		{"02-ir-not-json", `{"version":`, `{"type":"external","id":"a"}`, "", "a", true},
		{"03-ir-not-an-object", `[1, 2]`, `{"type":"external","id":"a"}`, "", "a", true},
		{"04-ai-system-not-json", good, `not json`, goodHash, "", false},
		{"05-ai-system-untyped", good, `{}`, goodHash, "", false},
		{"06-a-model", good, `{"type":"model","provider":"p","model":"m"}`, goodHash, "p/m", true},
	}
	for _, tt := range tests {
		if _, err := db.Exec(`INSERT INTO runs (id, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at)
			VALUES (?, 'b.yaml', ?, 'sha256:x', ?, 'bind', '{}', 'completed', '2026-01-01T00:00:00.000000000Z')`, tt.id, tt.ir, tt.aiSystem); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("the migration failed over odd runs: %v", err)
	}
	defer s.Close()
	if v, err := version(s.w); err != nil || v != len(migrations) {
		t.Fatalf("version %d, %v", v, err)
	}
	for _, tt := range tests {
		var hash, digest, label, shash string
		var sys sql.NullString
		if err := s.r.QueryRow(`SELECT benchmark_hash, dataset_digest, system, system_hash, system_label FROM runs WHERE id = ?`, tt.id).
			Scan(&hash, &digest, &sys, &shash, &label); err != nil {
			t.Fatal(err)
		}
		if hash != tt.hash || digest != "" || label != tt.label || sys.Valid != tt.system || (shash != "") != tt.system {
			t.Errorf("%s: hash %q, digest %q, label %q, system %v %q; want hash %q, label %q, system %v", tt.id, hash, digest, label, sys.Valid, shash, tt.hash, tt.label, tt.system)
		}
		if r, err := s.GetRun(tt.id); err != nil || r.BenchmarkHash != tt.hash || (r.System != nil) != tt.system {
			t.Errorf("%s: GetRun %+v, %v", tt.id, r, err)
		}
	}
	if runs, err := s.ListRuns(Filter{}, 0); err != nil || len(runs) != len(tests) {
		t.Errorf("ListRuns: %d, %v", len(runs), err)
	}
}

// TestSetDataset: a run records the digest its validation pass found once; the same digest
// again (a resume over the same exam) is fine, another is refused with ErrDatasetChanged,
// naming both, and the record keeps the first.
func TestSetDataset(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	steps := []struct {
		digest  string
		changed bool
	}{{"sha256:one", false}, {"sha256:one", false}, {"sha256:two", true}, {"sha256:one", false}}
	for i, st := range steps {
		err := s.SetDataset(r.ID, st.digest)
		if errors.Is(err, ErrDatasetChanged) != st.changed || (err != nil) != st.changed {
			t.Errorf("step %d (%s): %v, changed want %v", i, st.digest, err, st.changed)
		}
		if st.changed && (!strings.Contains(err.Error(), "sha256:one") || !strings.Contains(err.Error(), "sha256:two")) {
			t.Errorf("step %d: %v does not name both digests", i, err)
		}
		if got, _ := s.GetRun(r.ID); got.DatasetDigest != "sha256:one" {
			t.Errorf("step %d: recorded %q", i, got.DatasetDigest)
		}
	}
	if err := s.SetDataset("01NOSUCHRUN", "sha256:one"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown run: %v", err)
	}
	// The new columns select it.
	if runs, err := s.ListRuns(Filter{DatasetDigest: "sha256:one"}, 0); err != nil || len(runs) != 1 || runs[0].ID != r.ID {
		t.Errorf("ListRuns by dataset digest: %+v, %v", runs, err)
	}
}

// TestCreateRunSystem: a run records the system given, or without one a system of its
// definition alone, with label and hash in their columns.
func TestCreateRunSystem(t *testing.T) {
	s, _ := open(t)
	sys := engine.NewSystem(ir.AISystem{Type: ir.SystemModel, Provider: "p", Model: "m"}, "sha256:prompt", "p", "sha256:fp")
	spec := spec("b.yaml")
	spec.System = &sys
	with, err := s.CreateRun(spec)
	if err != nil {
		t.Fatal(err)
	}
	without := create(t, s, "b.yaml")
	want := engine.NewSystem(ir.AISystem{Type: ir.SystemExternal, ID: "invoice-extractor-v7"}, "", "local", "")
	for _, tt := range []struct {
		id          string
		label, hash string
	}{{with.ID, "p/m", sys.Hash}, {without.ID, "invoice-extractor-v7", want.Hash}} {
		r, err := s.GetRun(tt.id)
		var label, hash string
		s.r.QueryRow(`SELECT system_label, system_hash FROM runs WHERE id = ?`, tt.id).Scan(&label, &hash)
		if err != nil || r.System == nil || r.System.Label != tt.label || r.System.Hash != tt.hash || label != tt.label || hash != tt.hash {
			t.Errorf("%s: %+v (columns %q %q), %v; want %q %q", tt.id, r.System, label, hash, err, tt.label, tt.hash)
		}
	}
}

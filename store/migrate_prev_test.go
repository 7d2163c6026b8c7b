package store

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// prevRuns are the runs of testdata/prev-v2.db (see its README): id, benchmark, status,
// examples stored.
var prevRuns = []struct {
	id, benchmark string
	status        Status
	results       int
}{
	{"01M8RYW9VHH2ZJC8SMRY4HXCB3", "broken.yaml", Aborted, 0},
	{"01M8RYW76GHJANN55SP8HDVJQX", "baseline.yaml", Completed, 10},
	{"01M8RYW74BQTB21CABB9ARQHHC", "baseline.yaml", Completed, 56},
}

// openPrev opens a copy of the store the previous benchy made (schema version 2).
func openPrev(t *testing.T) (*Store, string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "prev-v2.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ".benchy", "benchy.db")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if v := schemaVersion(t, path); v != 2 {
		t.Fatalf("the fixture has schema version %d, want 2", v)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("opening a store of the previous version: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// schemaVersion reads a store file's schema version and the number of migrations recorded.
func schemaVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, err := version(db)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOpenPreviousStore: a store made by the benchy before issue 13 opens with this one,
// migrated to version 3: its runs keep their results and records, gain the benchmark hash
// of their stored IR, no dataset digest ("dataset not recorded"), and a system of their
// definition (label and hash as NewSystem gives them); they list, read and filter by the
// new columns, and a new run with every identity can be created beside them.
func TestOpenPreviousStore(t *testing.T) {
	s, path := openPrev(t)
	if v := schemaVersion(t, path); v != len(migrations) || v < 3 {
		t.Fatalf("schema version %d after opening, want %d", v, len(migrations))
	}
	listed, err := s.ListRuns(Filter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(prevRuns) {
		t.Fatalf("%d runs listed, want %d", len(listed), len(prevRuns))
	}
	hashes := map[string]string{}
	for i, want := range prevRuns {
		r, err := s.GetRun(want.id)
		if err != nil {
			t.Fatalf("GetRun(%s): %v", want.id, err)
		}
		if listed[i].ID != want.id || r.Benchmark != want.benchmark || r.Status != want.status || r.Binding != "langid-baseline" {
			t.Errorf("run %d: %s %s %s %s, want %+v", i, listed[i].ID, r.Benchmark, r.Status, r.Binding, want)
		}
		bh, err := ir.BenchmarkHash(r.IR)
		if err != nil || r.BenchmarkHash != bh || listed[i].BenchmarkHash != bh || r.IRHash != ir.Hash(r.IR) {
			t.Errorf("%s: benchmark_hash %q (listed %q), its IR's %q (%v); ir_hash %s", want.id, r.BenchmarkHash, listed[i].BenchmarkHash, bh, err, r.IRHash)
		}
		hashes[want.id] = r.BenchmarkHash
		if r.DatasetDigest != "" {
			t.Errorf("%s: dataset_digest %q, want none recorded", want.id, r.DatasetDigest)
		}
		var def ir.AISystem
		if err := json.Unmarshal(r.AISystem, &def); err != nil || def.ID != "langid-baseline" {
			t.Fatalf("%s: ai_system %s: %v", want.id, r.AISystem, err)
		}
		sys := engine.NewSystem(def, "", r.Binding, "")
		if r.System == nil || r.System.Label != "langid-baseline" || r.System.Hash != sys.Hash || r.System.Binding != "langid-baseline" ||
			r.System.BindingFingerprint != "" || r.System.PromptSHA256 != "" {
			t.Errorf("%s: system %+v, want %+v", want.id, r.System, sys)
		}
		if listed[i].System == nil || listed[i].System.Hash != sys.Hash {
			t.Errorf("%s: listed system %+v", want.id, listed[i].System)
		}
		var label, shash string
		if err := s.r.QueryRow(`SELECT system_label, system_hash FROM runs WHERE id = ?`, want.id).Scan(&label, &shash); err != nil || label != sys.Label || shash != sys.Hash {
			t.Errorf("%s: columns system_label %q, system_hash %q (%v)", want.id, label, shash, err)
		}
		// The results still read, in order, as the previous benchy stored them.
		n := 0
		for res, err := range s.Stored(want.id) {
			if err != nil {
				t.Fatalf("%s: result %d: %v", want.id, n, err)
			}
			if res.Index != n || res.Status != engine.StatusValid || res.Prediction == nil {
				t.Errorf("%s: result %d: %+v", want.id, n, res)
			}
			n++
		}
		if n != want.results || r.Done != want.results {
			t.Errorf("%s: %d results read, %d done, want %d", want.id, n, r.Done, want.results)
		}
		if want.status == Completed && (r.Summary == nil || r.Summary.Examples != want.results || len(r.Report) == 0) {
			t.Errorf("%s: summary %+v, report %d bytes", want.id, r.Summary, len(r.Report))
		}
	}
	if aborted, _ := s.GetRun(prevRuns[0].id); aborted.Error == nil || aborted.Error.Code != diag.InvalidDatasetRecord || aborted.Error.Line != 2 || aborted.Error.File != "data/bad.jsonl" {
		t.Errorf("the aborted run's error: %+v", aborted.Error)
	}
	// One benchmark for both baseline runs (full and --limit); broken.yaml's data path differs.
	full, limited, broken := hashes[prevRuns[2].id], hashes[prevRuns[1].id], hashes[prevRuns[0].id]
	if full != limited || full == broken {
		t.Errorf("benchmark hashes: full %s, limited %s, broken %s", full, limited, broken)
	}
	byHash, err := s.ListRuns(Filter{BenchmarkHash: full, Status: Completed}, 0)
	if err != nil || len(byHash) != 2 {
		t.Errorf("ListRuns by benchmark_hash: %d runs, %v", len(byHash), err)
	}
	if none, err := s.ListRuns(Filter{BenchmarkHash: full, DatasetDigest: "sha256:any"}, 0); err != nil || len(none) != 0 {
		t.Errorf("ListRuns by a dataset digest matched %d old runs, %v: none recorded one", len(none), err)
	}

	// A new run beside them, with every identity.
	old, _ := s.GetRun(prevRuns[2].id)
	sys := engine.NewSystem(ir.AISystem{Type: ir.SystemExternal, ID: "langid-baseline"}, "", "langid-baseline", "sha256:fingerprint")
	run, err := s.CreateRun(RunSpec{Benchmark: "baseline.yaml", IR: old.IR, IRHash: old.IRHash, AISystem: old.AISystem, Binding: "langid-baseline",
		BenchmarkHash: full, System: &sys})
	if err != nil {
		t.Fatalf("CreateRun in a migrated store: %v", err)
	}
	if err := s.MarkRunning(run.ID, 2); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDataset(run.ID, "sha256:exam"); err != nil {
		t.Fatal(err)
	}
	write(t, s, run.ID, 0, 2)
	got, err := s.GetRun(run.ID)
	if err != nil || got.BenchmarkHash != full || got.DatasetDigest != "sha256:exam" || got.System == nil || got.System.Hash != sys.Hash || got.Done != 2 {
		t.Errorf("the new run: %+v, %v", got, err)
	}
	if all, err := s.ListRuns(Filter{BenchmarkHash: full}, 0); err != nil || len(all) != 3 || all[0].ID != run.ID {
		t.Errorf("ListRuns after a new run: %d, %v", len(all), err)
	}
}

// TestOpenPreviousStoreTwice: opening the migrated store again migrates nothing: the
// schema's history and every run's record are as the first opening left them.
func TestOpenPreviousStoreTwice(t *testing.T) {
	s, path := openPrev(t)
	before := dumpRuns(t, s)
	applied := appliedAt(t, s.r)
	s.Close()
	for range 2 {
		s2, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := dumpRuns(t, s2); !slices.Equal(got, before) {
			t.Errorf("reopening changed the runs:\n%q\nwas\n%q", got, before)
		}
		if got := appliedAt(t, s2.r); !slices.Equal(got, applied) {
			t.Errorf("reopening applied migrations again: %q, was %q", got, applied)
		}
		s2.Close()
	}
}

// dumpRuns is every column of every run, as text.
func dumpRuns(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := s.r.Query(`SELECT id, benchmark_hash, dataset_digest, coalesce(system, 'NULL'), system_hash, system_label, ir, report FROM runs ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var cols [8]sql.NullString
		if err := rows.Scan(&cols[0], &cols[1], &cols[2], &cols[3], &cols[4], &cols[5], &cols[6], &cols[7]); err != nil {
			t.Fatal(err)
		}
		line := ""
		for _, c := range cols {
			line += c.String + "\x00"
		}
		out = append(out, line)
	}
	return out
}

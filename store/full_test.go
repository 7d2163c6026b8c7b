package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestFullIsLeaders: Full, the rule callers holding a run apply, says what Leaders' SQL
// says of the same run: a limit of 0, or above the examples evaluated, is full; a limit
// at or below them is partial.
func TestFullIsLeaders(t *testing.T) {
	s, _ := open(t)
	const bh, digest = "sha256:bench", "sha256:data"
	tests := []struct {
		limit, examples int
		full            bool
	}{
		{0, 56, true},
		{10, 10, false},
		{10, 56, false},
		{100, 56, true},
		{57, 56, true},
		{56, 56, false},
	}
	runs := map[string]Run{}
	for i, tt := range tests {
		sp := spec("b.yaml")
		sp.BenchmarkHash = bh
		sp.AISystem = map[string]any{"type": "external", "id": fmt.Sprintf("system-%d", i)}
		sp.Options = Options{Limit: tt.limit}
		r, err := s.CreateRun(sp)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.MarkRunning(r.ID, tt.examples); err != nil {
			t.Fatal(err)
		}
		if err := s.Finish(r.ID, &engine.Report{Summary: engine.Summary{Examples: tt.examples}, DatasetDigest: digest}); err != nil {
			t.Fatal(err)
		}
		if r, err = s.GetRun(r.ID); err != nil {
			t.Fatal(err)
		}
		runs[r.ID] = r
		if got := Full(r); got != tt.full {
			t.Errorf("limit %d of %d examples: Full %v, want %v", tt.limit, tt.examples, got, tt.full)
		}
	}
	leaders, err := s.Leaders(bh, digest)
	if err != nil {
		t.Fatal(err)
	}
	led := map[string]bool{}
	for _, r := range leaders {
		led[r.ID] = true
	}
	for id, r := range runs {
		if led[id] != Full(r) {
			t.Errorf("limit %d of %d examples: Leaders has it %v, Full says %v", r.Options.Limit, r.Summary.Examples, led[id], Full(r))
		}
	}
}

// TestCoverDataset: a run whose limit covers its dataset (56 of 56) is made full by
// CoverDataset: its limit goes, Full says so and Leaders ranks it; a run of no id is
// ErrNotFound.
func TestCoverDataset(t *testing.T) {
	s, _ := open(t)
	const bh, digest = "sha256:bench", "sha256:data"
	sp := spec("b.yaml")
	sp.BenchmarkHash = bh
	sp.Options = Options{Limit: 56, Concurrency: 2}
	r, err := s.CreateRun(sp)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CoverDataset(r.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRunning(r.ID, 56); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(r.ID, &engine.Report{Summary: engine.Summary{Examples: 56}, DatasetDigest: digest}); err != nil {
		t.Fatal(err)
	}
	if r, err = s.GetRun(r.ID); err != nil {
		t.Fatal(err)
	}
	if r.Options != (Options{Concurrency: 2}) || !Full(r) {
		t.Errorf("options %+v, full %v; want the limit gone, the concurrency kept, a full run", r.Options, Full(r))
	}
	if leaders, err := s.Leaders(bh, digest); err != nil || len(leaders) != 1 {
		t.Errorf("leaders %d, %v; want the run", len(leaders), err)
	}
	if err := s.CoverDataset("01NOSUCHRUN0000000000000000"); !errors.Is(err, ErrNotFound) {
		t.Errorf("no run: %v", err)
	}
}

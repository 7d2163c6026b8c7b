package shard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// FormatVersion is the version of the manifest's format.
const FormatVersion = 1

// File names inside a shard's folder.
const (
	ManifestFile = "manifest.json"
	JournalFile  = "results.jsonl"
)

// Manifest says what a shard ran, so that a merge can check that every shard ran the same
// thing, and how far it got. It is rewritten whole (write and rename) when the shard
// starts and when it ends.
type Manifest struct {
	Format        int            `json:"format"`
	IRHash        string         `json:"ir_hash"`
	BenchmarkHash string         `json:"benchmark_hash"`
	DatasetDigest string         `json:"dataset_digest"`
	System        *engine.System `json:"system"`
	Binding       string         `json:"binding"`
	Benchmark     string         `json:"benchmark"` // the benchmark file as the shard was given it: for the command to re-run one
	K             int            `json:"k"`
	N             int            `json:"n"`
	Limit         int            `json:"limit"`
	Total         int            `json:"total"`    // the examples of the whole run (the limit applied)
	Examples      int            `json:"examples"` // this shard's
	Concurrency   int            `json:"concurrency"`
	BenchyVersion string         `json:"benchy_version"`
	StartedAt     string         `json:"started_at"`
	FinishedAt    string         `json:"finished_at,omitempty"`
	Complete      bool           `json:"complete"`
	// IR is the benchmark's canonical IR: the merge reports with its dimensions and
	// AI-system, and records it in a store.
	IR json.RawMessage `json:"ir"`
}

// Shard is the manifest's shard.
func (m *Manifest) Shard() engine.Shard { return engine.Shard{K: m.K, N: m.N} }

// Dir is the folder of shard K of N under dir: dir/shard-K-of-N.
func Dir(dir string, s engine.Shard) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%d-of-%d", s.K, s.N))
}

// Identity is what every shard of one run shares, and a journal continued must match.
func (m *Manifest) Identity() string {
	sys := ""
	if m.System != nil {
		sys = m.System.Label + " " + m.System.Hash
	}
	return fmt.Sprintf("ir %s, benchmark %s, dataset %s, system %s, binding %q, limit %d, %d shards",
		m.IRHash, m.BenchmarkHash, m.DatasetDigest, sys, m.Binding, m.Limit, m.N)
}

// Disagreement says how m differs from want in what the shards of one run share, or "".
func (m *Manifest) Disagreement(want *Manifest) string {
	var diffs []string
	add := func(what, got, w string) {
		if got != w {
			diffs = append(diffs, fmt.Sprintf("%s %s, not %s", what, got, w))
		}
	}
	add("ir_hash", m.IRHash, want.IRHash)
	add("benchmark_hash", m.BenchmarkHash, want.BenchmarkHash)
	add("dataset_digest", m.DatasetDigest, want.DatasetDigest)
	sys := func(m *Manifest) string {
		if m.System == nil {
			return "none"
		}
		return fmt.Sprintf("%s (%s)", m.System.Label, m.System.Hash)
	}
	add("system", sys(m), sys(want))
	add("binding", m.Binding, want.Binding)
	add("limit", fmt.Sprint(m.Limit), fmt.Sprint(want.Limit))
	add("n", fmt.Sprint(m.N), fmt.Sprint(want.N))
	add("total", fmt.Sprint(m.Total), fmt.Sprint(want.Total))
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprint(diffs)
}

// ClockSkew is how far past a merge's clock a manifest's times may be: the shards ran on
// other machines.
const ClockSkew = 5 * time.Minute

// Implausible says how a complete shard's manifest is not one its run can have written,
// or "": its times RFC 3339, the start not after the end nor the end past now (within
// ClockSkew), its examples the shard's of the run's total, its workers no more than its
// examples. A merged report lists them and sums the workers; a stored run shows them.
func (m *Manifest) Implausible(now time.Time) string {
	started, err1 := time.Parse(time.RFC3339Nano, m.StartedAt)
	finished, err2 := time.Parse(time.RFC3339Nano, m.FinishedAt)
	switch {
	case err1 != nil:
		return fmt.Sprintf("its started_at %q is no RFC 3339 time", m.StartedAt)
	case err2 != nil:
		return fmt.Sprintf("its finished_at %q is no RFC 3339 time", m.FinishedAt)
	case finished.Before(started):
		return fmt.Sprintf("it finished (%s) before it started (%s)", m.FinishedAt, m.StartedAt)
	case finished.After(now.Add(ClockSkew)):
		return fmt.Sprintf("it finished in the future (%s; now %s)", m.FinishedAt, now.UTC().Format(time.RFC3339))
	case m.Examples != m.Shard().Count(m.Total):
		return fmt.Sprintf("it counts %d examples, where shard %s of %d examples has %d", m.Examples, m.Shard(), m.Total, m.Shard().Count(m.Total))
	case m.Concurrency < 0 || m.Concurrency > max(m.Examples, 1):
		return fmt.Sprintf("it ran %d workers for %d examples", m.Concurrency, m.Examples)
	}
	return ""
}

// ReadManifest reads the manifest in a shard's folder; a missing one is os.ErrNotExist,
// one that is not a regular file engine.ErrNotRegular (a FIFO is not waited on).
func ReadManifest(dir string) (*Manifest, error) {
	b, err := readSmall(filepath.Join(dir, ManifestFile), MaxManifest)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if m.Format != FormatVersion {
		return nil, fmt.Errorf("%s: format %d, want %d", filepath.Join(dir, ManifestFile), m.Format, FormatVersion)
	}
	if m.Shard().Check() != nil || m.N < 1 {
		return nil, fmt.Errorf("%s: shard %d of %d: want 0 ≤ k < n", filepath.Join(dir, ManifestFile), m.K, m.N)
	}
	return &m, nil
}

// WriteManifest writes m into a shard's folder, whole or not at all (a temporary file
// renamed), so that a reader on a shared filesystem never sees half of it.
func WriteManifest(dir string, m *Manifest) error {
	m.Format = FormatVersion
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+ManifestFile+".tmp")
	os.Remove(tmp) // a left one, or a FIFO or link put there: the file written is a new one
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, ManifestFile))
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

package shard

import (
	"fmt"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// Want is what a merge holds the shards to, never taken from their manifests: the run they
// are merged into as the store recorded it (the server's cluster executor), or the
// benchmark the user named as it now is in the workspace (benchy merge). Every manifest
// must carry its identities, and every journal line must be the result its prediction
// scores against the dataset read from Dir.
type Want struct {
	IR            *ir.Benchmark
	IRHash        string
	BenchmarkHash string
	System        engine.System // as bound: label, definition, prompt, binding, fingerprint, hash
	Binding       string
	// DatasetDigest is the run's digest; "" takes the dataset's as read now, which the
	// manifests must carry all the same.
	DatasetDigest string
	// Limit and Total are the run's limit and examples; Total 0 takes the manifests' limit,
	// and the examples the dataset has under it.
	Limit, Total int
	Dir          string       // the benchmark's folder: its dataset resolves against it
	Paths        engine.Paths // where the dataset may be read
}

// Mismatch is shards that ran something else than the run they are merged into: another
// benchmark, AI-system, binding or dataset. Code names which.
type Mismatch struct {
	Code      diag.Code
	Shard     engine.Shard
	What      string // "ir_hash", "system", "binding", "dataset_digest", ...
	Got, Want string
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("%s: shard %s ran %s %s, where the run merged has %s: %s", m.Code, m.Shard, m.What, m.Got, m.Want, m.hint())
}

// hint says what changed since the shards ran, and what to do.
func (m *Mismatch) hint() string {
	what := "the benchmark was edited"
	switch m.Code {
	case diag.ShardSystemMismatch:
		what = "the benchmark's AI-system changed"
	case diag.ShardBindingMismatch:
		what = "the runtime file binds the AI-system another way (benchy merge --runtime names the one the shards used)"
	case diag.ShardDatasetMismatch:
		what = "the dataset (or the limit) changed"
	}
	return what + " since the shards ran; restore what they ran, or run the shards again"
}

// Abort is m as the reason a run of the store is aborted.
func (m *Mismatch) Abort() *engine.Abort {
	return &engine.Abort{Diagnostic: diag.Diagnostic{Phase: engine.PhaseSetup, Code: m.Code, Path: []string{}, Message: m.Error(), Line: 1, Column: 1}}
}

// Match says how m differs from want, or nil: the first of its identities that does.
func (m *Manifest) Match(want *Want) *Mismatch {
	s := m.Shard()
	differ := func(code diag.Code, what, got, w string) *Mismatch {
		if got == w {
			return nil
		}
		return &Mismatch{Code: code, Shard: s, What: what, Got: fmt.Sprintf("%q", got), Want: fmt.Sprintf("%q", w)}
	}
	// The benchmark apart from its AI-system first, then the AI-system: a benchmark saved
	// with another AI-system has another IR hash too, and is named by what changed.
	if d := differ(diag.ShardIRMismatch, "benchmark_hash", m.BenchmarkHash, want.BenchmarkHash); d != nil {
		return d
	}
	if m.System == nil {
		return &Mismatch{Code: diag.ShardSystemMismatch, Shard: s, What: "system", Got: "none", Want: systemName(want.System)}
	}
	// The manifest's hash is checked to be its own fields' (NewSystem), and those to be
	// the run's: a label or a hash alone rewritten is caught.
	got := *m.System
	again := engine.NewSystem(got.Definition, got.PromptSHA256, got.Binding, got.BindingFingerprint)
	if got.Label != want.System.Label || got.Hash != want.System.Hash || again.Hash != got.Hash || again.Label != got.Label {
		code := diag.ShardSystemMismatch
		if got.Label == want.System.Label && got.PromptSHA256 == want.System.PromptSHA256 && got.BindingFingerprint != want.System.BindingFingerprint {
			code = diag.ShardBindingMismatch // the same system, reached another way
		}
		return &Mismatch{Code: code, Shard: s, What: "system", Got: systemName(got), Want: systemName(want.System)}
	}
	if d := differ(diag.ShardBindingMismatch, "binding", m.Binding, want.Binding); d != nil {
		return d
	}
	if d := differ(diag.ShardBindingMismatch, "binding", got.Binding, want.Binding); d != nil {
		return d
	}
	if d := differ(diag.ShardIRMismatch, "ir_hash", m.IRHash, want.IRHash); d != nil {
		return d
	}
	if want.DatasetDigest != "" {
		if d := differ(diag.ShardDatasetMismatch, "dataset_digest", m.DatasetDigest, want.DatasetDigest); d != nil {
			return d
		}
	}
	if want.Total > 0 {
		if d := differ(diag.ShardDatasetMismatch, "limit", fmt.Sprint(m.Limit), fmt.Sprint(want.Limit)); d != nil {
			return d
		}
		if d := differ(diag.ShardDatasetMismatch, "examples", fmt.Sprint(m.Total), fmt.Sprint(want.Total)); d != nil {
			return d
		}
	}
	return nil
}

// systemName is an AI-system as a mismatch names it: its label and hash.
func systemName(s engine.System) string {
	return fmt.Sprintf("%q (%s)", s.Label, s.Hash)
}

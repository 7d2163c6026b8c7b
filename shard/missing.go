package shard

import (
	"fmt"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// MaxRuns is the most runs of shards a report of missing shards names one by one: a run
// of 10^5 shards missing is one line, not 10^5.
const MaxRuns = 20

// damagedPrefix begins the Why of a shard whose journal a merge cannot read; its run
// refuses the journal too, so it is to be removed before the shard runs again.
// damagedManifest begins the Why of a shard whose manifest is not one its run writes;
// its run would keep its start, so the manifest is to be removed (and the run starts the
// shard afresh: it continues no journal without a manifest).
const (
	damagedPrefix   = "has a damaged journal: "
	damagedManifest = "has a damaged manifest: "
)

// Damaged reports whether m's journal or manifest is damaged (not merely short): to run
// it again that file is to be removed first (Remove).
func (m Missing) Damaged() bool { return m.Remove() != "" }

// Remove is the file of m's folder to remove before running it again (JournalFile,
// ManifestFile), or "" for a shard merely missing or incomplete.
func (m Missing) Remove() string {
	switch {
	case strings.HasPrefix(m.Why, damagedPrefix):
		return JournalFile
	case strings.HasPrefix(m.Why, damagedManifest):
		return ManifestFile
	}
	return ""
}

// Run is shards From to To (by K) of N, one after another, missing for one reason.
type Run struct {
	From, To, N int
	Why         string
	Damaged     bool
	Remove      string // Missing.Remove
}

// Single reports whether r is one shard.
func (r Run) Single() bool { return r.From == r.To }

// Range is r's shards as --only and sbatch --array take them: "3" or "1-99999".
func (r Run) Range() string {
	if r.Single() {
		return fmt.Sprint(r.From)
	}
	return fmt.Sprintf("%d-%d", r.From, r.To)
}

func (r Run) String() string {
	if r.Single() {
		return fmt.Sprintf("shard %d/%d %s", r.From, r.N, r.Why)
	}
	return fmt.Sprintf("shards %d–%d of %d %s", r.From, r.To, r.N, r.Why)
}

// Runs groups ms (by K) into runs of consecutive shards missing for the same reason.
func Runs(ms []Missing) []Run {
	var runs []Run
	for _, m := range ms {
		if n := len(runs); n > 0 && runs[n-1].To+1 == m.Shard.K && runs[n-1].Why == m.Why {
			runs[n-1].To = m.Shard.K
			continue
		}
		runs = append(runs, Run{From: m.Shard.K, To: m.Shard.K, N: m.Shard.N, Why: m.Why, Damaged: m.Damaged(), Remove: m.Remove()})
	}
	return runs
}

// Summary is ms as runs of shards, at most MaxRuns of them, then how many more.
func Summary(ms []Missing) string {
	runs := Runs(ms)
	var parts []string
	for i, r := range runs {
		if i == MaxRuns {
			parts = append(parts, fmt.Sprintf("and %d more runs of shards", len(runs)-MaxRuns))
			break
		}
		parts = append(parts, r.String())
	}
	return strings.Join(parts, "; ")
}

// Damaged reports whether one of u's shards has a damaged journal (a line edited, forged
// or out of place) or manifest, which the merge refused.
func (u *Unfinished) Damaged() bool {
	for _, m := range u.Shards {
		if m.Damaged() {
			return true
		}
	}
	return false
}

// Abort is a merge refused for a damaged journal as the reason its run is aborted.
func (u *Unfinished) Abort() *engine.Abort {
	return &engine.Abort{Diagnostic: diag.Diagnostic{Phase: engine.PhaseSetup, Code: diag.ShardResultMismatch, Path: []string{},
		Message: Summary(u.Shards), Line: 1, Column: 1}}
}

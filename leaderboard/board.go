package leaderboard

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compare"
	"github.com/benchy-eval/benchy/store"
)

// Build is the leaderboard of benchmark benchmarkHash on dataset digest (the newest
// completed run's dataset when digest is ""), through Default.
func Build(st *store.Store, benchmarkHash, digest string) (api.Leaderboard, error) {
	b, err := Default.board(st, benchmarkHash, digest)
	return b.Leaderboard, err
}

// Build is the leaderboard of benchmark benchmarkHash on dataset digest (the newest
// completed run's dataset when digest is "").
func (c *Cache) Build(st *store.Store, benchmarkHash, digest string) (api.Leaderboard, error) {
	b, err := c.board(st, benchmarkHash, digest)
	return b.Leaderboard, err
}

// board is a leaderboard with the outcomes of its entries' runs, in its order.
type board struct {
	api.Leaderboard
	runs     []store.Run
	outcomes []*outcomes
}

// entry is a candidate: a completed full run, its report and what it read.
type entry struct {
	run store.Run
	rep api.Report
	api.LeaderboardEntry
}

func (c *Cache) board(st *store.Store, benchmarkHash, digest string) (board, error) {
	b := board{Leaderboard: api.Leaderboard{BenchmarkHash: benchmarkHash, DatasetDigest: digest,
		Dimensions: [][]string{}, Entries: []api.LeaderboardEntry{}, Datasets: []api.LeaderboardDataset{}, NotRanked: []api.LeaderboardNotRanked{}}}
	if benchmarkHash == "" { // a benchmark of no hash (a run stored without one) has no board
		return b, nil
	}
	l, err := c.listing(st, benchmarkHash)
	if err != nil {
		return b, err
	}
	b.Datasets, b.Unrecorded = slices.Clone(l.datasets), l.unrecorded
	if digest == "" && len(b.Datasets) > 0 {
		b.DatasetDigest = b.Datasets[0].Digest
	}
	if b.DatasetDigest == "" {
		return b, nil
	}
	// The store picks each system's latest completed full run; only their reports are read.
	// One whose report does not decode, or has no score, is left out.
	runs, err := c.leaders(st, l, b.DatasetDigest)
	if err != nil {
		return b, err
	}
	entries := make([]*entry, 0, len(runs)) // one run a system, newest first (Leaders)
	for _, r := range runs {
		var rep api.Report
		if json.Unmarshal(r.Report, &rep) != nil || rep.BenchmarkScore == nil {
			continue
		}
		e := &entry{run: r, rep: rep}
		e.fill(sys(r))
		entries = append(entries, e)
	}
	labelUniquely(entries)
	entries = slices.DeleteFunc(entries, func(e *entry) bool {
		if sum := e.rep.Summary; sum.Examples == 0 || sum.ExecutionErrors < sum.Examples {
			return false
		}
		b.NotRanked = append(b.NotRanked, api.LeaderboardNotRanked{System: e.System, Run: e.run.ID,
			Reason: fmt.Sprintf("every example of its latest run (%d) was an execution error: the system was not reached, so its score measures the setup", e.rep.Summary.Examples)})
		return true
	})
	slices.SortFunc(b.NotRanked, func(x, y api.LeaderboardNotRanked) int { return strings.Compare(x.System, y.System) })
	slices.SortFunc(entries, func(x, y *entry) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), strings.Compare(x.System, y.System), strings.Compare(x.SystemHash, y.SystemHash))
	})
	// Each run's outcomes: read the ones not cached, two at a time (the store's reader
	// pool runs them side by side; SQLite's scan is the cost).
	b.outcomes = make([]*outcomes, len(entries))
	errs := make([]error, len(entries))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, e := range entries {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			b.outcomes[i], errs[i] = c.outcomes(st, e.run)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return b, err
		}
	}
	for i, e := range entries {
		switch {
		case i == 0:
			e.Rank = 1
		case e.Score == entries[i-1].Score:
			e.Rank = entries[i-1].Rank
		default:
			e.Rank = i + 1
		}
		e.LatencyP50MS, e.LatencyP95MS = b.outcomes[i].p50, b.outcomes[i].p95
		if i > 0 {
			c.versusLeader(e, entries[0], b.outcomes[i], b.outcomes[0])
		}
		b.Entries = append(b.Entries, e.LeaderboardEntry)
		b.runs = append(b.runs, e.run)
	}
	if len(entries) > 0 {
		for _, d := range entries[0].rep.Dimensions {
			b.Dimensions = append(b.Dimensions, d.Path)
		}
	}
	return b, nil
}

func sys(r store.Run) (label, hash string) {
	if r.System != nil {
		label, hash = r.System.Label, r.System.Hash
	}
	if label == "" {
		label = "(unnamed)"
	}
	return label, hash
}

// fill sets what the entry takes from its run and report.
func (e *entry) fill(label, hash string) {
	r, rep := e.run, e.rep
	e.LeaderboardEntry = api.LeaderboardEntry{System: label, SystemHash: hash, Run: r.ID, Benchmark: r.Benchmark,
		Score: *rep.BenchmarkScore, Examples: rep.Summary.Examples, Valid: rep.Summary.Valid,
		InvalidOutputs: rep.Summary.InvalidOutputs, ExecutionErrors: rep.Summary.ExecutionErrors,
		Dimensions: make([]*float64, len(rep.Dimensions)), Usage: rep.Usage, FinishedAt: r.FinishedAt}
	if rep.Confidence != nil {
		e.Interval = *rep.Confidence
	}
	for i, d := range rep.Dimensions {
		e.Dimensions[i] = d.Accuracy
	}
}

// labelUniquely tells apart systems that share a label (one model with two prompts, say)
// by the start of their hash.
func labelUniquely(entries []*entry) {
	count := map[string]int{}
	for _, e := range entries {
		count[e.System]++
	}
	for _, e := range entries {
		if count[e.System] > 1 {
			e.System += " #" + short(e.SystemHash, 6)
		}
	}
}

// short is hash's first n hex digits, without its "sha256:".
func short(hash string, n int) string {
	hex := strings.TrimPrefix(hash, "sha256:")
	return hex[:min(n, len(hex))]
}

// versusLeader sets e's paired difference to the leader's run, when the two runs pair
// example by example (each holds the results its report counts, indexed 0..n-1).
func (c *Cache) versusLeader(e, leader *entry, o, lo *outcomes) {
	e.DeltaVsLeader = e.Score - leader.Score
	if !o.inStep || !lo.inStep || len(o.contribution) != e.Examples || len(lo.contribution) != leader.Examples || e.Examples != leader.Examples {
		return
	}
	k := [2]runKey{keyOf(leader.run), keyOf(e.run)}
	d, ok := c.delta(k)
	if !ok {
		d.mean, d.interval = compare.Paired(lo.contribution, o.contribution)
		c.putDelta(k, d)
	}
	iv := api.Interval(d.interval)
	e.DeltaVsLeader, e.DeltaInterval = d.mean, &iv
	e.Significant = iv.Low > 0 || iv.High < 0
}

// names is a board's benchmark and dataset, briefly: the text form's last line.
func names(b api.Leaderboard) string {
	d := "none"
	if b.DatasetDigest != "" {
		d = "sha256:" + short(b.DatasetDigest, 12)
	}
	return fmt.Sprintf("benchmark sha256:%s  dataset %s", short(b.BenchmarkHash, 12), d)
}

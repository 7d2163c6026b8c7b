package leaderboard

import (
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// A listing is what a board reads of the runs table for one benchmark hash: its datasets
// and, per dataset asked for, each system's latest completed full run (store.Leaders). It
// holds while the benchmark's number of completed runs and the greatest id among them are
// those it was read at (store.CompletedRuns): a run that completes stays completed and
// none is deleted, so any change to what it lists raises the count, and the id tells one
// store from another (a server's tests open many). The index alone gives the two (10 ms
// at 50,000 runs, where the listing's two queries take 150 ms).
type listing struct {
	hash       string
	completed  int
	newest     string
	datasets   []api.LeaderboardDataset
	unrecorded int
	leaders    map[string][]store.Run // by dataset digest
}

// maxListings bounds the listings kept; beyond it they are read again.
const maxListings = 256

// listing returns benchmarkHash's listing, read again if a run completed since.
func (c *Cache) listing(st *store.Store, benchmarkHash string) (*listing, error) {
	n, newest, err := st.CompletedRuns(benchmarkHash) // before the lists: a run completing meanwhile shows next time
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	l, ok := c.lists[benchmarkHash]
	c.mu.Unlock()
	if ok && l.completed == n && l.newest == newest {
		return l, nil
	}
	ds, unrecorded, err := st.Datasets(benchmarkHash)
	if err != nil {
		return nil, err
	}
	l = &listing{hash: benchmarkHash, completed: n, newest: newest, datasets: []api.LeaderboardDataset{}, unrecorded: unrecorded, leaders: map[string][]store.Run{}}
	for _, d := range ds {
		l.datasets = append(l.datasets, api.LeaderboardDataset{Digest: d.Digest, Systems: d.Systems})
	}
	c.mu.Lock()
	if len(c.lists) >= maxListings {
		clear(c.lists)
	}
	c.lists[benchmarkHash] = l
	c.mu.Unlock()
	return l, nil
}

// leaders returns the runs of l's benchmark a board of dataset digest ranks.
func (c *Cache) leaders(st *store.Store, l *listing, digest string) ([]store.Run, error) {
	c.mu.Lock()
	runs, ok := l.leaders[digest]
	c.mu.Unlock()
	if ok {
		return runs, nil
	}
	runs, err := st.Leaders(l.hash, digest)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(l.leaders) >= maxListings {
		clear(l.leaders)
	}
	l.leaders[digest] = runs
	c.mu.Unlock()
	return runs, nil
}

package leaderboard

import (
	"slices"
	"sync"
	"time"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// Status codes of outcome vectors, one byte per example.
const (
	valid uint8 = iota
	invalidOutput
	executionError
	otherStatus
)

func code(s engine.Status) uint8 {
	switch s {
	case engine.StatusValid:
		return valid
	case engine.StatusInvalidOutput:
		return invalidOutput
	case engine.StatusExecutionError:
		return executionError
	}
	return otherStatus
}

// outcomes is what a board keeps of one completed run: each example's status and
// contribution by index, and the latency percentiles of the examples that recorded one.
type outcomes struct {
	status       []uint8
	contribution []float64
	// inStep says the stored indices are 0..n-1 with none missing: only then do two runs
	// pair example by example.
	inStep   bool
	p50, p95 *float64
}

func (o *outcomes) size() int64 { return int64(len(o.status))*9 + 128 }

// readOutcomes reads run id's outcome columns, n of them expected.
func readOutcomes(st *store.Store, id string, n int) (*outcomes, error) {
	o := &outcomes{inStep: true, status: make([]uint8, 0, n), contribution: make([]float64, 0, n)}
	var latencies []float64
	err := st.Outcomes(id, func(r store.Outcome) error {
		if r.Index != len(o.status) {
			o.inStep = false
		}
		o.status = append(o.status, code(r.Status))
		o.contribution = append(o.contribution, r.Contribution)
		if r.HasLatency {
			latencies = append(latencies, r.LatencyMS)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	o.status, o.contribution = slices.Clip(o.status), slices.Clip(o.contribution)
	if len(latencies) > 0 {
		slices.Sort(latencies)
		o.p50, o.p95 = percentile(latencies, 0.50), percentile(latencies, 0.95)
	}
	return o, nil
}

// percentile is the nearest-rank percentile p of sorted xs.
func percentile(xs []float64, p float64) *float64 {
	i := int(p*float64(len(xs))+0.999999999) - 1
	v := xs[min(max(i, 0), len(xs)-1)]
	return &v
}

// Cache keeps the outcomes of completed runs, keyed by run id and finish time (a run that
// finished again after a resume is another key), up to a bound in bytes, the least
// recently used forgotten first. It also keeps the paired differences it computed, and each
// benchmark's listing of datasets and leading runs (listing.go). Its methods are safe for
// concurrent use.
type Cache struct {
	mu     sync.Mutex
	max    int64
	bytes  int64
	tick   uint64
	runs   map[runKey]*cached
	deltas map[[2]runKey]delta
	lists  map[string]*listing // by benchmark hash
}

type runKey struct {
	id       string
	finished time.Time
}

type cached struct {
	o    *outcomes
	used uint64
}

type delta struct {
	mean     float64
	interval engine.Interval
}

// maxDeltas bounds the paired differences kept: a few hundred bytes each.
const maxDeltas = 4096

// DefaultBytes is the bound of Default: ten runs of a million examples.
const DefaultBytes = 96 << 20

// Default is the cache Build uses.
var Default = NewCache(DefaultBytes)

// NewCache returns a cache that keeps at most maxBytes of outcomes.
func NewCache(maxBytes int64) *Cache {
	return &Cache{max: maxBytes, runs: map[runKey]*cached{}, deltas: map[[2]runKey]delta{}, lists: map[string]*listing{}}
}

func keyOf(r store.Run) runKey {
	k := runKey{id: r.ID}
	if r.FinishedAt != nil {
		k.finished = *r.FinishedAt
	}
	return k
}

// outcomes returns run r's outcomes, read from st unless cached.
func (c *Cache) outcomes(st *store.Store, r store.Run) (*outcomes, error) {
	n := 0
	if r.Summary != nil {
		n = min(r.Summary.Examples, 1<<24)
	}
	k := keyOf(r)
	c.mu.Lock()
	if e, ok := c.runs[k]; ok {
		c.tick++
		e.used = c.tick
		c.mu.Unlock()
		return e.o, nil
	}
	c.mu.Unlock()
	o, err := readOutcomes(st, r.ID, n)
	if err != nil {
		return nil, err
	}
	c.put(k, o)
	return o, nil
}

func (c *Cache) put(k runKey, o *outcomes) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.runs[k]; ok || o.size() > c.max {
		return
	}
	for c.bytes+o.size() > c.max {
		var oldest runKey
		var least uint64 = ^uint64(0)
		for k, e := range c.runs {
			if e.used < least {
				oldest, least = k, e.used
			}
		}
		c.bytes -= c.runs[oldest].o.size()
		delete(c.runs, oldest)
	}
	c.tick++
	c.runs[k] = &cached{o: o, used: c.tick}
	c.bytes += o.size()
}

// Bytes is how much the cache holds.
func (c *Cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

func (c *Cache) delta(k [2]runKey) (delta, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.deltas[k]
	return d, ok
}

func (c *Cache) putDelta(k [2]runKey, d delta) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.deltas) >= maxDeltas {
		clear(c.deltas)
	}
	c.deltas[k] = d
}

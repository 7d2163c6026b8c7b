package engine

import "fmt"

// Shard is the part of a run one machine evaluates: example index i (0-based, in the
// dataset's order after the limit) belongs to shard K of N iff i % N == K. The rule
// interleaves, so every shard gets a like share of a dataset sorted by difficulty, and a
// merge reads the shards' journals round-robin, index i from shard i % N, with no sort
// and no memory of the results. The zero Shard (N 0) is the whole run, as is 0 of 1.
type Shard struct {
	K, N int
}

// Whole reports whether s is the whole run.
func (s Shard) Whole() bool { return s.N <= 1 }

// Has reports whether example index belongs to s.
func (s Shard) Has(index int) bool { return s.Whole() || index%s.N == s.K }

// Count is how many of a run's first total examples belong to s.
func (s Shard) Count(total int) int {
	switch {
	case s.Whole():
		return total
	case total <= s.K:
		return 0
	}
	return (total - s.K + s.N - 1) / s.N
}

// Index is the example index of s's example at position pos (0-based, among s's).
func (s Shard) Index(pos int) int {
	if s.Whole() {
		return pos
	}
	return s.K + pos*s.N
}

// MaxShards is the most shards a run has: the most completions a Kubernetes Indexed Job
// with a backoff limit per index takes (10^5). It also bounds what a merge opens and
// reports, one journal and one manifest a shard.
const MaxShards = 100000

// Check says what is wrong with s, or nil.
func (s Shard) Check() error {
	if s.N < 0 || s.K < 0 || (s.N > 0 && s.K >= s.N) || (s.N == 0 && s.K != 0) {
		return fmt.Errorf("shard %d of %d: want 0 ≤ K < N", s.K, s.N)
	}
	if s.N > MaxShards {
		return fmt.Errorf("shard %d of %d: N is at most %d, the most a Kubernetes Indexed Job takes", s.K, s.N, MaxShards)
	}
	return nil
}

// String is s as --shard takes it, "K/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

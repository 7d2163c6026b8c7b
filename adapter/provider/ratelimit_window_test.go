package provider

import (
	"container/heap"
	"math/rand/v2"
	"net/http"
	"sort"
	"testing"
	"time"
)

// simEvent is a step of a simulated run: a worker tries to send, or a reply comes back.
type simEvent struct {
	at     time.Time
	worker int
	gen    int     // the worker's generation it was scheduled in: older tries are stale
	t      *ticket // a reply's; nil for a try
	used   int
}

type simQueue []simEvent

func (q simQueue) Len() int           { return len(q) }
func (q simQueue) Less(i, j int) bool { return q[i].at.Before(q[j].at) }
func (q simQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *simQueue) Push(x any)        { *q = append(*q, x.(simEvent)) }
func (q *simQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// sent is one request as the provider saw it: when, and the tokens it used.
type sent struct {
	at     time.Time
	tokens int
}

// maxInWindow is the most tokens of sends within any window of length w (half open): the
// largest is always in a window that starts at a send.
func maxInWindow(sends []sent, w time.Duration) int {
	sort.Slice(sends, func(i, j int) bool { return sends[i].at.Before(sends[j].at) })
	most, sum, j := 0, 0, 0
	for i := range sends {
		for j < len(sends) && sends[j].at.Before(sends[i].at.Add(w)) {
			sum += sends[j].tokens
			j++
		}
		most = max(most, sum)
		sum -= sends[i].tokens
	}
	return most
}

// inWindow is the tokens of sends within [from, from+w).
func inWindow(sends []sent, from time.Time, w time.Duration) int {
	n := 0
	for _, s := range sends {
		if !s.at.Before(from) && s.at.Before(from.Add(w)) {
			n += s.tokens
		}
	}
	return n
}

// TestTokensPerMinuteNeverAbove runs 64 workers against the limiter on a simulated clock
// for five minutes: requests of 50 to 150 estimated tokens that use 1.25 to 2 times that
// (their output unknown before the reply), replies after 20 to 520 ms, every waiting worker
// looking again at each reply as enter's waiters do. Within any minute the tokens the
// replies report never pass tokens_per_minute, and every minute after the first holds at
// least 98% of it.
func TestTokensPerMinuteNeverAbove(t *testing.T) {
	const workers, limit = 64, 20000
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	now := start
	l := newLimiter(func() time.Time { return now })
	l.configure(0, 0, limit)
	rng := rand.New(rand.NewPCG(1, 2))
	q := &simQueue{}
	gen := make([]int, workers)
	waiting := map[int]bool{}
	for w := range workers {
		heap.Push(q, simEvent{at: start, worker: w})
	}
	var sends []sent
	end := start.Add(5 * time.Minute)
	raws := make([]int, workers)
	for q.Len() > 0 {
		e := heap.Pop(q).(simEvent)
		if e.at.After(end) {
			break
		}
		now = e.at
		if e.t != nil {
			l.settle(now, e.t, http.StatusOK, http.Header{}, e.used, true)
			for w := range waiting { // a reply wakes every waiter
				delete(waiting, w)
				gen[w]++
				heap.Push(q, simEvent{at: now, worker: w, gen: gen[w]})
			}
			raws[e.worker] = 0
			gen[e.worker]++
			heap.Push(q, simEvent{at: now, worker: e.worker, gen: gen[e.worker]})
			continue
		}
		if e.gen != gen[e.worker] {
			continue // superseded by a wake-up
		}
		if raws[e.worker] == 0 {
			raws[e.worker] = 50 + rng.IntN(101)
		}
		raw := raws[e.worker]
		tk, until, _ := l.admit(now, raw, false)
		if tk == nil {
			waiting[e.worker] = true
			if !until.IsZero() {
				heap.Push(q, simEvent{at: until, worker: e.worker, gen: gen[e.worker]})
			}
			continue
		}
		used := raw + raw*(1+rng.IntN(4))/4 // an output of a quarter to all of the input
		sends = append(sends, sent{now, used})
		latency := 20*time.Millisecond + time.Duration(rng.Int64N(int64(500*time.Millisecond)))
		heap.Push(q, simEvent{at: now.Add(latency), worker: e.worker, t: tk, used: used})
	}
	if most := maxInWindow(sends, time.Minute); most > limit {
		t.Errorf("%d tokens within a minute, above the limit %d", most, limit)
	}
	for m := 1; m <= 3; m++ {
		from := start.Add(time.Duration(m) * time.Minute)
		if got := inWindow(sends, from, time.Minute); float64(got) < 0.98*limit {
			t.Errorf("minute %d: %d tokens, below 98%% of %d", m+1, got, limit)
		}
	}
	t.Logf("%d requests, %d tokens at most within a minute (limit %d), minute 3: %d", len(sends), maxInWindow(sends, time.Minute), limit, inWindow(sends, start.Add(2*time.Minute), time.Minute))
}

// TestRequestsPerMinuteSpacing: requests_per_minute spaces admissions evenly, whoever asks.
func TestRequestsPerMinuteSpacing(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	l := newLimiter(func() time.Time { return now })
	l.configure(0, 600, 0) // one per 100 ms
	tk, _, _ := l.admit(now, 1, false)
	if tk == nil {
		t.Fatal("the first request waits")
	}
	tk2, until, why := l.admit(now.Add(10*time.Millisecond), 1, false)
	if tk2 != nil || !until.Equal(now.Add(100*time.Millisecond)) || why != whyRequests {
		t.Errorf("second request: %v until %v (%s), want to wait 100ms for %s", tk2 != nil, until.Sub(now), why, whyRequests)
	}
	if tk3, _, _ := l.admit(now.Add(100*time.Millisecond), 1, false); tk3 == nil {
		t.Error("the second request waits past its turn")
	}
}

// TestTokensBeforeFirstReply: with tokens_per_minute, one request goes until a reply
// calibrates the estimates; and a request larger than the whole limit goes alone.
func TestTokensBeforeFirstReply(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	l := newLimiter(func() time.Time { return now })
	l.configure(0, 0, 6000) // 100 a second, a second's worth ahead of the pace at most
	a, _, _ := l.admit(now, 10, false)
	if b, _, _ := l.admit(now, 10, false); a == nil || b != nil {
		t.Fatalf("before a reply: first %v, second %v; want one request only", a != nil, b != nil)
	}
	l.settle(now, a, 200, http.Header{}, 30, true) // used three times the estimate
	b, _, _ := l.admit(now, 10, false)
	if b == nil || b.spent.tokens != 30 {
		t.Fatalf("after a reply: %+v, want 30 tokens reserved (the estimate calibrated)", b)
	}
	l.settle(now, b, 200, http.Header{}, 30, true)
	big, _, _ := l.admit(now, 5000, false)
	if big != nil {
		t.Fatal("a request larger than the limit went with 60 tokens in the window")
	}
	later := now.Add(l.window)
	if big, _, _ = l.admit(later, 5000, false); big == nil || big.spent.tokens != 6000 {
		t.Fatalf("in an empty window a request larger than the limit reserves %+v, want the whole limit", big)
	}
}

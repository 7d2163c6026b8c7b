package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// queued waits until l's queue holds n requests.
func queued(t *testing.T, l *limiter, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		l.mu.Lock()
		got := len(l.queue)
		l.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests queued, want %d", got, n)
		}
	}
}

// TestQueueGivesUp: a request that gives up while first in the queue lets the next one go
// at its turn, and leaves no count of waiters behind.
func TestQueueGivesUp(t *testing.T) {
	l := newLimiter(time.Now)
	l.configure(0, 600, 0) // one per 100 ms
	var p0 uint64
	if _, err := l.enter(context.Background(), 1, false, &p0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		var p uint64
		_, err := l.enter(ctx, 1, false, &p)
		first <- err
	}()
	queued(t, l, 1)
	second := make(chan *ticket, 1)
	go func() {
		var p uint64
		tk, _ := l.enter(context.Background(), 1, false, &p)
		second <- tk
	}()
	queued(t, l, 2)
	cancel()
	if err := <-first; err == nil {
		t.Fatal("the cancelled request went")
	}
	select {
	case tk := <-second:
		if tk == nil {
			t.Fatal("the second request failed")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the request behind one that gave up never goes")
	}
	if _, _, ok := l.Waiting(); ok || len(l.queue) != 0 {
		t.Errorf("after both: waiting %v, %d queued; want none", ok, len(l.queue))
	}
}

// TestRetryKeepsItsPlace: a request retrying after a 429's Retry-After goes ahead of the
// requests that first asked after it, which the Retry-After still holds; a request that
// asked later queues behind them.
func TestRetryKeepsItsPlace(t *testing.T) {
	l := newLimiter(time.Now)
	var early uint64
	l.mu.Lock()
	l.seq++
	early = l.seq // the retrying request's place: it asked first
	l.pause = time.Now().Add(time.Second)
	l.mu.Unlock()
	held := make(chan *ticket, 1)
	go func() {
		var p uint64
		tk, _ := l.enter(context.Background(), 1, false, &p)
		held <- tk
	}()
	queued(t, l, 1)
	start := time.Now()
	if _, err := l.enter(context.Background(), 1, true, &early); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 800*time.Millisecond { // the hold is 1s: a retry behind it waits that long
		t.Errorf("the retry waited %v behind a request that asked after it", d)
	}
	late := uint64(0)
	last, err := l.enter(context.Background(), 1, true, &late)
	if err != nil {
		t.Fatal(err)
	}
	if first := <-held; first == nil || last.at.Before(first.at) {
		t.Error("a request that asked last went before the one held by the Retry-After")
	}
}

// TestLatencyCountsRetries: latency_ms runs from the first attempt's send, its retries
// included, not from when the request began to wait for the provider's hold.
func TestLatencyCountsRetries(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1: // the first request's reply holds the next for 500ms
			w.Header().Set("x-ratelimit-remaining-requests", "0")
			w.Header().Set("x-ratelimit-reset-requests", "500ms")
		case 2:
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":{"message":"overloaded"}}`))
			return
		}
		w.Write([]byte(oaCompletion(`{"answer":"ok"}`, "stop")))
	}))
	defer srv.Close()
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 2}, oaQATask())
	if err := invoke(t, a); err != nil {
		t.Fatal(err)
	}
	a.c.sleep = func(ctx context.Context, _ time.Duration) error { return sleepCtx(ctx, 150*time.Millisecond) }
	start := time.Now()
	out, err := a.Invoke(context.Background(), 1, map[string]any{"q": "again"})
	if err != nil {
		t.Fatal(err)
	}
	ms := out.(*engine.Answer).Usage.LatencyMS
	// Judged against the time the call took, not a fixed bound, so that a loaded machine's
	// slow replies do not fail it: the 500ms hold (less 100ms of slack) is outside latency_ms.
	if took := time.Since(start); took < 600*time.Millisecond || ms < 150 || ms > float64(took.Milliseconds())-400 {
		t.Errorf("took %v, latency_ms %v; want the 500ms hold left out and the 150ms before the retry in", took, ms)
	}
}

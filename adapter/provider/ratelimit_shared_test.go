package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// okServer answers every chat request with a completion, after setting the headers
// header gives it (nil: none).
func okServer(t testing.TB, header func(http.Header)) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if header != nil {
			header(w.Header())
		}
		w.Write([]byte(oaCompletion(`{"answer":"ok"}`, "stop")))
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// invoke sends one example through a.
func invoke(t testing.TB, a *modelAdapter) error {
	t.Helper()
	_, err := a.Invoke(context.Background(), 0, map[string]any{"q": "hi"})
	return err
}

// limiterOf is a's provider's limiter, after a's first request.
func limiterOf(t testing.TB, a *modelAdapter) *limiter {
	t.Helper()
	b := a.c.lim.Load()
	if b == nil {
		t.Fatal("no limiter: no request was sent")
	}
	return b.l
}

// TestSharedLimiter: two factories for the same provider, as two runs of a server make
// them, share one limiter, and so one budget; another base URL or another key is another
// provider's limits. Before, each factory's client paced its own requests.
func TestSharedLimiter(t *testing.T) {
	srv, _ := okServer(t, nil)
	other, _ := okServer(t, nil)
	task := oaQATask()
	cfg := Config{Name: "a", BaseURL: srv.URL + "/v1", RequestsPerMinute: 600, TokensPerMinute: 100000}
	run1, _ := oaAdapter(t, cfg, task)
	renamed := cfg
	renamed.Name = "b" // another runtime file's name for the same account
	run2, _ := oaAdapter(t, renamed, task)
	elsewhere := cfg
	elsewhere.BaseURL = other.URL + "/v1"
	run3, _ := oaAdapter(t, elsewhere, task)
	run4 := newModel(t, Config{Name: "a", Kind: KindOpenAI, BaseURL: srv.URL + "/v1", APIKeyEnv: "OTHER_KEY", RequestsPerMinute: 600}, task, "sk-other-0123456789")
	for _, a := range []*modelAdapter{run1, run2, run3, run4} {
		if err := invoke(t, a); err != nil {
			t.Fatal(err)
		}
	}
	if limiterOf(t, run1) != limiterOf(t, run2) {
		t.Error("two factories for one provider have two limiters")
	}
	if limiterOf(t, run1) == limiterOf(t, run3) {
		t.Error("two base URLs share a limiter")
	}
	if limiterOf(t, run1) == limiterOf(t, run4) {
		t.Error("two keys share a limiter")
	}
	id := limiterKey(KindOpenAI, srv.URL+"/v1/chat/completions", oaKey)
	if strings.Contains(id, oaKey) {
		t.Errorf("the limiter's identity %q holds the key", id)
	}
	// One budget: the second run's request waits for the first's turn.
	start := time.Now()
	if err := invoke(t, run2); err != nil {
		t.Fatal(err)
	}
	if err := invoke(t, run1); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("two requests of two runs at 600 a minute took %v, want at least 150ms (one per 100ms, shared)", d)
	}
}

// TestProviderHoldsEveryone: a reply saying a limit has 0 left holds every worker's next
// request until its reset; a 429's Retry-After holds the requests not already waiting it
// out.
func TestProviderHoldsEveryone(t *testing.T) {
	var first atomic.Bool
	srv, calls := okServer(t, func(h http.Header) {
		if !first.Swap(true) {
			h.Set("x-ratelimit-remaining-requests", "0")
			h.Set("x-ratelimit-reset-requests", "300ms")
		}
	})
	task := oaQATask()
	cfg := Config{BaseURL: srv.URL + "/v1"}
	a, _ := oaAdapter(t, cfg, task)
	b, _ := oaAdapter(t, cfg, task)
	if err := invoke(t, a); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := invoke(t, b); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 250*time.Millisecond || calls.Load() != 2 {
		t.Errorf("the next request went after %v (%d calls), want after the reset, 300ms", d, calls.Load())
	}

	// A 429 with Retry-After: 1 holds another worker's fresh request.
	var n atomic.Int32
	limited := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("retry-after-ms", "400")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"message":"Rate limit reached"}}`))
			return
		}
		w.Write([]byte(oaCompletion(`{"answer":"ok"}`, "stop")))
	}))
	defer limited.Close()
	cfg = Config{BaseURL: limited.URL + "/v1", MaxRetries: 0}
	c, _ := oaAdapter(t, cfg, task)
	d, _ := oaAdapter(t, cfg, task)
	if err := invoke(t, c); err == nil {
		t.Fatal("the 429 without retries is no failure")
	}
	start = time.Now()
	if err := invoke(t, d); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 300*time.Millisecond {
		t.Errorf("another worker's request went %v after a 429 asking for 400ms", el)
	}
}

// TestBackOffAndRecover: the second 429 in a row halves the requests in flight, down to 1;
// a 429 to a request sent before the last cut does not cut again; successes raise the cap
// by one per cap's worth, up to max_concurrency, where AIMD lets go.
func TestBackOffAndRecover(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	l := newLimiter(func() time.Time { return now })
	l.configure(16, 0, 0)
	admit := func(n int) []*ticket {
		var out []*ticket
		for range n {
			tk, _, _ := l.admit(now, 1, false)
			if tk == nil {
				break
			}
			out = append(out, tk)
		}
		return out
	}
	in := admit(20)
	if len(in) != 16 {
		t.Fatalf("%d in flight, want max_concurrency 16", len(in))
	}
	now = now.Add(time.Millisecond)
	l.settle(now, in[0], http.StatusTooManyRequests, http.Header{}, 0, false)
	if c := l.capacity(); c != 16 {
		t.Errorf("one 429: cap %d, want 16 still", c)
	}
	l.settle(now, in[1], http.StatusTooManyRequests, http.Header{}, 0, false)
	if c := l.capacity(); c != 8 {
		t.Errorf("two 429s: cap %d, want 8", c)
	}
	for _, tk := range in[2:6] { // sent before the cut: no further cut
		l.settle(now, tk, http.StatusTooManyRequests, http.Header{}, 0, false)
	}
	if c := l.capacity(); c != 8 {
		t.Errorf("429s of requests sent before the cut: cap %d, want 8", c)
	}
	for _, tk := range in[6:] {
		l.settle(now, tk, http.StatusOK, http.Header{}, 0, false)
	}
	// Repeated 429s after the cut halve it down to 1, never 0.
	for _, want := range []int{4, 2, 1, 1} {
		now = now.Add(time.Millisecond)
		for range 2 {
			tk := admit(1)
			if len(tk) == 0 {
				t.Fatal("nothing may go")
			}
			l.settle(now, tk[0], http.StatusTooManyRequests, http.Header{}, 0, false)
		}
		if c := l.capacity(); c != want {
			t.Errorf("cap %d, want %d", c, want)
		}
	}
	successes := 0
	for l.allowed > 0 && successes < 1000 {
		tk := admit(1)
		if len(tk) != 1 {
			t.Fatal("nothing may go under the cap")
		}
		l.settle(now, tk[0], http.StatusOK, http.Header{}, 0, false)
		successes++
	}
	if l.allowed != 0 || l.capacity() != 16 {
		t.Errorf("after %d successes cap %d (AIMD %v), want max_concurrency 16 again", successes, l.capacity(), l.allowed)
	}
	if successes < 16 || successes > 200 {
		t.Errorf("recovery from 1 to 16 took %d successes, want about 16²/2", successes)
	}
}

// TestBackOffOverHTTP: a provider that refuses whatever passes 4 requests in flight, sent
// 32 workers' requests with no max_concurrency: the 429s cut the requests in flight, so
// that most requests end answered, and the cap recovers while the answers come.
func TestBackOffOverHTTP(t *testing.T) {
	var inflight, refused, most atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		if n > 4 {
			refused.Add(1)
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"message":"too many requests in flight"}}`))
			return
		}
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		w.Write([]byte(oaCompletion(`{"answer":"ok"}`, "stop")))
	}))
	defer srv.Close()
	task := oaQATask()
	var wg sync.WaitGroup
	var failed atomic.Int32
	const workers, each = 32, 10
	for range workers {
		a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 8}, task)
		a.c.sleep = func(ctx context.Context, d time.Duration) error { return sleepCtx(ctx, time.Millisecond) }
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if err := invoke(t, a); err != nil {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f > 0 {
		t.Errorf("%d of %d requests failed (%d refusals): the 429s did not cut the requests in flight", f, workers*each, refused.Load())
	}
	t.Logf("%d refusals for %d requests", refused.Load(), workers*each)
}

// TestWaitingForTheRateLimit: a request held by a limit says so, with why and since when,
// through the adapter (as the run service reads it) and the process; once it goes, no
// longer.
func TestWaitingForTheRateLimit(t *testing.T) {
	srv, _ := okServer(t, nil)
	cfg := Config{BaseURL: srv.URL + "/v1", RequestsPerMinute: 1}
	a, _ := oaAdapter(t, cfg, oaQATask())
	if _, _, ok := a.Waiting(); ok {
		t.Error("waiting before any request")
	}
	if err := invoke(t, a); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := a.Invoke(ctx, 0, map[string]any{"q": "hi"})
		done <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if since, why, ok := a.Waiting(); ok {
			if why != whyRequests || time.Since(since) > time.Minute {
				t.Errorf("waiting since %v for %q, want %q", since, why, whyRequests)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the held request never says it waits")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, why, ok := Waiting(); !ok || why == "" {
		t.Errorf("the process says it waits: %v (%q)", ok, why)
	}
	cancel()
	<-done
	if _, _, ok := a.Waiting(); ok {
		t.Error("still waiting once the request gave up")
	}
}

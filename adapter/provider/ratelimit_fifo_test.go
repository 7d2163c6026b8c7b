package provider

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// lineUp lines n examples up behind a hold the provider asks for in its reply to a first
// request (prime sets that reply's headers and status), one worker each, example i asking
// after example i-1 waits, and lets the limits of cfg release them. It returns the order the
// stub saw them in and each one's latency_ms. The stub answers at once.
func lineUp(t *testing.T, cfg Config, n int, prime func(w http.ResponseWriter) int, setup func(*limiter)) (order []int, latency []float64) {
	t.Helper()
	var mu sync.Mutex
	example := regexp.MustCompile(`example (\d+)`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if m := example.FindSubmatch(body); m != nil {
			i, _ := strconv.Atoi(string(m[1]))
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
		} else if status := prime(w); status != http.StatusOK {
			w.WriteHeader(status)
			w.Write([]byte(`{"error":{"message":"Rate limit reached"}}`))
			return
		}
		w.Write([]byte(oaCompletion(`{"answer":"ok"}`, "stop")))
	}))
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL + "/v1"
	first, _ := oaAdapter(t, cfg, oaQATask())
	invoke(t, first) // the prime: its reply holds every request
	l := limiterOf(t, first)
	if setup != nil {
		l.mu.Lock()
		setup(l)
		l.mu.Unlock()
	}
	latency = make([]float64, n)
	var wg sync.WaitGroup
	for i := range n {
		a, _ := oaAdapter(t, cfg, oaQATask())
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := a.Invoke(context.Background(), i, map[string]any{"q": fmt.Sprintf("example %d", i)})
			if err != nil {
				t.Errorf("example %d: %v", i, err)
				return
			}
			latency[i] = out.(*engine.Answer).Usage.LatencyMS
		}()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			l.mu.Lock()
			w := l.waiters
			l.mu.Unlock()
			if w > i {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("example %d never waits for the hold (%d waiting)", i, w)
			}
		}
	}
	wg.Wait()
	return order, latency
}

// TestWaitersGoInOrder: requests held by a limit go in the order they asked, whatever lets
// them go: requests_per_minute alone, tokens_per_minute, or a 429's Retry-After with one
// request in flight at a time; and each one's latency_ms is the provider's answer, not the
// time it waited. Before, every waiter woke at each change and the first to take the lock
// went: a reviewer's example 0 waited 60 s while later ones went ahead, its latency_ms 59546
// against a stub that answers at once.
func TestWaitersGoInOrder(t *testing.T) {
	holdRequests := func(w http.ResponseWriter) int {
		w.Header().Set("x-ratelimit-remaining-requests", "0")
		w.Header().Set("x-ratelimit-reset-requests", "600ms")
		return http.StatusOK
	}
	holdTokens := func(w http.ResponseWriter) int {
		w.Header().Set("x-ratelimit-remaining-tokens", "0")
		w.Header().Set("x-ratelimit-reset-tokens", "600ms")
		return http.StatusOK
	}
	tooMany := func(w http.ResponseWriter) int {
		w.Header().Set("retry-after-ms", "600")
		return http.StatusTooManyRequests
	}
	cases := []struct {
		name  string
		cfg   Config
		prime func(http.ResponseWriter) int
		setup func(*limiter)
	}{
		{"requests_per_minute alone, one every 100ms", Config{RequestsPerMinute: 600}, holdRequests, nil},
		// 137 tokens a reply, 1000 a second: one every 137ms.
		{"tokens_per_minute, 3000 in a 3s window", Config{TokensPerMinute: 3000}, holdTokens, func(l *limiter) { l.window = 3 * time.Second }},
		{"a 429's Retry-After, one request in flight", Config{MaxConcurrency: 1}, tooMany, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.MaxRetries = 0
			const n = 8
			order, latency := lineUp(t, c.cfg, n, c.prime, c.setup)
			for i, got := range order {
				if got != i {
					t.Errorf("the provider saw the examples in the order %v, want 0 to %d", order, n-1)
					break
				}
			}
			// The waits are 100ms to 600ms apart, 8 deep: a latency holding them passes 1s
			// (600 to 3650ms before the fix); the stub's answer takes a few ms, and well under a
			// second on a machine loaded with other tests.
			for i, ms := range latency {
				if ms > 1000 {
					t.Errorf("example %d: latency_ms %v, want the stub's answer (a few ms), not the wait", i, ms)
				}
			}
			t.Logf("order %v, latency_ms %v", order, latency)
		})
	}
}

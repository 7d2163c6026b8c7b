package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// tpmRun is what a run against the usage-reporting stub measured.
type tpmRun struct {
	requests     int
	most, least  int // tokens within the fullest and the emptiest window of the run
	limit        int
	window, span time.Duration
}

// runTPM runs 64 workers through one provider with tokens_per_minute limit, whose window
// is shortened to window (a minute and windowSlack for the real thing), for span, against
// an OpenAI-compatible stub that reports the tokens it was sent and 20 to 59 of output,
// counting each request when it arrives. most is the tokens the replies report within the
// fullest window of length window at the stub; least within the emptiest one that starts
// in the run and ends before it does.
func runTPM(t testing.TB, limit int, window, span time.Duration) tpmRun {
	var mu sync.Mutex
	var sends []sent
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		body, _ := io.ReadAll(r.Body)
		in, out := (len(body)+3)/4, 20+len(body)%40
		mu.Lock()
		sends = append(sends, sent{at, in + out})
		mu.Unlock()
		time.Sleep(time.Duration(20+len(body)%80) * time.Millisecond)
		content, _ := json.Marshal(`{"answer":"ok"}`)
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, content, in, out, in+out)
	}))
	defer srv.Close()
	cfg := Config{Name: "stub", Kind: KindOpenAI, BaseURL: srv.URL + "/v1", TokensPerMinute: limit, MaxRetries: 0}
	l := sharedLimiter(limiterKey(KindOpenAI, srv.URL+"/v1/chat/completions", ""), cfg.withDefaults())
	l.mu.Lock()
	l.window = window
	l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), span)
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for w := range 64 {
		a := newModel(t, cfg, oaQATask(), "")
		rng := rand.New(rand.NewPCG(uint64(w), 7))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				a.Invoke(ctx, 0, map[string]any{"q": strings.Repeat("word ", 20+rng.IntN(300))})
			}
		}()
	}
	wg.Wait()
	end := time.Now()
	mu.Lock()
	defer mu.Unlock()
	run := tpmRun{requests: len(sends), most: maxInWindow(sends, window), least: -1, limit: limit, window: window, span: span}
	for from := start; !from.Add(window).After(end); from = from.Add(window / 60) {
		if n := inWindow(sends, from, window); run.least < 0 || n < run.least {
			run.least = n
		}
	}
	return run
}

func (r tpmRun) String() string {
	return fmt.Sprintf("%d requests in %v; within a window of %v at most %d tokens (%.2f%% of the limit %d), at least %d (%.2f%%)",
		r.requests, r.span, r.window, r.most, 100*float64(r.most)/float64(r.limit), r.limit, r.least, 100*float64(r.least)/float64(r.limit))
}

// TestTokensPerMinuteStub: 64 workers against a stub that reports the tokens it used, the
// window shortened to 3 s: the stub never sees more than the limit within a window, and
// every window of the run holds a good part of it (at least 60%: a request's tokens count
// from its reply, 20 to 100 ms after it was admitted, and the estimates of those in flight
// are reserved, a few percent of 3 s, and on a machine busy with other tests' processes the
// workers' replies come late; 95% and more on a quiet one). BenchmarkTokensPerMinute
// measures a real minute against the 98%.
func TestTokensPerMinuteStub(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for 7 seconds")
	}
	r := runTPM(t, 20000, 3*time.Second, 7*time.Second)
	t.Log(r)
	if r.most > r.limit {
		t.Errorf("above the limit: %v", r)
	}
	if float64(r.least) < 0.60*float64(r.limit) {
		t.Errorf("below 60%% of the limit: %v", r)
	}
}

// BenchmarkTokensPerMinute is the measure: a 64-worker run with tokens_per_minute
// set, against a stub reporting usage, over a real minute: two minutes and a few seconds,
// every minute-long window of which is checked (BENCHY_TPM_WINDOW shortens the window to
// try it). It runs once whatever -benchtime says; bench/tpm/run.sh runs it.
func BenchmarkTokensPerMinute(b *testing.B) {
	window := time.Minute
	if v := os.Getenv("BENCHY_TPM_WINDOW"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatal(err)
		}
		window = d
	}
	r := runTPM(b, 60000, window, 2*window+window/12)
	b.Log(r)
	b.ReportMetric(100*float64(r.most)/float64(r.limit), "%limit-max")
	b.ReportMetric(100*float64(r.least)/float64(r.limit), "%limit-min")
	b.ReportMetric(float64(r.requests), "requests")
	if r.most > r.limit || float64(r.least) < 0.98*float64(r.limit) {
		b.Errorf("not within 2%% of the limit and never above it: %v", r)
	}
	for b.Loop() {
	}
}

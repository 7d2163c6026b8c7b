package adapter

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// benchParallel runs b.N examples over the adapters, one goroutine each, handing out
// indices from a shared counter, and reports examples per second.
func benchParallel(b *testing.B, adapters []engine.Adapter) {
	input := map[string]any{"vendor": "ACME", "total": "121.00", "currency": "EUR", "date": "2026-01-01", "lines": "3"}
	// One example each first, so that processes are up and connections open: the number
	// is the steady rate a long run sees, not the cost of starting.
	var wg sync.WaitGroup
	for i, a := range adapters {
		wg.Go(func() {
			if _, err := a.Invoke(context.Background(), -1-i, input); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	for _, a := range adapters {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				if _, err := a.Invoke(context.Background(), i, input); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "examples/s")
}

// BenchmarkCommandAdapter: 4 workers, each with its own echo process answering at once.
// The issue asks for at least 10,000 examples/s.
func BenchmarkCommandAdapter(b *testing.B) {
	f := echoFactory(b, b.TempDir(), echoBin, "10s", nil)
	adapters := make([]engine.Adapter, 4)
	for i := range adapters {
		adapters[i] = started(b, f)
	}
	benchParallel(b, adapters)
}

// BenchmarkHTTPAdapter: 64 workers against an endpoint that takes 20 ms per request. The
// ideal is 64/20ms = 3,200 examples/s; the issue asks for at least 90% of it.
func BenchmarkHTTPAdapter(b *testing.B) {
	srv := slowServer()
	defer srv.Close()
	f := httpFactoryFor(b, srv.URL, "10s")
	adapters := make([]engine.Adapter, 64)
	for i := range adapters {
		adapters[i] = started(b, f)
	}
	benchParallel(b, adapters)
}

// BenchmarkHTTPBareClient is BenchmarkHTTPAdapter's floor: the same server and workers
// with plain client.Post calls, no JSON and no failure accounting. What this machine
// reaches here, not 3,200, is what the adapter can be held to: time.Sleep(20ms) itself
// takes longer than 20 ms.
func BenchmarkHTTPBareClient(b *testing.B) {
	srv := slowServer()
	defer srv.Close()
	client := newHTTPClient()
	adapters := make([]engine.Adapter, 64)
	for i := range adapters {
		adapters[i] = bareHTTP{client, srv.URL}
	}
	benchParallel(b, adapters)
}

// slowServer answers every request after 20 ms.
func slowServer() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		time.Sleep(20 * time.Millisecond)
		io.WriteString(w, `{"label": "positive"}`)
	}))
}

type bareHTTP struct {
	client *http.Client
	url    string
}

func (h bareHTTP) Invoke(context.Context, int, map[string]any) (any, error) {
	resp, err := h.client.Post(h.url, "application/json", strings.NewReader(`{"text": "great"}`))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return nil, err
}

func (bareHTTP) Close() error { return nil }

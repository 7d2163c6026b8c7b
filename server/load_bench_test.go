package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// BenchmarkCompileUnderLoad: POST /api/compile with the paper's invoice example from 64
// concurrent clients on loopback, bounded in count. Target: p99 ≤ 20 ms on 2 cores.
func BenchmarkCompileUnderLoad(b *testing.B) {
	dir := b.TempDir()
	s, err := New(Config{Workspace: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	body, _ := json.Marshal(map[string]string{"yaml": invoiceYAML})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	const clients = 64
	for b.Loop() {
		perClient := 50
		latencies := make([]time.Duration, 0, clients*perClient)
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := time.Now()
		for range clients {
			wg.Go(func() {
				local := make([]time.Duration, 0, perClient)
				for range perClient {
					t0 := time.Now()
					resp, err := client.Post(srv.URL+"/api/compile", "application/json", bytes.NewReader(body))
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
					local = append(local, time.Since(t0))
				}
				mu.Lock()
				latencies = append(latencies, local...)
				mu.Unlock()
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		slices.Sort(latencies)
		q := func(p float64) float64 {
			return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds()) / 1000
		}
		b.ReportMetric(q(0.50), "p50-ms")
		b.ReportMetric(q(0.99), "p99-ms")
		b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "requests/s")
	}
}

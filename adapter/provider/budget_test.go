package provider

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestEstimateRequest: the adapter's estimate renders the request Invoke sends without
// sending it: its tokens are estimateTokens' of that body, its costs the bounds at the
// model's prices (none without prices, and Priced says so), and with the response cache in
// use it tells a request the cache answers, which costs nothing.
func TestEstimateRequest(t *testing.T) {
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`))
	}))
	t.Cleanup(srv.Close)
	price := Price{InputPerMTok: 2, OutputPerMTok: 8}
	task := oaQATask()
	task.System.Parameters = map[string]any{"max_completion_tokens": 64}
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 0, Prices: map[string]Price{task.System.Model: price}, CacheMode: CacheUse, Cache: testCache(t)}, task)
	input := map[string]any{"q": "what is the answer?"}
	e, err := a.Estimate(input)
	if err != nil {
		t.Fatal(err)
	}
	if sent.Load() != 0 {
		t.Fatalf("the estimate sent %d requests", sent.Load())
	}
	parts, _ := Render(task.Input, input)
	body, _ := a.w.body(a.task, a.c.cfg.StructuredOutput, parts)
	want := estimateTokens(body, task.System.Parameters)
	if e.InputTokens != want.InputBound || e.OutputTokens != 64 || e.ExpectedInputTokens != want.Expected {
		t.Errorf("estimate %+v, want the tokens of %+v", e, want)
	}
	if !a.Priced() || e.MaxCostUSD == nil || math.Abs(*e.MaxCostUSD-(float64(want.InputBound)*2+64*8)/1e6) > 1e-15 ||
		e.MinCostUSD == nil || math.Abs(*e.MinCostUSD-float64(want.Expected)*2/1e6) > 1e-15 {
		t.Errorf("costs %v..%v, want the bounds at the price", e.MinCostUSD, e.MaxCostUSD)
	}
	if e.Cached {
		t.Error("an empty cache answers the request")
	}
	if _, err := a.Invoke(context.Background(), 0, input); err != nil {
		t.Fatal(err)
	}
	if e, _ := a.Estimate(input); !e.Cached || sent.Load() != 1 {
		t.Errorf("after the reply was kept: cached %v, %d sent", e.Cached, sent.Load())
	}
	unpriced, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1"}, task)
	if e, _ := unpriced.Estimate(input); unpriced.Priced() || e.MaxCostUSD != nil || e.MinCostUSD != nil {
		t.Errorf("a model without prices has costs %v..%v", e.MinCostUSD, e.MaxCostUSD)
	}
	var _ engine.Estimator = a
}

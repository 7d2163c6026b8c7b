package provider

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// replyServer answers every request with body, as a provider's 200.
func replyServer(t *testing.T, body string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for buf := make([]byte, 4096); ; {
			if _, err := r.Body.Read(buf); err != nil {
				break
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// costOf is the usage.cost_usd of an answer or a failure; nil when there is none.
func costOf(t *testing.T, out any, err error) *float64 {
	t.Helper()
	if a, ok := out.(*engine.Answer); ok && err == nil {
		return a.Usage.CostUSD
	}
	if f, ok := err.(*engine.Failure); ok && f.Usage != nil {
		return f.Usage.CostUSD
	}
	t.Fatalf("no usage in %v, %v", out, err)
	return nil
}

// TestCost: a reply's cost is its reported tokens at the model's prices (tokens × price /
// 1e6, the provider's prompt-cache reads at cached_input_per_mtok, at the input price
// without one); a model with no price has no cost, not 0.
func TestCost(t *testing.T) {
	half := 0.5
	gpt := Price{InputPerMTok: 2.5, OutputPerMTok: 10}
	gptCached := Price{InputPerMTok: 2.5, OutputPerMTok: 10, CachedInputPerMTok: &half}
	oa := func(usage string) string {
		return `{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":` + usage + `}`
	}
	an := func(usage string) string {
		return `{"content":[{"type":"text","text":"{\"answer\":\"a\",\"total\":1}"}],"stop_reason":"end_turn","usage":` + usage + `}`
	}
	for _, c := range []struct {
		name   string
		kind   Kind
		prices map[string]Price
		reply  string
		want   *float64
	}{
		{"openai", KindOpenAI, map[string]Price{"gpt-test": gpt}, oa(`{"prompt_tokens":1000,"completion_tokens":200}`), ptr(1000*2.5/1e6 + 200*10/1e6)},
		{"openai, cached prompt at its price", KindOpenAI, map[string]Price{"gpt-test": gptCached},
			oa(`{"prompt_tokens":1000,"completion_tokens":200,"prompt_tokens_details":{"cached_tokens":400}}`), ptr(600*2.5/1e6 + 400*0.5/1e6 + 200*10/1e6)},
		{"openai, cached prompt without a cached price", KindOpenAI, map[string]Price{"gpt-test": gpt},
			oa(`{"prompt_tokens":1000,"completion_tokens":200,"prompt_tokens_details":{"cached_tokens":400}}`), ptr(1000*2.5/1e6 + 200*10/1e6)},
		{"openai, another model's price", KindOpenAI, map[string]Price{"gpt-other": gpt}, oa(`{"prompt_tokens":1000,"completion_tokens":200}`), nil},
		{"openai, no prices", KindOpenAI, nil, oa(`{"prompt_tokens":1000,"completion_tokens":200}`), nil},
		{"openai, an invalid output still cost", KindOpenAI, map[string]Price{"gpt-test": gpt},
			`{"choices":[{"message":{"content":"no JSON"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3}}`, ptr(10*2.5/1e6 + 3*10/1e6)},
		{"anthropic", KindAnthropic, map[string]Price{"claude-sonnet-4-5": {InputPerMTok: 3, OutputPerMTok: 15, CachedInputPerMTok: ptr(0.3)}},
			an(`{"input_tokens":100,"output_tokens":50,"cache_creation_input_tokens":20,"cache_read_input_tokens":1000}`), ptr(120*3/1e6 + 1000*0.3/1e6 + 50*15/1e6)},
		{"anthropic, no price", KindAnthropic, nil, an(`{"input_tokens":100,"output_tokens":50}`), nil},
	} {
		srv := replyServer(t, c.reply)
		var a *modelAdapter
		var input map[string]any
		if c.kind == KindOpenAI {
			a, _ = oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 0, Prices: c.prices}, oaQATask())
			input = map[string]any{"q": "hi"}
		} else {
			a, _ = anthAdapter(t, srv.URL, anthTask(), Config{MaxRetries: 0, Prices: c.prices})
			input = map[string]any{"question": "hi"}
		}
		out, err := a.Invoke(context.Background(), 0, input)
		got := costOf(t, out, err)
		switch {
		case c.want == nil && got != nil:
			t.Errorf("%s: cost %v, want none", c.name, *got)
		case c.want != nil && got == nil:
			t.Errorf("%s: no cost, want %v", c.name, *c.want)
		case c.want != nil && math.Abs(*got-*c.want) > 1e-15:
			t.Errorf("%s: cost %v, want %v", c.name, *got, *c.want)
		}
	}
}

// TestCostOfReplay: a reply from the response cache costs what the call that filled the
// cache did, so that a replay's results equal the original's; Cached tells them apart.
func TestCostOfReplay(t *testing.T) {
	srv := replyServer(t, `{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":0}}`)
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 0, Timeout: 2 * time.Second, CacheMode: CacheUse, Cache: testCache(t),
		Prices: map[string]Price{"gpt-test": {InputPerMTok: 1, OutputPerMTok: 1}}}, oaQATask())
	for i, hit := range []bool{false, true} {
		out, err := a.Invoke(context.Background(), 0, map[string]any{"q": "hi"})
		if got := costOf(t, out, err); got == nil || *got != 0.001 {
			t.Errorf("call %d: cost %v, want 0.001", i, got)
		}
		if u := out.(*engine.Answer).Usage; u.Cached == nil || *u.Cached != hit {
			t.Errorf("call %d: cached %v, want %v", i, u.Cached, hit)
		}
	}
}

func ptr(f float64) *float64 { return &f }

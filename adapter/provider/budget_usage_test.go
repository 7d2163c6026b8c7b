package provider

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestReplyUsage: a reply's token counts are taken only when the reply gives them and
// none is negative; otherwise the usage is unreported (no counts, no cost), which a
// budget charges the request's bound. Reported zeros stay reported; a count far above
// any bound is kept but clamped, so that no sum wraps.
func TestReplyUsage(t *testing.T) {
	price := &Price{InputPerMTok: 1, OutputPerMTok: 2}
	const oaChoice = `"choices":[{"message":{"content":"{\"a\":\"x\"}"},"finish_reason":"stop"}]`
	const anContent = `"content":[{"type":"text","text":"{\"a\":\"x\"}"}],"stop_reason":"end_turn"`
	rows := []struct {
		name       string
		w          wire
		body       string
		unreported bool
		in, out    int
	}{
		{"openai, usage reported", openAI{price: price}, `{` + oaChoice + `,"usage":{"prompt_tokens":10,"completion_tokens":2}}`, false, 10, 2},
		{"openai, reported zeros", openAI{price: price}, `{` + oaChoice + `,"usage":{"prompt_tokens":0,"completion_tokens":0}}`, false, 0, 0},
		{"openai, no usage", openAI{price: price}, `{` + oaChoice + `}`, true, 0, 0},
		{"openai, usage null", openAI{price: price}, `{` + oaChoice + `,"usage":null}`, true, 0, 0},
		{"openai, usage without counts", openAI{price: price}, `{` + oaChoice + `,"usage":{}}`, true, 0, 0},
		{"openai, negative prompt tokens", openAI{price: price}, `{` + oaChoice + `,"usage":{"prompt_tokens":-1000000,"completion_tokens":2}}`, true, 0, 0},
		{"openai, huge counts clamped", openAI{price: price}, `{` + oaChoice + `,"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":9223372036854775807}}`, false, 1 << 40, 1 << 40},
		{"openai, not a chat completion", openAI{price: price}, `[1]`, true, 0, 0},
		{"anthropic, usage reported", anthropic{price: price}, `{` + anContent + `,"usage":{"input_tokens":7,"output_tokens":3,"cache_read_input_tokens":1}}`, false, 8, 3},
		{"anthropic, no usage", anthropic{price: price}, `{` + anContent + `}`, true, 0, 0},
		{"anthropic, negative output", anthropic{price: price}, `{` + anContent + `,"usage":{"input_tokens":7,"output_tokens":-3}}`, true, 0, 0},
		{"anthropic, negative cache reads", anthropic{price: price}, `{` + anContent + `,"usage":{"input_tokens":7,"output_tokens":3,"cache_read_input_tokens":-100}}`, true, 0, 0},
	}
	for _, r := range rows {
		_, u, _ := r.w.reply([]byte(r.body), ModeJSONSchema)
		if u == nil {
			t.Errorf("%s: no usage", r.name)
			continue
		}
		if u.Unreported != r.unreported || u.InputTokens != r.in || u.OutputTokens != r.out {
			t.Errorf("%s: usage %+v, want unreported %v, %d in, %d out", r.name, u, r.unreported, r.in, r.out)
		}
		if r.unreported && u.CostUSD != nil {
			t.Errorf("%s: an unreported usage costs %v", r.name, *u.CostUSD)
		}
		if !r.unreported && (u.CostUSD == nil || *u.CostUSD < 0 || math.IsInf(*u.CostUSD, 0)) {
			t.Errorf("%s: cost %v", r.name, u.CostUSD)
		}
		b, _ := json.Marshal(u)
		if r.unreported != strings.Contains(string(b), `"unreported":true`) {
			t.Errorf("%s: usage JSON %s", r.name, b)
		}
	}
}

// TestOutputLimit: the output bound is the largest limit the parameters set, times n
// choices, clamped so that a huge limit bounds without wrapping; an OpenAI request with no
// max_completion_tokens or max_tokens has no bound a budget can keep, an Anthropic one
// always has (its max_tokens is always sent).
func TestOutputLimit(t *testing.T) {
	rows := []struct {
		name   string
		params map[string]any
		want   int
	}{
		{"none: the default", nil, defaultOutputTokens},
		{"n choices bill n times the output", map[string]any{"max_tokens": 100, "n": 3}, 300},
		{"n as JSON", map[string]any{"max_completion_tokens": json.Number("100"), "n": json.Number("2")}, 200},
		{"n of 1", map[string]any{"max_tokens": 100, "n": 1}, 100},
		{"the largest of two limits", map[string]any{"max_tokens": 500, "max_completion_tokens": 100}, 500},
		{"max int64 clamped", map[string]any{"max_tokens": int64(math.MaxInt64)}, 1 << 40},
		{"max int64 as JSON clamped", map[string]any{"max_tokens": json.Number("9223372036854775807")}, 1 << 40},
		{"beyond int64 as JSON clamped", map[string]any{"max_tokens": json.Number("99999999999999999999")}, 1 << 40},
		{"a huge float clamped", map[string]any{"max_tokens": 1e30}, 1 << 40},
		{"huge limit times n does not wrap", map[string]any{"max_tokens": int64(math.MaxInt64), "n": int64(math.MaxInt64)}, 1 << 40},
	}
	for _, r := range rows {
		if got := outputLimit(r.params); got != r.want {
			t.Errorf("%s: %d, want %d", r.name, got, r.want)
		}
	}
	oa := &modelAdapter{w: openAI{}, task: &Task{}}
	if why := oa.OutputUnbounded(); !strings.HasPrefix(why, "a budget needs each reply bounded: set max_completion_tokens (or max_tokens) in ai-system.parameters") {
		t.Errorf("openai without a limit: %q", why)
	}
	for _, k := range []string{"max_completion_tokens", "max_tokens"} {
		oa.task.System.Parameters = map[string]any{k: json.Number("64")}
		if why := oa.OutputUnbounded(); why != "" {
			t.Errorf("openai with %s: %q", k, why)
		}
	}
	if why := (&modelAdapter{w: anthropic{}, task: &Task{}}).OutputUnbounded(); why != "" {
		t.Errorf("anthropic, which always sends max_tokens: %q", why)
	}
}

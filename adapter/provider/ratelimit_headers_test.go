package provider

import (
	"net/http"
	"testing"
	"time"
)

// TestReadLimits: every documented rate-limit header pair holds requests until its reset
// once its remaining count is 0; a count above 0, a negative or garbage count (Azure's -1:
// unknown), a reset that is no duration, number of seconds or RFC 3339 time, and a reset
// already past hold nothing; a reset hours away is bounded to maxWait.
func TestReadLimits(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header []string
		want   []hold // the holds' durations from now, in limitHeaders' order
	}{
		{"OpenAI requests at 0", []string{"x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1s"}, []hold{{now.Add(time.Second), "the provider's requests limit"}}},
		{"OpenAI tokens at 0, minutes", []string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "6m0s"}, []hold{{now.Add(maxWait), "the provider's tokens limit"}}},
		{"OpenAI tokens at 0, milliseconds", []string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "20ms"}, []hold{{now.Add(20 * time.Millisecond), "the provider's tokens limit"}}},
		{"OpenAI composite duration", []string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "1m30.5s"}, []hold{{now.Add(90500 * time.Millisecond), "the provider's tokens limit"}}},
		{"Azure's seconds", []string{"x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "12"}, []hold{{now.Add(12 * time.Second), "the provider's requests limit"}}},
		{"requests left: no hold", []string{"x-ratelimit-remaining-requests", "59", "x-ratelimit-reset-requests", "1s"}, nil},
		{"Azure's -1: unknown", []string{"x-ratelimit-remaining-tokens", "-1", "x-ratelimit-reset-tokens", "0"}, nil},
		{"garbage count", []string{"x-ratelimit-remaining-tokens", "none", "x-ratelimit-reset-tokens", "1s"}, nil},
		{"a fraction is no count", []string{"x-ratelimit-remaining-tokens", "0.5", "x-ratelimit-reset-tokens", "1s"}, nil},
		{"a huge count: many left", []string{"x-ratelimit-remaining-tokens", "99999999999999999999999", "x-ratelimit-reset-tokens", "1s"}, nil},
		{"garbage reset", []string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "soon"}, nil},
		{"negative reset", []string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "-5s"}, nil},
		{"huge reset in seconds", []string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "1e300"}, []hold{{now.Add(maxWait), "the provider's tokens limit"}}},
		{"huge reset as a duration", []string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "99999999h"}, nil}, // beyond a Duration: not one
		{"infinite reset", []string{"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "+Inf"}, nil},
		{"no reset: no hold", []string{"x-ratelimit-remaining-tokens", "0"}, nil},
		{"Anthropic requests at 0", []string{"anthropic-ratelimit-requests-remaining", "0", "anthropic-ratelimit-requests-reset", "2026-03-01T12:00:07Z"}, []hold{{now.Add(7 * time.Second), "the provider's requests limit"}}},
		{"Anthropic tokens at 0, a zone", []string{"anthropic-ratelimit-tokens-remaining", "0", "anthropic-ratelimit-tokens-reset", "2026-03-01T13:00:30.5+01:00"}, []hold{{now.Add(30500 * time.Millisecond), "the provider's tokens limit"}}},
		{"Anthropic input tokens", []string{"anthropic-ratelimit-input-tokens-remaining", "0", "anthropic-ratelimit-input-tokens-reset", "2026-03-01T12:00:02Z"}, []hold{{now.Add(2 * time.Second), "the provider's input tokens limit"}}},
		{"Anthropic output tokens", []string{"anthropic-ratelimit-output-tokens-remaining", "0", "anthropic-ratelimit-output-tokens-reset", "2026-03-01T12:00:03Z"}, []hold{{now.Add(3 * time.Second), "the provider's output tokens limit"}}},
		{"Anthropic reset past", []string{"anthropic-ratelimit-tokens-remaining", "0", "anthropic-ratelimit-tokens-reset", "2026-03-01T11:59:00Z"}, nil},
		{"Anthropic reset a day away", []string{"anthropic-ratelimit-requests-remaining", "0", "anthropic-ratelimit-requests-reset", "2026-03-02T12:00:00Z"}, []hold{{now.Add(maxWait), "the provider's requests limit"}}},
		{"Anthropic reset not RFC 3339", []string{"anthropic-ratelimit-requests-remaining", "0", "anthropic-ratelimit-requests-reset", "Sun, 01 Mar 2026 12:00:07 GMT"}, nil},
		{"two limits at 0", []string{"x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1s", "x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "2s"},
			[]hold{{now.Add(time.Second), "the provider's requests limit"}, {now.Add(2 * time.Second), "the provider's tokens limit"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for i := 0; i+1 < len(tt.header); i += 2 {
				h.Set(tt.header[i], tt.header[i+1])
			}
			got := readLimits(h, now)
			if len(got) != len(tt.want) {
				t.Fatalf("holds %v, want %v", got, tt.want)
			}
			for i := range got {
				if !got[i].until.Equal(tt.want[i].until) || got[i].why != tt.want[i].why {
					t.Errorf("hold %d = %v %q, want %v %q", i, got[i].until.Sub(now), got[i].why, tt.want[i].until.Sub(now), tt.want[i].why)
				}
			}
		})
	}
}

// TestRetryAfterHeaders: retry-after-ms (milliseconds) before retry-after (seconds or an
// HTTP date); negative and garbage ignored, huge bounded to maxWait. A Retry-After of
// 1e30 seconds used to overflow into a negative wait and retry at once.
func TestRetryAfterHeaders(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", []string{"retry-after", "7"}, 7 * time.Second},
		{"fractional seconds", []string{"retry-after", "0.25"}, 250 * time.Millisecond},
		{"milliseconds", []string{"retry-after-ms", "1500"}, 1500 * time.Millisecond},
		{"fractional milliseconds", []string{"retry-after-ms", "20.5"}, 20500 * time.Microsecond},
		{"milliseconds first", []string{"retry-after-ms", "100", "retry-after", "1"}, 100 * time.Millisecond},
		{"bad milliseconds fall back", []string{"retry-after-ms", "soon", "retry-after", "2"}, 2 * time.Second},
		{"negative milliseconds fall back", []string{"retry-after-ms", "-5", "retry-after", "3"}, 3 * time.Second},
		{"negative seconds", []string{"retry-after", "-3"}, 0},
		{"garbage seconds", []string{"retry-after", "later"}, 0},
		{"huge seconds", []string{"retry-after", "99999"}, maxWait},
		{"overflowing seconds", []string{"retry-after", "1e30"}, maxWait},
		{"overflowing milliseconds", []string{"retry-after-ms", "1e300"}, maxWait},
		{"infinite milliseconds", []string{"retry-after-ms", "+Inf"}, 0},
		{"NaN", []string{"retry-after", "NaN"}, 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		for i := 0; i+1 < len(tt.header); i += 2 {
			h.Set(tt.header[i], tt.header[i+1])
		}
		if got := retryAfterHeaders(h); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := retryAfter("1e30"); got != maxWait {
		t.Errorf("retryAfter(1e30) = %v, want %v", got, maxWait)
	}
}

// TestReplyTokens: what a reply reports it used, input and output, in either protocol.
func TestReplyTokens(t *testing.T) {
	tests := []struct {
		body string
		want int
		ok   bool
	}{
		{`{"usage":{"prompt_tokens":120,"completion_tokens":17,"total_tokens":137}}`, 137, true},
		{`{"usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":1000,"output_tokens":3}}`, 18, true},
		{`{"choices":[]}`, 0, false},
		{`{"usage":{}}`, 0, false},
		{`not json`, 0, false},
	}
	for _, tt := range tests {
		if got, ok := replyTokens([]byte(tt.body)); got != tt.want || ok != tt.ok {
			t.Errorf("replyTokens(%s) = %d, %v; want %d, %v", tt.body, got, ok, tt.want, tt.ok)
		}
	}
}

package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// leakedKey is a 27-character key, as in the review that found 24 of its characters in
// the results.
const leakedKey = "sk-Zq8vN3kT1bW6yH0pL4xR9cF2"

// echoServer answers as the provider's documented error format with a 1 KB body that
// echoes the key it was sent so that the key straddles the 200-byte snippet cut, or, for
// a valid request (the user asks "please-answer"), with a valid answer whose JSON holds the key.
func echoServer(t *testing.T, kind Kind) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if kind == KindAnthropic {
			key = r.Header.Get("x-api-key")
		}
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		raw, _ := json.Marshal(req)
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(string(raw), "please-answer") {
			answer, _ := json.Marshal(map[string]any{"label": "the key is " + key, key: "as a name too"})
			switch kind {
			case KindOpenAI:
				reply, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": string(answer)}, "finish_reason": "stop"}}})
				w.Write(reply)
			case KindAnthropic:
				fmt.Fprintf(w, `{"content":[{"type":"tool_use","id":"t","name":%q,"input":%s}],"stop_reason":"tool_use"}`, schemaName, answer)
			}
			return
		}
		// The key starts at byte 186 of the body, so that the old 200-byte cut fell
		// inside it.
		head := `{"error":{"message":"` // https://platform.openai.com/docs/guides/error-codes
		tail := `","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`
		if kind == KindAnthropic { // https://docs.anthropic.com/en/api/errors
			head, tail = `{"type":"error","error":{"type":"authentication_error","message":"`, `"}}`
		}
		lead := " Incorrect API key provided: "
		msg := strings.Repeat("x", 186-len(head)-len(lead)) + lead + key + ". " + strings.Repeat("y", 800)
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(head + msg + tail))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestHardeningKeyRedactedBeforeTruncation: a provider that echoes the key in a 1 KB error
// body, or inside a valid answer, gets none of it, not six characters, into the failure's
// message, its prediction or the output.
func TestHardeningKeyRedactedBeforeTruncation(t *testing.T) {
	for _, kind := range []Kind{KindOpenAI, KindAnthropic} {
		t.Run(string(kind), func(t *testing.T) {
			srv := echoServer(t, kind)
			base := srv.URL
			if kind == KindOpenAI {
				base += "/v1"
			}
			ad := urlAdapter(t, kind, base)
			_, err := ad.Invoke(context.Background(), 0, map[string]any{"q": "refused"})
			var f *engine.Failure
			if !errors.As(err, &f) || !strings.Contains(f.Message, "HTTP 401") {
				t.Fatalf("error answer: %v", err)
			}
			text, _ := json.Marshal(f)
			if p := testkit.Leak(f.Message+string(text), leakedKey); p != "" {
				t.Errorf("the failure keeps %q of the key: %s", p, f.Message)
			}
			out, err := ad.Invoke(context.Background(), 1, map[string]any{"q": "please-answer"})
			if err != nil {
				t.Fatalf("valid answer: %v", err)
			}
			text, _ = json.Marshal(out.(*engine.Answer).Output)
			if p := testkit.Leak(string(text), leakedKey); p != "" || !strings.Contains(string(text), "the key is [redacted]") {
				t.Errorf("the output keeps %q of the key: %s", p, text)
			}
		})
	}
}

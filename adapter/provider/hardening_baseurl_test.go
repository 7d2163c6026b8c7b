package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// The credentials a base URL carries in the review's example.
const (
	urlPassword = "PROVPASS4242"
	urlToken    = "PROVQUERYKEY777"
)

// credentialURL is base with the review's user information and query token.
func credentialURL(base string) string {
	return strings.Replace(base, "http://", "http://user:"+urlPassword+"@", 1) + "?key=" + urlToken
}

// urlTask is a one-string-in, one-string-out task.
func urlTask() Task {
	return Task{System: ir.AISystem{Type: ir.SystemModel, Provider: "p", Model: "m"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "label", Type: ir.TypeString}}}}
}

// urlAdapter is a model adapter of kind at base, with leakedKey as its key and no retries.
func urlAdapter(t *testing.T, kind Kind, base string) engine.Adapter {
	t.Helper()
	return newModel(t, Config{Name: "p", Kind: kind, BaseURL: base, APIKeyEnv: "K", MaxRetries: 0}, urlTask(), leakedKey)
}

// urlLeak is the first piece of six or more characters of a base URL's credentials, or of
// the URL itself, that texts hold.
func urlLeak(texts ...string) string {
	all := strings.Join(texts, "\n")
	for _, s := range []string{urlPassword, urlToken, leakedKey} {
		if p := testkit.Leak(all, s); p != "" {
			return p
		}
	}
	for _, s := range []string{"key=", "user:", "http://", "/chat/completions", "/v1/messages"} {
		if strings.Contains(all, s) {
			return s
		}
	}
	return ""
}

// TestHardeningProviderURLBuiltAndMasked: a provider's base_url with user information and a
// query token (http://user:PROVPASS4242@host/v1?key=PROVQUERYKEY777) reaches the endpoint
// at base path + endpoint path with the query after it (it was appended after the query),
// and its credentials are secrets like the key: a server echoing the URL it was sent, in
// an error body and inside a valid answer, and an unreachable server (127.0.0.1:1) leave
// none of them, nor the URL, in the failure's message, its prediction or the output.
func TestHardeningProviderURLBuiltAndMasked(t *testing.T) {
	for _, c := range []struct {
		kind       Kind
		path, want string
	}{
		{KindOpenAI, "/v1", "/v1/chat/completions"},
		{KindOpenAI, "/v1/", "/v1/chat/completions"},
		{KindAnthropic, "", "/v1/messages"},
	} {
		t.Run(string(c.kind)+c.path, func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				user, pass, _ := r.BasicAuth()
				mu.Lock()
				seen = append(seen, r.URL.Path+" ? "+r.URL.RawQuery)
				mu.Unlock()
				var req map[string]any
				json.NewDecoder(r.Body).Decode(&req)
				raw, _ := json.Marshal(req)
				echo := fmt.Sprintf("you sent %s?%s as %s:%s", r.URL.Path, r.URL.RawQuery, user, pass)
				w.Header().Set("Content-Type", "application/json")
				if strings.Contains(string(raw), "please-answer") {
					answer, _ := json.Marshal(map[string]any{"label": echo})
					if c.kind == KindOpenAI {
						content, _ := json.Marshal(string(answer))
						fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s},"finish_reason":"stop"}]}`, content)
					} else {
						fmt.Fprintf(w, `{"content":[{"type":"tool_use","id":"t","name":%q,"input":%s}],"stop_reason":"tool_use"}`, schemaName, answer)
					}
					return
				}
				msg, _ := json.Marshal(echo)
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprintf(w, `{"error":{"message":%s,"type":"invalid_request_error"}}`, msg)
			}))
			defer srv.Close()
			ad := urlAdapter(t, c.kind, credentialURL(srv.URL+c.path))

			_, err := ad.Invoke(context.Background(), 0, map[string]any{"q": "refused"})
			var f *engine.Failure
			if !errors.As(err, &f) || !strings.Contains(f.Message, "HTTP 401") || !strings.Contains(f.Message, "[redacted]") {
				t.Fatalf("the error answer: %v", err)
			}
			text, _ := json.Marshal(f)
			if p := testkit.Leak(f.Message+string(text), urlPassword) + testkit.Leak(f.Message+string(text), urlToken); p != "" {
				t.Errorf("the failure keeps %q of the URL's credentials: %s", p, f.Message)
			}
			out, err := ad.Invoke(context.Background(), 1, map[string]any{"q": "please-answer"})
			if err != nil {
				t.Fatalf("the valid answer: %v", err)
			}
			text, _ = json.Marshal(out.(*engine.Answer).Output)
			if p := testkit.Leak(string(text), urlPassword) + testkit.Leak(string(text), urlToken); p != "" || !strings.Contains(string(text), "[redacted]") {
				t.Errorf("the output keeps %q of the URL's credentials: %s", p, text)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, s := range seen {
				if want := c.want + " ? key=" + urlToken; s != want {
					t.Errorf("the server was asked for %q, want %q", s, want)
				}
			}
		})
	}
	for _, kind := range []Kind{KindOpenAI, KindAnthropic} {
		t.Run(string(kind)+" unreachable", func(t *testing.T) {
			ad := urlAdapter(t, kind, credentialURL("http://127.0.0.1:1/v1"))
			_, err := ad.Invoke(context.Background(), 0, map[string]any{"q": "x"})
			var f *engine.Failure
			// It names the endpoint's origin, and what to check, but nothing else of the URL.
			if !errors.As(err, &f) || !strings.HasPrefix(f.Message, "cannot reach http://127.0.0.1:1: ") || !strings.HasSuffix(f.Message, "— is the server running?") {
				t.Fatalf("unreachable: %v", err)
			}
			request := f.Request
			f.Request = ""
			text, _ := json.Marshal(f)
			if p := urlLeak(strings.ReplaceAll(f.Message+string(text), "http://127.0.0.1:1:", "")); p != "" {
				t.Errorf("the failure keeps %q of the URL: %s", p, f.Message)
			}
			// The recorded request names the endpoint under the base URL, and nothing of the
			// URL itself: not its path either, where a gateway may take a key.
			line, rest, _ := strings.Cut(request, "\n")
			if p := urlLeak(rest); p != "" || !strings.HasPrefix(line, "POST {base_url}/") || strings.ContainsAny(line, "?@:") || strings.Contains(line, "/v1/v1") {
				t.Errorf("the recorded request keeps %q of the URL: %s", p, request)
			}
		})
	}
	// A base URL that does not parse is refused without being quoted.
	for _, bad := range []string{"http://user:" + urlPassword + "@host:port/v1?key=" + urlToken, "ftp://user:" + urlPassword + "@host/?key=" + urlToken, "http://user:" + urlPassword + "@/v1"} {
		if _, err := NewFactory(Config{Name: "p", Kind: KindOpenAI, BaseURL: bad}, urlTask(), func(string) string { return "" }); err == nil || testkit.Leak(err.Error(), urlPassword)+testkit.Leak(err.Error(), urlToken) != "" {
			t.Errorf("NewFactory(%q): %v, want an error that does not quote it", bad, err)
		}
	}
}

// escapeKey writes key as a JSON string's text with the characters escape picks \u-escaped.
func escapeKey(key string, escape func(i int) bool, upper bool) string {
	var b strings.Builder
	for i, r := range key {
		switch {
		case !escape(i):
			b.WriteRune(r)
		case upper:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// unescaped is text with its \u escapes spelt out, as a reader of the stored message
// (or a JSON decoder) would see them.
func unescaped(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if i+6 <= len(text) && text[i] == '\\' && text[i+1] == 'u' {
			var r rune
			if _, err := fmt.Sscanf(text[i+2:i+6], "%04x", &r); err == nil {
				b.WriteRune(r)
				i += 5
				continue
			}
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// TestHardeningEscapedKeyRedacted: a provider that echoes the key with its characters
// \u-escaped (all of them, in lower or upper case hex, or a mixture of escaped and plain
// characters) in a JSON error body, in OpenAI's and Anthropic's documented error formats,
// gets none of it, not six characters, into the failure's message: the body is re-encoded
// with plain characters, then redacted, then cut. It was cut and redacted as it came, and
// about 25 characters of the key were stored \u-escaped. The same holds for a 429 or 5xx
// (retried) and for a 2xx reply that is not the protocol's answer.
func TestHardeningEscapedKeyRedacted(t *testing.T) {
	escapes := map[string]func(string) string{
		"every character":    func(k string) string { return escapeKey(k, func(int) bool { return true }, false) },
		"upper case hex":     func(k string) string { return escapeKey(k, func(int) bool { return true }, true) },
		"every other one":    func(k string) string { return escapeKey(k, func(i int) bool { return i%2 == 0 }, false) },
		"one in three":       func(k string) string { return escapeKey(k, func(i int) bool { return i%3 == 1 }, true) },
		"the first and last": func(k string) string { return escapeKey(k, func(i int) bool { return i == 0 || i == len(k)-1 }, false) },
	}
	// https://platform.openai.com/docs/guides/error-codes, https://docs.anthropic.com/en/api/errors
	formats := map[Kind]func(status int, esc string) string{
		KindOpenAI: func(status int, esc string) string {
			if status == http.StatusOK {
				return `{"id":"x","object":"chat.completion","note":"Incorrect API key provided: ` + esc + `"}`
			}
			return `{"error":{"message":"Incorrect API key provided: ` + esc + `. You can find your API key at https:\/\/platform.openai.com\/account\/api-keys.` +
				strings.Repeat(" More text.", 40) + `","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`
		},
		KindAnthropic: func(status int, esc string) string {
			if status == http.StatusOK {
				return `{"id":"msg_1","type":"message","role":"assistant","model":"m","note":"invalid x-api-key ` + esc + `"}`
			}
			return `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ` + esc + `` +
				strings.Repeat(" More text.", 40) + `"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`
		},
	}
	for kind, format := range formats {
		for name, escape := range escapes {
			for _, status := range []int{http.StatusUnauthorized, http.StatusInternalServerError, http.StatusOK} {
				t.Run(fmt.Sprintf("%s %s %d", kind, name, status), func(t *testing.T) {
					srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
						if kind == KindAnthropic {
							key = r.Header.Get("x-api-key")
						}
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(status)
						w.Write([]byte(format(status, escape(key))))
					}))
					defer srv.Close()
					ad := urlAdapter(t, kind, srv.URL+"/v1")
					if kind == KindAnthropic {
						ad = urlAdapter(t, kind, srv.URL)
					}
					_, err := ad.Invoke(context.Background(), 0, map[string]any{"q": "x"})
					var f *engine.Failure
					if !errors.As(err, &f) || !strings.Contains(f.Message, "[redacted]") {
						t.Fatalf("the failure: %v; want one with the key masked", err)
					}
					text, _ := json.Marshal(f)
					if p := testkit.Leak(unescaped(f.Message+string(text)), leakedKey); p != "" {
						t.Errorf("the failure keeps %q of the key: %s", p, f.Message)
					}
				})
			}
		}
	}
}

// TestRecordedRequestNoBasePath: a gateway may take a key in its base URL's path
// (https://host/KEY/v1); the recorded request names the base URL, never quotes its path.
func TestRecordedRequestNoBasePath(t *testing.T) {
	const secret = "PATHSECRET987"
	for _, kind := range []Kind{KindOpenAI, KindAnthropic} {
		ad := urlAdapter(t, kind, "http://127.0.0.1:1/"+secret+"/v1")
		_, err := ad.Invoke(context.Background(), 0, map[string]any{"q": "x"})
		var f *engine.Failure
		if !errors.As(err, &f) || f.Request == "" {
			t.Fatalf("%s: %v, want a failure with its request", kind, err)
		}
		if strings.Contains(f.Request, secret) || !strings.HasPrefix(f.Request, "POST {base_url}/") {
			t.Errorf("%s: the recorded request quotes the base URL's path:\n%s", kind, f.Request)
		}
	}
}

package adapter

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestHTTPNonJSONBodyMasksEscapedToken: an http binding's endpoint that answers 200 with a
// body that is no JSON, echoing the token of the binding's URL spelt in \u escapes (once,
// or twice as a JSON text inside a string is), has that body kept as the invalid output's
// prediction masked as a provider's reply is (Secrets.Deep): neither the message nor the
// prediction, which the engine stores and the API serves, lets 6 bytes of it be decoded back.
func TestHTTPNonJSONBodyMasksEscapedToken(t *testing.T) {
	const token = "tok-8Hq2Lm5Vx9Rz3Wp7"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slashes := strings.Repeat(`\`, len(r.URL.Query().Get("depth")))
		var esc strings.Builder
		for _, c := range r.URL.Query().Get("token") {
			fmt.Fprintf(&esc, `%su%04x`, slashes, c)
		}
		fmt.Fprintf(w, "not json: the token is %s, bye", esc.String())
	}))
	defer srv.Close()
	for i, depth := range []string{"x", "xx"} {
		a := started(t, bindFactory(t, fmt.Sprintf("bindings:\n  h:\n    http: '%s/x?token=%s&depth=%s'\n", srv.URL, token, depth), t.TempDir(), "h", nil))
		_, err := a.Invoke(context.Background(), i, map[string]any{})
		f := failureOf(t, err)
		text := f.Message + jsonText(f.Prediction)
		if p := testkit.Leak(unescaped(text), token); p != "" || !strings.Contains(text, "[redacted]") {
			t.Errorf("escaped with %d backslashes: the invalid output keeps %q of the token: %.300s", len(depth), p, text)
		}
	}
}

// TestHTTPErrorBodyMasksEscapedToken: an http binding's endpoint that fails (HTTP 500,
// 502) with a body that is no JSON, quoting the token of the binding's URL in \u escapes,
// has its error message masked as a provider's reply is: the message, which the engine
// stores and the API serves, lets no 6 bytes of the token be decoded back.
func TestHTTPErrorBodyMasksEscapedToken(t *testing.T) {
	const token = "tok-8Hq2Lm5Vx9Rz3Wp7"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slashes := strings.Repeat(`\`, len(r.URL.Query().Get("depth")))
		var esc strings.Builder
		for _, c := range r.URL.Query().Get("token") {
			fmt.Fprintf(&esc, `%su%04x`, slashes, c)
		}
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, "Internal error: token %s refused", esc.String())
	}))
	defer srv.Close()
	for i, depth := range []string{"x", "xx"} {
		a := started(t, bindFactory(t, fmt.Sprintf("bindings:\n  h:\n    http: '%s/x?token=%s&depth=%s'\n", srv.URL, token, depth), t.TempDir(), "h", nil))
		_, err := a.Invoke(context.Background(), i, map[string]any{})
		f := failureOf(t, err)
		if p := testkit.Leak(unescaped(f.Message), token); p != "" || !strings.Contains(f.Message, "[redacted]") {
			t.Errorf("escaped with %d backslashes: the error keeps %q of the token: %.300s", len(depth), p, f.Message)
		}
	}
}

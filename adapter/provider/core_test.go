package provider

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

func TestJSONSchema(t *testing.T) {
	out := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
		{Name: "total", Type: ir.TypeFloat},
		{Name: "count", Type: ir.TypeInt},
		{Name: "label", Type: ir.TypeEnum, Values: []string{"a", "b"}},
		{Name: "supplier", Type: ir.TypeObject, Fields: []ir.Field{{Name: "name", Type: ir.TypeString}, {Name: "vat", Type: ir.TypeBool}}},
		{Name: "day", Type: ir.TypeDate},
		{Name: "at", Type: ir.TypeDatetime},
	}}
	got, _ := json.Marshal(JSONSchema(out))
	for _, want := range []string{
		`"additionalProperties":false`,
		`"required":["total","count","label","supplier","day","at"]`,
		`"total":{"type":"number"}`,
		`"count":{"type":"integer"}`,
		`"label":{"enum":["a","b"],"type":"string"}`,
		`"supplier":{"additionalProperties":false,"properties":{"name":{"type":"string"},"vat":{"type":"boolean"}},"required":["name","vat"],"type":"object"}`,
		`"pattern":"^\\d{4}-\\d{2}-\\d{2}$"`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("schema lacks %s:\n%s", want, got)
		}
	}
}

func TestExtractJSON(t *testing.T) {
	tests := []struct {
		text string
		want string // the object re-encoded, or "" for none
	}{
		{`{"a": 1}`, `{"a":1}`},
		{"  {\"a\": 1.0}\n", `{"a":1.0}`},
		{"```json\n{\"a\": \"x\"}\n```", `{"a":"x"}`},
		{"```\n{\"a\": 2}\n```", `{"a":2}`},
		{"Let me think. The total is 5.\n{\"total\": 5}", `{"total":5}`},
		{"<think>{not json}</think> {\"ok\": true}", `{"ok":true}`},
		{"no json here", ""},
		{`{"a": 1`, ""},           // cut off: never repaired
		{`{'a': 1}`, ""},          // not JSON
		{`[{"a": 1}]`, `{"a":1}`}, // the first object in the text
		{`{"a": 1} and more`, `{"a":1}`},
	}
	for _, tt := range tests {
		v, _, ok := ExtractJSON(tt.text)
		got := ""
		if ok {
			b, _ := json.Marshal(v)
			got = string(b)
		}
		if got != tt.want {
			t.Errorf("ExtractJSON(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}

func TestRender(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "scan.png")
	os.WriteFile(img, []byte("\x89PNG\r\n\x1a\nrest"), 0o644)
	schema := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
		{Name: "question", Type: ir.TypeString},
		{Name: "meta", Type: ir.TypeObject, Fields: []ir.Field{{Name: "lang", Type: ir.TypeEnum, Values: []string{"en"}}, {Name: "n", Type: ir.TypeInt}}},
		{Name: "scan", Type: ir.TypeImage},
		{Name: "note", Type: ir.TypeString},
	}}
	input := map[string]any{"question": "What is the total?\nBe exact.", "meta": map[string]any{"lang": "en", "n": json.Number("3")}, "scan": img, "note": "x"}
	parts, err := Render(schema, input)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 3 {
		t.Fatalf("got %d parts: %+v", len(parts), parts)
	}
	if want := "question: What is the total?\nBe exact.\nmeta.lang: en\nmeta.n: 3\nscan: [image]"; parts[0].Kind != "text" || parts[0].Text != want {
		t.Errorf("first part %q, want %q", parts[0].Text, want)
	}
	if parts[1].Kind != "image" || parts[1].MIME != "image/png" || parts[1].Name != "scan.png" || parts[1].Label != "scan" || parts[1].Path != img || parts[1].Size != 12 {
		t.Errorf("image part %+v", parts[1])
	}
	if parts[2].Text != "note: x" {
		t.Errorf("last part %+v", parts[2])
	}
	again, _ := Render(schema, input)
	if a, b := mustJSON(parts), mustJSON(again); a != b {
		t.Error("rendering is not deterministic")
	}
	input["scan"] = filepath.Join(dir, "gone.png")
	if _, err := Render(schema, input); err == nil {
		t.Error("a missing artifact renders")
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestMediaType(t *testing.T) {
	tests := map[string]string{"a.PNG": "image/png", "b.jpeg": "image/jpeg", "c.pdf": "application/pdf", "d.wav": "audio/wav", "e.mp3": "audio/mpeg"}
	for name, want := range tests {
		if got := mediaType(name, nil); got != want {
			t.Errorf("mediaType(%s) = %s, want %s", name, got, want)
		}
	}
	if got := mediaType("noext", []byte("%PDF-1.7")); got != "application/pdf" {
		t.Errorf("sniffed %s", got)
	}
}

// TestZeroRetries: MaxRetries 0 is one attempt and no retry, as the runtime file's
// max_retries: 0 says. It used to mean "the default" (5), so that the runtime file had to
// write an explicit 0 as the sentinel -1.
func TestZeroRetries(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	c := newClient(Config{Timeout: time.Second}.withDefaults(), "")
	c.sleep = func(context.Context, time.Duration) error { return nil }
	if _, f := c.send(context.Background(), srv.URL, http.Header{}, literalBody([]byte(`{}`))); f == nil || f.Code != diag.ProviderError || calls.Load() != 1 {
		t.Errorf("MaxRetries 0: %v after %d requests, want provider_error after 1", f, calls.Load())
	}
}

// TestSendRetries: 429 and 5xx are retried with the server's Retry-After or a backoff,
// other 4xx are not, and spent retries give provider_error with the status.
func TestSendRetries(t *testing.T) {
	var calls atomic.Int32
	var replies []func(w http.ResponseWriter)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := calls.Add(1) - 1
		replies[min(int(i), len(replies)-1)](w)
	}))
	defer srv.Close()
	status := func(code int, header ...string) func(http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			for i := 0; i+1 < len(header); i += 2 {
				w.Header().Set(header[i], header[i+1])
			}
			w.WriteHeader(code)
			w.Write([]byte(`{"ok":true}`))
		}
	}
	tests := []struct {
		name    string
		replies []func(http.ResponseWriter)
		calls   int32
		code    diag.Code // "" for success
		waits   []time.Duration
	}{
		{"success", []func(http.ResponseWriter){status(200)}, 1, "", nil},
		{"429 honours Retry-After", []func(http.ResponseWriter){status(429, "Retry-After", "7"), status(200)}, 2, "", []time.Duration{7 * time.Second}},
		{"500 then success", []func(http.ResponseWriter){status(500), status(200)}, 2, "", []time.Duration{500 * time.Millisecond}},
		{"400 is not retried", []func(http.ResponseWriter){status(400)}, 1, diag.ProviderError, nil},
		{"retries run out", []func(http.ResponseWriter){status(503)}, 3, diag.ProviderError, []time.Duration{500 * time.Millisecond, time.Second}},
	}
	for _, tt := range tests {
		calls.Store(0)
		replies = tt.replies
		c := newClient(Config{MaxRetries: 2, Timeout: time.Second}.withDefaults(), "")
		var waits []time.Duration
		c.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
		c.jitter = func() float64 { return 0.5 } // no jitter: the base backoff
		resp, f := c.send(context.Background(), srv.URL, http.Header{}, literalBody([]byte(`{}`)))
		code := diag.Code("")
		if f != nil {
			code = f.Code
		}
		if code != tt.code || calls.Load() != tt.calls || (f == nil && resp.status != 200) {
			t.Errorf("%s: code %q after %d calls, want %q after %d", tt.name, code, calls.Load(), tt.code, tt.calls)
		}
		if mustJSON(waits) != mustJSON(tt.waits) {
			t.Errorf("%s: waited %v, want %v", tt.name, waits, tt.waits)
		}
		if f != nil && tt.name == "retries run out" && !strings.Contains(f.Message, "HTTP 503") {
			t.Errorf("%s: message %q lacks the status", tt.name, f.Message)
		}
	}
}

func TestSendTimeoutAndUnreachable(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	c := newClient(Config{Timeout: 50 * time.Millisecond, MaxRetries: 0}.withDefaults(), "")
	if _, f := c.send(context.Background(), slow.URL, http.Header{}, literalBody(nil)); f == nil || f.Code != diag.Timeout {
		t.Errorf("slow server: %+v, want timeout", f)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	url := closed.URL
	closed.Close()
	if _, f := c.send(context.Background(), url+"/secret-token", http.Header{}, literalBody(nil)); f == nil || f.Code != diag.ProviderError || strings.Contains(f.Message, "secret-token") {
		t.Errorf("closed server: %+v, want provider_error without the URL", f)
	}
}

func TestRetryAfter(t *testing.T) {
	if got := retryAfter("2.5"); got != 2500*time.Millisecond {
		t.Errorf("seconds: %v", got)
	}
	if got := retryAfter("99999"); got != 5*time.Minute {
		t.Errorf("capped: %v", got)
	}
	if got := retryAfter(time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)); got <= 0 || got > 3*time.Second {
		t.Errorf("date: %v", got)
	}
	if got := retryAfter("soon"); got != 0 {
		t.Errorf("garbage: %v", got)
	}
}

// TestKeyNeverInFailures: a server that echoes the Authorization header into its error body
// does not get the key into the recorded failure.
func TestKeyNeverInFailures(t *testing.T) {
	const key = "sk-test-SECRET-123"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":"bad key ` + r.Header.Get("Authorization") + `"}`))
	}))
	defer srv.Close()
	ad := newModel(t, Config{Name: "t", Kind: KindOpenAI, BaseURL: srv.URL, APIKeyEnv: "K"},
		Task{System: ir.AISystem{Type: ir.SystemModel, Provider: "t", Model: "m"},
			Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
			Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "a", Type: ir.TypeString}}}},
		key)
	_, err := ad.Invoke(context.Background(), 0, map[string]any{"q": "x"})
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("failure %v", err)
	}
}

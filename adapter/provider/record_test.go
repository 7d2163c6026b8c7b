package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// recordFiles are the artifacts of recordTask: an image, a PDF and a text document.
var recordFiles = map[string]struct{ mime, data string }{
	"scan.png":     {"image/png", "\x89PNG\r\n\x1a\n" + strings.Repeat("image-bytes ", 300)},
	"contract.pdf": {"application/pdf", "%PDF-1.7 " + strings.Repeat("document-bytes ", 200)},
	"notes.txt":    {"text/plain", "Paid on 15 March <by wire> & \"on time\"."},
}

// recordTask is a task whose prompt, input and parameters all hold the key, with an
// image, a PDF and a text document among its inputs.
func recordTask(t *testing.T) (Task, map[string]any) {
	dir := t.TempDir()
	input := map[string]any{"question": "What is the total? My key is " + leakedKey + ", <use> it & go."}
	for name, f := range recordFiles {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
		input[strings.TrimSuffix(name, filepath.Ext(name))] = path
	}
	return Task{
		System: ir.AISystem{Type: ir.SystemModel, Provider: "p", Model: "m", Parameters: map[string]any{"temperature": 0.0, "metadata": map[string]any{"user_id": leakedKey, "empty": map[string]any{}, "none": []any{}}}},
		Input: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
			{Name: "question", Type: ir.TypeString},
			{Name: "scan", Type: ir.TypeImage},
			{Name: "contract", Type: ir.TypeDocument},
			{Name: "notes", Type: ir.TypeDocument},
		}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "answer", Type: ir.TypeString}}},
		Prompt: "You read invoices. Never repeat " + leakedKey + ".",
	}, input
}

// withMarkers is a body as a server received it with each artifact's string, in the forms
// the protocols send (a data URL, bare base64, JSON text), replaced by its marker.
func withMarkers(raw []byte) []byte {
	out := string(raw)
	for _, f := range recordFiles {
		marker := fmt.Sprintf(`"<%s, %d bytes>"`, f.mime, len(f.data))
		b64 := base64.StdEncoding.EncodeToString([]byte(f.data))
		text, _ := json.Marshal(f.data)
		for _, sent := range []string{`"data:` + f.mime + `;base64,` + b64 + `"`, `"` + b64 + `"`, string(text)} {
			out = strings.ReplaceAll(out, sent, marker)
		}
	}
	return []byte(out)
}

// TestRecordedRequest: every answer and every failure of a call that reached the wire —
// an answer, an HTTP error, a 5xx with the retries spent, a timeout, a reply that is not
// JSON, a refusal — carries the request as sent: "POST {base_url}<endpoint>" (no URL), then the
// body the server received, indented by two spaces in its own key order, each artifact a
// marker, and the key (in the base URL's query, the prompt, the input and a parameter)
// masked everywhere; no header, no artifact's bytes.
func TestRecordedRequest(t *testing.T) {
	type outcome struct {
		name, code string
		status     int
		body       string
		hang       bool
	}
	replies := map[Kind][]outcome{
		KindOpenAI: {
			{"answer", "", 200, oaCompletion(`{"answer":"42"}`, "stop"), false},
			{"http error", "provider_error", 400, `{"error":{"message":"bad request","type":"invalid_request_error","param":null,"code":null}}`, false},
			{"retries spent", "provider_error", 503, `{"error":{"message":"overloaded"}}`, false},
			{"timeout", "timeout", 200, "", true},
			{"not json", "provider_error", 200, `<html>gateway</html>`, false},
			{"refusal", "invalid_value", 200, `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help."},"finish_reason":"stop"}]}`, false},
		},
		KindAnthropic: {
			{"answer", "", 200, anthReply("tool_use", anthToolUse(`{"answer":"42"}`)), false},
			{"http error", "provider_error", 400, anthError("invalid_request_error", "bad request"), false},
			{"retries spent", "provider_error", 529, anthError("overloaded_error", "Overloaded"), false},
			{"timeout", "timeout", 200, "", true},
			{"not json", "provider_error", 200, `<html>gateway</html>`, false},
			{"refusal", "invalid_value", 200, anthReply("refusal", anthText("I can't help.")), false},
		},
	}
	for _, kind := range []Kind{KindOpenAI, KindAnthropic} {
		t.Run(string(kind), func(t *testing.T) {
			var mu sync.Mutex
			var now outcome
			var got [][]byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw, _ := io.ReadAll(r.Body)
				mu.Lock()
				got = append(got, raw)
				o := now
				mu.Unlock()
				if o.hang {
					<-r.Context().Done()
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(o.status)
				io.WriteString(w, o.body)
			}))
			defer srv.Close()
			base, path := srv.URL+"/v1", "{base_url}/chat/completions"
			if kind == KindAnthropic {
				base, path = srv.URL, "{base_url}/v1/messages"
			}
			task, input := recordTask(t)
			cfg := Config{Name: "p", Kind: kind, BaseURL: base + "?key=" + leakedKey + "&api-version=2024-06-01", APIKeyEnv: "K", Timeout: 300 * time.Millisecond}
			ad := newModel(t, cfg, task, leakedKey)
			for _, o := range replies[kind] {
				mu.Lock()
				now, got = o, nil
				mu.Unlock()
				out, err := ad.Invoke(context.Background(), 0, input)
				var request string
				var f *engine.Failure
				switch {
				case o.code == "" && err == nil:
					request = out.(*engine.Answer).Request
				case o.code != "" && errors.As(err, &f) && string(f.Code) == o.code:
					request = f.Request
				default:
					t.Fatalf("%s: Invoke = %v, %v; want code %q", o.name, out, err, o.code)
				}
				mu.Lock()
				sent := got
				mu.Unlock()
				if len(sent) != 1 {
					t.Fatalf("%s: the server got %d requests, want 1", o.name, len(sent))
				}
				if p := testkit.Leak(request, leakedKey); p != "" {
					t.Errorf("%s: the recorded request keeps %q of the key:\n%s", o.name, p, request)
				}
				if !bytes.Contains(sent[0], []byte(leakedKey)) {
					t.Fatalf("%s: the request sent does not hold the key: the test checks nothing", o.name)
				}
				var want bytes.Buffer
				if err := json.Indent(&want, withMarkers(sent[0]), "", "  "); err != nil {
					t.Fatal(err)
				}
				wantText := "POST " + path + "\n" +
					strings.ReplaceAll(want.String(), leakedKey, redact.Mask)
				if request != wantText {
					t.Errorf("%s: recorded request\n%s\nwant\n%s", o.name, request, wantText)
				}
				for _, f := range recordFiles {
					if strings.Contains(request, base64.StdEncoding.EncodeToString([]byte(f.data))[:40]) || strings.Contains(request, "Paid on 15 March") {
						t.Errorf("%s: the recorded request holds an artifact's bytes", o.name)
					}
				}
				for _, h := range []string{"Authorization", "Bearer", "x-api-key", "anthropic-version"} {
					if strings.Contains(request, h) {
						t.Errorf("%s: the recorded request holds the header %s", o.name, h)
					}
				}
			}
		})
	}
}

// TestRecordedRequestCut: a body longer than engine.MaxRequest is recorded up to it, with
// a note of the body's length, and a key the stop falls inside is masked all the same,
// wherever in the key the stop falls.
func TestRecordedRequestCut(t *testing.T) {
	secrets := redact.New(leakedKey)
	line := "POST /v1/chat/completions"
	// The string's text starts after the line, its newline, `{`, a newline, two spaces and
	// `"a": "`.
	start := len(line) + 1 + 1 + 1 + 2 + len(`"a": "`)
	// Ten copies of the key before it shrink the text by their masks, so that the stop's
	// piece of the key would come before the note's place.
	keys := strings.Repeat(leakedKey+" ", 10)
	for lead := engine.MaxRequest - start - len(leakedKey) - 2; lead <= engine.MaxRequest-start+2; lead++ {
		body := []byte(`{"a":"` + keys + strings.Repeat("x", lead-len(keys)) + leakedKey + strings.Repeat("y", 1000) + `"}`)
		got := literalBody(body).record(line, secrets)
		if p := testkit.Leak(got, leakedKey); p != "" {
			t.Fatalf("lead %d: the record keeps %q of the key: …%s", lead, p, got[len(got)-120:])
		}
		note := fmt.Sprintf("\n… (cut: the body sent was %d bytes)", len(body))
		if len(got) > engine.MaxRequest || !strings.HasSuffix(got, note) || !strings.HasPrefix(got, line+"\n{\n  \"a\": \""+redact.Mask+" ") {
			t.Fatalf("lead %d: a record of %d bytes, ending %q", lead, len(got), got[max(len(got)-80, 0):])
		}
	}
}

// TestRecordedRequestBounded: recording a 16 MiB body allocates about engine.MaxRequest,
// not another copy of the body.
func TestRecordedRequestBounded(t *testing.T) {
	body := literalBody([]byte(`{"a":"` + strings.Repeat("x", 16<<20) + `"}`))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := body.record("POST /v1/messages", redact.New(leakedKey))
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 4*engine.MaxRequest {
		t.Errorf("recording a 16 MiB body allocated %d bytes", n)
	}
	if len(got) > engine.MaxRequest || len(got) < engine.MaxRequest-100 {
		t.Errorf("the record is %d bytes", len(got))
	}
}

// TestIndenter: the record's indenter writes what encoding/json's Indent writes, fed in
// pieces cut anywhere (inside strings and escapes too).
func TestIndenter(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `"a"`, `1`, `{"a":{},"b":[],"c":[{}],"d":[1,2,{"e":null}]}`,
		`{"a\"b\\":"c\\\"d\u00e9\n","z":[true,false,"}{[],:"]}`,
		`[[[],[[]]],{"k":{"k":{}}}]`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(in), "", "  "); err != nil {
			t.Fatal(err)
		}
		for cut := 0; cut <= len(in); cut++ {
			w := &indenter{limit: 1 << 20}
			w.write([]byte(in[:cut]))
			w.write([]byte(in[cut:]))
			if string(w.out) != want.String() {
				t.Errorf("%s cut at %d: got\n%s\nwant\n%s", in, cut, w.out, want.String())
			}
		}
	}
}

// TestRequestNotKept: for an example whose request the run does not keep, the adapter
// renders none (the engine would drop it), answer or failure, and still sends the request.
func TestRequestNotKept(t *testing.T) {
	srv := replyServer(t, `{"choices":[{"message":{"content":"{\"answer\":\"a\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`)
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 0}, oaQATask())
	out, err := a.Invoke(engine.WithoutRequest(context.Background()), 0, map[string]any{"q": "hi"})
	if err != nil || out.(*engine.Answer).Request != "" || out.(*engine.Answer).Output == nil {
		t.Errorf("an answer not kept: %v, %+v", err, out)
	}
	out, err = a.Invoke(context.Background(), 0, map[string]any{"q": "hi"})
	if err != nil || !strings.HasPrefix(out.(*engine.Answer).Request, "POST {base_url}/chat/completions") {
		t.Errorf("an answer kept: %v, %+v", err, out)
	}
	srv.Close()
	_, err = a.Invoke(engine.WithoutRequest(context.Background()), 0, map[string]any{"q": "hi"})
	if f := oaFailure(t, err); f.Request != "" {
		t.Errorf("a failure not kept has its request: %q", f.Request)
	}
}

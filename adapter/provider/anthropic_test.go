package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// anthStep is one canned reply of a fake Messages server.
type anthStep struct {
	status     int
	retryAfter string
	body       string
	delay      time.Duration
}

// anthCall is one request the fake server saw.
type anthCall struct {
	path   string
	header http.Header
	raw    []byte
	body   map[string]any
}

// anthServer serves the steps in order, the last one again for any further request, and
// returns what it was sent.
func anthServer(t *testing.T, steps ...anthStep) (*httptest.Server, func() []anthCall) {
	t.Helper()
	var mu sync.Mutex
	var calls []anthCall
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(raw, &body)
		mu.Lock()
		step := steps[min(len(calls), len(steps)-1)]
		calls = append(calls, anthCall{path: r.URL.Path, header: r.Header.Clone(), raw: raw, body: body})
		mu.Unlock()
		if step.delay > 0 {
			select {
			case <-time.After(step.delay):
			case <-r.Context().Done():
				return
			}
		}
		if step.retryAfter != "" {
			w.Header().Set("Retry-After", step.retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(step.status)
		io.WriteString(w, step.body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []anthCall {
		mu.Lock()
		defer mu.Unlock()
		return append([]anthCall(nil), calls...)
	}
}

// anthAdapter is an Anthropic adapter against url whose retry waits are recorded instead
// of slept, with the jitter fixed at its midpoint so a backoff is exactly its base.
func anthAdapter(t *testing.T, url string, task Task, cfg Config) (*modelAdapter, *[]time.Duration) {
	t.Helper()
	cfg.Name, cfg.Kind, cfg.BaseURL, cfg.APIKeyEnv = "claude", KindAnthropic, url, "ANTHROPIC_API_KEY"
	m := newModel(t, cfg, task, "sk-ant-test")
	return m, recordWaits(m)
}

// anthOutput is the program output the tests ask for.
var anthOutput = ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
	{Name: "answer", Type: ir.TypeString},
	{Name: "total", Type: ir.TypeFloat},
}}

// anthTask is a model task with a question as its only input.
func anthTask() Task {
	return Task{
		System: ir.AISystem{Type: ir.SystemModel, Provider: "claude", Model: "claude-sonnet-4-5"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "question", Type: ir.TypeString}}},
		Output: anthOutput,
		Prompt: "You read invoices.",
	}
}

var anthQuestion = map[string]any{"question": "What is the total?"}

// anthReply is a Messages response with the given content blocks.
func anthReply(stop string, content ...string) string {
	return `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5",` +
		`"content":[` + strings.Join(content, ",") + `],"stop_reason":"` + stop + `","stop_sequence":null,` +
		`"usage":{"input_tokens":120,"output_tokens":14}}`
}

func anthText(s string) string {
	b, _ := json.Marshal(s)
	return `{"type":"text","text":` + string(b) + `}`
}

func anthToolUse(input string) string {
	return `{"type":"tool_use","id":"toolu_01","name":"benchy_output","input":` + input + `}`
}

func anthError(typ, msg string) string {
	return `{"type":"error","error":{"type":"` + typ + `","message":"` + msg + `"}}`
}

func anthJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestAnthropicRequest checks what is sent for an example with text, an image and a PDF:
// the endpoint, the headers, the model, the default max_tokens, the system prompt, the user
// content blocks in declaration order, the forced tool and the parameters; and that the
// tool's input comes back as the output with the usage.
func TestAnthropicRequest(t *testing.T) {
	dir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\npixels")
	pdf := []byte("%PDF-1.7 pages")
	os.WriteFile(filepath.Join(dir, "scan.png"), png, 0o644)
	os.WriteFile(filepath.Join(dir, "terms.pdf"), pdf, 0o644)
	task := anthTask()
	task.Input.Fields = append(task.Input.Fields,
		ir.Field{Name: "scan", Type: ir.TypeImage},
		ir.Field{Name: "terms", Type: ir.TypeDocument},
		ir.Field{Name: "pages", Type: ir.TypeInt})
	task.System.Parameters = map[string]any{"temperature": 0.2, "top_p": 0.9, "stop_sequences": []any{"END"}}
	input := map[string]any{
		"question": "What is the total?",
		"scan":     filepath.Join(dir, "scan.png"),
		"terms":    filepath.Join(dir, "terms.pdf"),
		"pages":    json.Number("3"),
	}

	srv, calls := anthServer(t, anthStep{status: 200, body: anthReply("tool_use", anthToolUse(`{"answer":"paid","total":12.50}`))})
	a, _ := anthAdapter(t, srv.URL, task, Config{})
	out, err := a.Invoke(context.Background(), 0, input)
	if err != nil {
		t.Fatal(err)
	}
	ans, ok := out.(*engine.Answer)
	if !ok {
		t.Fatalf("output is %T, want *engine.Answer", out)
	}
	if got := anthJSON(ans.Output); got != `{"answer":"paid","total":12.50}` {
		t.Errorf("output = %s", got)
	}
	if n, _ := ans.Output.(map[string]any)["total"].(json.Number); n != "12.50" {
		t.Errorf("total = %#v, want json.Number 12.50", ans.Output.(map[string]any)["total"])
	}
	if ans.Usage == nil || ans.Usage.InputTokens != 120 || ans.Usage.OutputTokens != 14 || ans.Usage.LatencyMS <= 0 {
		t.Errorf("usage = %+v", ans.Usage)
	}

	cs := calls()
	if len(cs) != 1 {
		t.Fatalf("%d requests, want 1", len(cs))
	}
	c := cs[0]
	if c.path != "/v1/messages" {
		t.Errorf("path = %s", c.path)
	}
	for k, want := range map[string]string{"X-Api-Key": "sk-ant-test", "Anthropic-Version": "2023-06-01", "Content-Type": "application/json"} {
		if got := c.header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if c.header.Get("Authorization") != "" {
		t.Errorf("Authorization header sent: %q", c.header.Get("Authorization"))
	}
	b64 := base64.StdEncoding.EncodeToString
	for key, want := range map[string]string{
		"model":          `"claude-sonnet-4-5"`,
		"max_tokens":     `4096`,
		"system":         `"You read invoices."`,
		"temperature":    `0.2`,
		"top_p":          `0.9`,
		"stop_sequences": `["END"]`,
		"messages": `[{"content":[` +
			`{"text":"question: What is the total?\nscan: [image]","type":"text"},` +
			`{"source":{"data":"` + b64(png) + `","media_type":"image/png","type":"base64"},"type":"image"},` +
			`{"text":"terms: [document]","type":"text"},` +
			`{"source":{"data":"` + b64(pdf) + `","media_type":"application/pdf","type":"base64"},"type":"document"},` +
			`{"text":"pages: 3","type":"text"}],"role":"user"}]`,
		"tools": `[{"description":"Record the answer.","input_schema":{"additionalProperties":false,` +
			`"properties":{"answer":{"type":"string"},"total":{"type":"number"}},"required":["answer","total"],"type":"object"},` +
			`"name":"benchy_output"}]`,
		"tool_choice": `{"name":"benchy_output","type":"tool"}`,
	} {
		if got := anthJSON(c.body[key]); got != want {
			t.Errorf("%s = %s\nwant %s", key, got, want)
		}
	}
	if len(c.body) != 9 {
		t.Errorf("request has keys %v, want 9", reflect.ValueOf(c.body).MapKeys())
	}

	// The same example gives the same bytes.
	parts, err := Render(task.Input, input)
	if err != nil {
		t.Fatal(err)
	}
	again, err := anthropic{}.body(&task, ModeJSONSchema, parts)
	if err != nil {
		t.Fatal(err)
	}
	if b := bodyBytes(t, again); !bytes.Equal(b, c.raw) {
		t.Errorf("body not deterministic:\n%s\n%s", b, c.raw)
	}
}

// TestAnthropicBodyOptions checks the request's optional pieces: max_tokens from the
// parameters, no system prompt without a prompt file, JSON mode's instruction instead of a
// tool, and no key header without a key.
func TestAnthropicBodyOptions(t *testing.T) {
	parts := []Part{{Kind: "text", Text: "question: Why?"}}
	body := func(task Task, mode string) map[string]any {
		t.Helper()
		b, err := anthropic{}.body(&task, mode, parts)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(bodyBytes(t, b), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}

	task := anthTask()
	task.Prompt = ""
	task.System.Parameters = map[string]any{"max_tokens": 256.0, "model": "not-this-one"}
	m := body(task, ModeJSONSchema)
	if got := anthJSON(m["max_tokens"]); got != "256" {
		t.Errorf("max_tokens = %s, want the parameter's 256", got)
	}
	if got := m["model"]; got != "claude-sonnet-4-5" {
		t.Errorf("model = %v: the request's own keys win over parameters", got)
	}
	if _, ok := m["system"]; ok {
		t.Errorf("system sent without a prompt: %v", m["system"])
	}

	task = anthTask()
	m = body(task, ModeJSONMode)
	if _, ok := m["tools"]; ok {
		t.Error("json_mode sent tools")
	}
	if _, ok := m["tool_choice"]; ok {
		t.Error("json_mode sent tool_choice")
	}
	want := "You read invoices.\n\nAnswer with one JSON object that matches this JSON Schema: " + anthJSON(JSONSchema(anthOutput))
	if m["system"] != want {
		t.Errorf("system = %q\nwant %q", m["system"], want)
	}
	task.Prompt = ""
	if m = body(task, ModeJSONMode); !strings.HasPrefix(m["system"].(string), "Answer with one JSON object") {
		t.Errorf("system without a prompt = %q", m["system"])
	}

	if h := (anthropic{}).headers(""); h.Get("x-api-key") != "" || h.Get("anthropic-version") != "2023-06-01" {
		t.Errorf("headers without a key = %v", h)
	}
}

// TestAnthropicParts checks how each kind of input part becomes a content block, and that
// what the Messages API cannot take is an adapter_error naming the part.
func TestAnthropicParts(t *testing.T) {
	dir := t.TempDir()
	file := func(kind, mime, name, data string) Part {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return Part{Kind: kind, MIME: mime, Name: name, Label: "f", Path: p, Size: int64(len(data))}
	}
	tests := []struct {
		part Part
		want string // the block as JSON, or the start of the error message
	}{
		{Part{Kind: "text", Text: "a: b"}, `{"text":"a: b","type":"text"}`},
		{file("image", "image/jpeg", "x.jpg", "\xff\xd8\xff"), `{"source":{"data":"/9j/","media_type":"image/jpeg","type":"base64"},"type":"image"}`},
		{file("image", "image/webp", "x.webp", "RIFF"), `{"source":{"data":"UklGRg==","media_type":"image/webp","type":"base64"},"type":"image"}`},
		{file("document", "application/pdf", "x.pdf", "%PDF"), `{"source":{"data":"JVBERg==","media_type":"application/pdf","type":"base64"},"type":"document"}`},
		{file("document", "text/plain", "x.txt", "héllo"), `{"source":{"data":"héllo","media_type":"text/plain","type":"text"},"type":"document"}`},
		{file("image", "application/octet-stream", "x.bmp", "BM"), "image x.bmp is application/octet-stream: the Anthropic Messages API takes JPEG, PNG, GIF and WebP images only"},
		{file("document", "text/plain", "y.txt", "\xff\xfe"), "document y.txt is not UTF-8 text"},
		{file("document", "image/png", "x.png", "x"), "document x.png is image/png: the Anthropic Messages API takes PDF and plain-text documents only"},
		{file("audio", "audio/wav", "x.wav", "RIFF"), "audio x.wav: the Anthropic Messages API takes no audio input"},
	}
	for _, tt := range tests {
		media := newBodyBuilder()
		block, f := anthropicPart(tt.part, media)
		if f == nil {
			body, err := media.finish(block)
			if err != nil {
				t.Fatal(err)
			}
			block = json.RawMessage(bodyBytes(t, body))
		}
		if f != nil {
			if f.Status != engine.StatusExecutionError || f.Code != diag.AdapterError || f.Message != tt.want {
				t.Errorf("%s %s: failure %s %s, want adapter_error %q", tt.part.Kind, tt.part.Name, f.Status, f, tt.want)
			}
			continue
		}
		if got := anthJSON(block); got != tt.want {
			t.Errorf("%s %s: block %s, want %s", tt.part.Kind, tt.part.Name, got, tt.want)
		}
	}
}

// TestAnthropicAudio checks that an audio input fails before anything is sent.
func TestAnthropicAudio(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "call.wav"), []byte("RIFF\x00\x00\x00\x00WAVEfmt "), 0o644)
	task := anthTask()
	task.Input.Fields = append(task.Input.Fields, ir.Field{Name: "call", Type: ir.TypeAudio})
	srv, calls := anthServer(t, anthStep{status: 200, body: anthReply("tool_use", anthToolUse(`{"answer":"a","total":1}`))})
	a, _ := anthAdapter(t, srv.URL, task, Config{})
	_, err := a.Invoke(context.Background(), 0, map[string]any{"question": "Who called?", "call": filepath.Join(dir, "call.wav")})
	var f *engine.Failure
	if !errors.As(err, &f) || f.Status != engine.StatusExecutionError || f.Code != diag.AdapterError || !strings.Contains(f.Message, "takes no audio input") {
		t.Fatalf("err = %v, want adapter_error about audio", err)
	}
	if n := len(calls()); n != 0 {
		t.Errorf("the server saw %d requests, want 0", n)
	}
}

// TestAnthropicOutcomes checks the status recorded for each kind of reply, how many
// requests it took and the waits between them.
func TestAnthropicOutcomes(t *testing.T) {
	const cut = `{"answer":"pa`
	tests := []struct {
		name       string
		mode       string
		retries    int
		steps      []anthStep
		want       string // the output as JSON, when valid
		status     engine.Status
		code       diag.Code
		message    string // a substring of the failure's message
		prediction any
		requests   int
		waits      []time.Duration
		usage      bool // the failure carries the reply's token counts
	}{
		{
			name:     "tool use",
			steps:    []anthStep{{status: 200, body: anthReply("tool_use", anthText("Recording it."), anthToolUse(`{"answer":"paid","total":3}`))}},
			want:     `{"answer":"paid","total":3}`,
			requests: 1,
		},
		{
			name:     "json mode, bare text",
			mode:     ModeJSONMode,
			steps:    []anthStep{{status: 200, body: anthReply("end_turn", anthText(`{"answer":"paid","total":3.0}`))}},
			want:     `{"answer":"paid","total":3.0}`,
			requests: 1,
		},
		{
			name:     "json mode, fenced after reasoning",
			mode:     ModeJSONMode,
			steps:    []anthStep{{status: 200, body: anthReply("end_turn", anthText("The total is on line 4.\n```json\n{\"answer\": \"paid\", \"total\": 3}\n```"))}},
			want:     `{"answer":"paid","total":3}`,
			requests: 1,
		},
		{
			name:     "tool mode, answered in fenced text instead",
			steps:    []anthStep{{status: 200, body: anthReply("end_turn", anthText("```json\n{\"answer\":\"paid\",\"total\":3}\n```"))}},
			want:     `{"answer":"paid","total":3}`,
			requests: 1,
		},
		{
			name:       "tool mode, text with no JSON",
			steps:      []anthStep{{status: 200, body: anthReply("end_turn", anthText("It was paid."))}},
			status:     engine.StatusInvalidOutput,
			code:       diag.InvalidValue,
			message:    "the reply holds no JSON object",
			prediction: "It was paid.",
			requests:   1,
			usage:      true,
		},
		{
			name:       "json mode, malformed JSON is not repaired",
			mode:       ModeJSONMode,
			steps:      []anthStep{{status: 200, body: anthReply("end_turn", anthText(`{"answer": "paid", "total": 3,}`))}},
			status:     engine.StatusInvalidOutput,
			code:       diag.InvalidValue,
			message:    "no JSON object",
			prediction: `{"answer": "paid", "total": 3,}`,
			requests:   1,
			usage:      true,
		},
		{
			name: "429 with Retry-After, then success",
			steps: []anthStep{
				{status: 429, retryAfter: "2", body: anthError("rate_limit_error", "Number of requests has exceeded your rate limit")},
				{status: 200, body: anthReply("tool_use", anthToolUse(`{"answer":"paid","total":3}`))},
			},
			want:     `{"answer":"paid","total":3}`,
			requests: 2,
			waits:    []time.Duration{2 * time.Second},
		},
		{
			name: "529 overloaded, then success",
			steps: []anthStep{
				{status: 529, body: anthError("overloaded_error", "Overloaded")},
				{status: 200, body: anthReply("tool_use", anthToolUse(`{"answer":"paid","total":3}`))},
			},
			want:     `{"answer":"paid","total":3}`,
			requests: 2,
			waits:    []time.Duration{500 * time.Millisecond},
		},
		{
			name:     "529 until the retries are spent",
			retries:  2,
			steps:    []anthStep{{status: 529, body: anthError("overloaded_error", "Overloaded")}},
			status:   engine.StatusExecutionError,
			code:     diag.ProviderError,
			message:  "HTTP 529",
			requests: 3,
			waits:    []time.Duration{500 * time.Millisecond, time.Second},
		},
		{
			name:     "400 is not retried",
			steps:    []anthStep{{status: 400, body: anthError("invalid_request_error", "max_tokens: Field required")}},
			status:   engine.StatusExecutionError,
			code:     diag.ProviderError,
			message:  `HTTP 400: {"type":"error","error":{"type":"invalid_request_error"`,
			requests: 1,
		},
		{
			name:       "cut off at max_tokens, text",
			mode:       ModeJSONMode,
			steps:      []anthStep{{status: 200, body: anthReply("max_tokens", anthText(cut))}},
			status:     engine.StatusInvalidOutput,
			code:       diag.InvalidValue,
			message:    "cut off at the token limit",
			prediction: cut,
			requests:   1,
			usage:      true,
		},
		{
			name:       "cut off at max_tokens, tool input",
			steps:      []anthStep{{status: 200, body: anthReply("max_tokens", anthToolUse(`{"answer":"paid"}`))}},
			status:     engine.StatusInvalidOutput,
			code:       diag.InvalidValue,
			message:    "cut off at the token limit",
			prediction: map[string]any{"answer": "paid"},
			requests:   1,
			usage:      true,
		},
		{
			name:       "refusal",
			steps:      []anthStep{{status: 200, body: anthReply("refusal", anthText("I can't help with that."))}},
			status:     engine.StatusInvalidOutput,
			code:       diag.InvalidValue,
			message:    "the model refused",
			prediction: "I can't help with that.",
			requests:   1,
			usage:      true,
		},
		{
			name:     "body not JSON",
			steps:    []anthStep{{status: 200, body: "<html>gateway</html>"}},
			status:   engine.StatusExecutionError,
			code:     diag.ProviderError,
			message:  "<html>gateway</html>",
			requests: 1,
		},
		{
			name:     "no content",
			steps:    []anthStep{{status: 200, body: `{"id":"msg_01","type":"message","role":"assistant"}`}},
			status:   engine.StatusExecutionError,
			code:     diag.ProviderError,
			message:  "no content",
			requests: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, calls := anthServer(t, tt.steps...)
			retries := tt.retries
			if retries == 0 {
				retries = 5
			}
			a, waits := anthAdapter(t, srv.URL, anthTask(), Config{StructuredOutput: tt.mode, MaxRetries: retries})
			out, err := a.Invoke(context.Background(), 0, anthQuestion)
			if tt.want != "" {
				ans, ok := out.(*engine.Answer)
				if err != nil || !ok {
					t.Fatalf("Invoke = %v, %v; want an answer", out, err)
				}
				if got := anthJSON(ans.Output); got != tt.want {
					t.Errorf("output = %s, want %s", got, tt.want)
				}
				if ans.Usage == nil || ans.Usage.InputTokens != 120 || ans.Usage.OutputTokens != 14 {
					t.Errorf("usage = %+v", ans.Usage)
				}
			} else {
				var f *engine.Failure
				if !errors.As(err, &f) {
					t.Fatalf("Invoke = %v, %v; want a *engine.Failure", out, err)
				}
				if f.Status != tt.status || f.Code != tt.code || !strings.Contains(f.Message, tt.message) {
					t.Errorf("failure = %s %s %q, want %s %s containing %q", f.Status, f.Code, f.Message, tt.status, tt.code, tt.message)
				}
				if !reflect.DeepEqual(f.Prediction, tt.prediction) {
					t.Errorf("prediction = %#v, want %#v", f.Prediction, tt.prediction)
				}
				if f.Usage == nil {
					t.Error("failure has no usage")
				} else if tt.usage && (f.Usage.InputTokens != 120 || f.Usage.OutputTokens != 14) {
					t.Errorf("usage = %+v", f.Usage)
				}
			}
			if n := len(calls()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			if !reflect.DeepEqual(*waits, tt.waits) {
				t.Errorf("waits = %v, want %v", *waits, tt.waits)
			}
		})
	}
}

// TestAnthropicTimeout checks that a reply slower than the per-request timeout is a
// timeout, not retried, and that the failure still says how long the call took.
func TestAnthropicTimeout(t *testing.T) {
	srv, calls := anthServer(t, anthStep{status: 200, delay: 5 * time.Second, body: anthReply("tool_use", anthToolUse(`{"answer":"a","total":1}`))})
	a, _ := anthAdapter(t, srv.URL, anthTask(), Config{Timeout: 50 * time.Millisecond})
	start := time.Now()
	_, err := a.Invoke(context.Background(), 0, anthQuestion)
	var f *engine.Failure
	if !errors.As(err, &f) || f.Status != engine.StatusExecutionError || f.Code != diag.Timeout {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s with a 50ms timeout", d)
	}
	if f.Usage == nil || f.Usage.LatencyMS < 50 {
		t.Errorf("usage = %+v, want the latency of the timed-out call", f.Usage)
	}
	if n := len(calls()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

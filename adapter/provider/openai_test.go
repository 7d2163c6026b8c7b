package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// oaKey is the test key; no failure message may hold it.
const oaKey = "sk-test-0123456789-SECRET"

// oaServer is a Chat Completions endpoint that records every request and answers the i-th
// with replies[min(i, len(replies)-1)].
type oaServer struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []oaRequest
	replies []oaResponse
}

type oaRequest struct {
	Method, Path string
	Header       http.Header
	Raw          []byte
	Body         map[string]any
}

type oaResponse struct {
	status     int
	retryAfter string
	body       string
	hang       bool // answer only when the client gives up
}

func newOAServer(t testing.TB, replies ...oaResponse) *oaServer {
	s := &oaServer{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := make([]byte, 0, r.ContentLength)
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Body.Read(buf)
			raw = append(raw, buf[:n]...)
			if err != nil {
				break
			}
		}
		var body map[string]any
		decodeKeepingNumbers(raw, &body)
		s.mu.Lock()
		i := len(s.reqs)
		s.reqs = append(s.reqs, oaRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw, Body: body})
		reply := s.replies[min(i, len(s.replies)-1)]
		s.mu.Unlock()
		if reply.hang {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		}
		if reply.retryAfter != "" {
			w.Header().Set("Retry-After", reply.retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(oaStatus(reply.status))
		w.Write([]byte(reply.body))
	}))
	t.Cleanup(s.Close)
	return s
}

func oaStatus(v int) int {
	if v == 0 {
		return http.StatusOK
	}
	return v
}

func (s *oaServer) requests() []oaRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]oaRequest(nil), s.reqs...)
}

// oaCompletion is a documented chat.completion reply with one choice.
func oaCompletion(content, finish string) string {
	c, _ := json.Marshal(content)
	return `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-test",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":` + string(c) + `,"refusal":null},"logprobs":null,"finish_reason":"` + finish + `"}],` +
		`"usage":{"prompt_tokens":120,"completion_tokens":17,"total_tokens":137}}`
}

// oaTask is an invoice task with every input kind: text, image, audio and a PDF.
func oaTask(t testing.TB) (Task, map[string]any) {
	dir := t.TempDir()
	files := map[string]string{
		"scan.png":     "\x89PNG\r\n\x1a\nimage-bytes",
		"call.wav":     "RIFF\x00\x00\x00\x00WAVEfmt audio-bytes",
		"contract.pdf": "%PDF-1.7 document-bytes",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	task := Task{
		System: ir.AISystem{Type: ir.SystemModel, Provider: "openai", Model: "gpt-test", Parameters: map[string]any{
			"temperature": 0.2, "max_tokens": 256.0, "seed": 7.0, "top_p": 0.9, "stop": "END",
		}},
		Input: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
			{Name: "question", Type: ir.TypeString},
			{Name: "scan", Type: ir.TypeImage},
			{Name: "call", Type: ir.TypeAudio},
			{Name: "contract", Type: ir.TypeDocument},
		}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
			{Name: "total", Type: ir.TypeFloat},
			{Name: "currency", Type: ir.TypeEnum, Values: []string{"EUR", "USD"}},
			{Name: "lines", Type: ir.TypeInt},
			{Name: "date", Type: ir.TypeDate},
		}},
		Prompt: "You read invoices.",
	}
	input := map[string]any{
		"question": "What is the total?",
		"scan":     filepath.Join(dir, "scan.png"),
		"call":     filepath.Join(dir, "call.wav"),
		"contract": filepath.Join(dir, "contract.pdf"),
	}
	return task, input
}

// oaAdapter builds an adapter the way the runtime does, through NewFactory, then swaps the
// client's sleep for one that records the waits and returns at once.
func oaAdapter(t testing.TB, cfg Config, task Task) (*modelAdapter, *[]time.Duration) {
	t.Helper()
	cfg.Kind = KindOpenAI
	if cfg.APIKeyEnv == "" {
		cfg.APIKeyEnv = "OPENAI_TEST_KEY"
	}
	key := ""
	if cfg.APIKeyEnv == "OPENAI_TEST_KEY" {
		key = oaKey
	}
	m := newModel(t, cfg, task, key)
	return m, recordWaits(m)
}

// oaQATask asks one question (q) for one answer (answer).
func oaQATask() Task {
	return Task{
		System: ir.AISystem{Model: "gpt-test"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "answer", Type: ir.TypeString}}},
	}
}

// oaFailure is the *engine.Failure in err; it fails the test when there is none, or when
// the message holds the key.
func oaFailure(t *testing.T, err error) *engine.Failure {
	t.Helper()
	var f *engine.Failure
	if !errors.As(err, &f) {
		t.Fatalf("error %v (%T), want an *engine.Failure", err, err)
	}
	if strings.Contains(f.Error(), oaKey) || strings.Contains(mustJSON(f.Prediction), oaKey) {
		t.Errorf("the failure holds the key: %v", f)
	}
	return f
}

func oaAnswer(t *testing.T, out any, err error) *engine.Answer {
	t.Helper()
	if err != nil {
		t.Fatalf("Invoke: %v", err)
	}
	a, ok := out.(*engine.Answer)
	if !ok {
		t.Fatalf("Invoke returned %T, want *engine.Answer", out)
	}
	return a
}

// TestOpenAIRequest: one example becomes the documented request — the prompt as the system
// message, the input as labelled text and media parts, the output schema as a strict
// json_schema response_format, the parameters beside them — and the answer is read back
// with its usage.
func TestOpenAIRequest(t *testing.T) {
	srv := newOAServer(t, oaResponse{body: oaCompletion(`{"total": 1234.50, "currency": "EUR", "lines": 3, "date": "2024-03-01"}`, "stop")})
	task, input := oaTask(t)
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1"}, task)
	out, err := a.Invoke(context.Background(), 0, input)
	ans := oaAnswer(t, out, err)

	if got := mustJSON(ans.Output); got != `{"currency":"EUR","date":"2024-03-01","lines":3,"total":1234.50}` {
		t.Errorf("output %s", got)
	}
	if u := ans.Usage; u == nil || u.InputTokens != 120 || u.OutputTokens != 17 || u.LatencyMS <= 0 {
		t.Errorf("usage %+v", ans.Usage)
	}

	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost || r.Path != "/v1/chat/completions" {
		t.Errorf("%s %s, want POST /v1/chat/completions", r.Method, r.Path)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+oaKey {
		t.Errorf("Authorization %q", got)
	}
	if got := r.Header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type %q", got)
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	want := map[string]string{
		"model": `"gpt-test"`,
		"messages": `[{"content":"You read invoices.","role":"system"},{"content":[` +
			`{"text":"question: What is the total?\nscan: [image]","type":"text"},` +
			`{"image_url":{"url":"data:image/png;base64,` + b64("\x89PNG\r\n\x1a\nimage-bytes") + `"},"type":"image_url"},` +
			`{"text":"call: [audio]","type":"text"},` +
			`{"input_audio":{"data":"` + b64("RIFF\x00\x00\x00\x00WAVEfmt audio-bytes") + `","format":"wav"},"type":"input_audio"},` +
			`{"text":"contract: [document]","type":"text"},` +
			`{"file":{"file_data":"data:application/pdf;base64,` + b64("%PDF-1.7 document-bytes") + `","filename":"contract.pdf"},"type":"file"}` +
			`],"role":"user"}]`,
		"response_format": `{"json_schema":{"name":"benchy_output","schema":{"additionalProperties":false,"properties":{` +
			`"currency":{"enum":["EUR","USD"],"type":"string"},` +
			`"date":{"description":"a calendar date, YYYY-MM-DD","pattern":"^\\d{4}-\\d{2}-\\d{2}$","type":"string"},` +
			`"lines":{"type":"integer"},"total":{"type":"number"}},` +
			`"required":["total","currency","lines","date"],"type":"object"},"strict":true},"type":"json_schema"}`,
		"temperature": `0.2`, "max_tokens": `256`, "seed": `7`, "top_p": `0.9`, "stop": `"END"`,
	}
	for key, w := range want {
		if got := mustJSON(r.Body[key]); got != w {
			t.Errorf("%s:\n got %s\nwant %s", key, got, w)
		}
	}
	if len(r.Body) != len(want) {
		t.Errorf("request keys %v, want exactly %d", oaKeys(r.Body), len(want))
	}
	// The wire bytes keep the schema's required list in declaration order, and are the
	// same for the same example.
	if !strings.Contains(string(r.Raw), `"required":["total","currency","lines","date"]`) {
		t.Errorf("raw request lacks the ordered required list:\n%s", r.Raw)
	}
	parts, _ := Render(task.Input, input)
	again, _ := openAI{}.body(&task, ModeJSONSchema, parts)
	if string(bodyBytes(t, again)) != string(r.Raw) {
		t.Error("the request body is not deterministic")
	}
}

func oaKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// TestOpenAIParametersDoNotOverride: ai-system.parameters go through unchanged, but cannot
// replace the keys the adapter sets.
func TestOpenAIParametersDoNotOverride(t *testing.T) {
	task := Task{
		System: ir.AISystem{Model: "gpt-test", Parameters: map[string]any{"model": "other", "messages": "x", "logit_bias": map[string]any{"50256": -100.0}}},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "a", Type: ir.TypeString}}},
	}
	b, err := openAI{}.body(&task, ModeJSONSchema, []Part{{Kind: "text", Text: "q: hi"}})
	if err != nil {
		t.Fatal(err)
	}
	raw := bodyBytes(t, b)
	var body map[string]any
	json.Unmarshal(raw, &body)
	if body["model"] != "gpt-test" || mustJSON(body["messages"]) != `[{"content":[{"text":"q: hi","type":"text"}],"role":"user"}]` {
		t.Errorf("parameters replaced the adapter's keys: %s", raw)
	}
	if mustJSON(body["logit_bias"]) != `{"50256":-100}` {
		t.Errorf("logit_bias %v", body["logit_bias"])
	}
}

// TestOpenAIJSONMode: for servers without schema support the schema goes into the system
// message and response_format asks only for a JSON object.
func TestOpenAIJSONMode(t *testing.T) {
	const instruction = "Answer with one JSON object that matches this JSON Schema: " +
		`{"additionalProperties":false,"properties":{"a":{"type":"integer"},"b":{"enum":["x<y","z"],"type":"string"}},"required":["b","a"],"type":"object"}`
	for _, prompt := range []string{"You answer.", ""} {
		srv := newOAServer(t, oaResponse{body: oaCompletion(`{"b":"z","a":1}`, "stop")})
		task := Task{
			System: ir.AISystem{Model: "llama3"},
			Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
			Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "b", Type: ir.TypeEnum, Values: []string{"x<y", "z"}}, {Name: "a", Type: ir.TypeInt}}},
			Prompt: prompt,
		}
		a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1/", StructuredOutput: ModeJSONMode}, task)
		out, err := a.Invoke(context.Background(), 0, map[string]any{"q": "hi"})
		ans := oaAnswer(t, out, err)
		if mustJSON(ans.Output) != `{"a":1,"b":"z"}` {
			t.Errorf("output %s", mustJSON(ans.Output))
		}
		r := srv.requests()[0]
		if r.Path != "/v1/chat/completions" {
			t.Errorf("path %s", r.Path)
		}
		if got := mustJSON(r.Body["response_format"]); got != `{"type":"json_object"}` {
			t.Errorf("response_format %s", got)
		}
		system := instruction
		if prompt != "" {
			system = prompt + "\n\n" + instruction
		}
		msgs, _ := r.Body["messages"].([]any)
		first, _ := msgs[0].(map[string]any)
		if len(msgs) != 2 || first["role"] != "system" || first["content"] != system {
			t.Errorf("prompt %q: messages %s, want the system message %q", prompt, mustJSON(msgs), system)
		}
	}
}

// TestOpenAIReplies: how a 200 reply's content becomes an output, an invalid_output or a
// provider_error, with the usage the reply reports.
func TestOpenAIReplies(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		status     engine.Status
		code       diag.Code
		output     string // the output as JSON, for valid replies
		prediction any    // for invalid_output
		message    string // in the failure's message
		usage      bool
	}{
		{name: "plain JSON", body: oaCompletion(`{"answer":"Paris"}`, "stop"),
			status: engine.StatusValid, output: `{"answer":"Paris"}`, usage: true},
		{name: "fenced JSON", body: oaCompletion("```json\n{\"answer\": \"Paris\"}\n```", "stop"),
			status: engine.StatusValid, output: `{"answer":"Paris"}`, usage: true},
		{name: "reasoning prefix", body: oaCompletion("The capital of France is Paris, so:\n{\"answer\": \"Paris\"}", "stop"),
			status: engine.StatusValid, output: `{"answer":"Paris"}`, usage: true},
		{name: "content as text parts", body: `{"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":"{\"answer\":"},{"type":"text","text":"\"Paris\"}"}]},"finish_reason":"stop"}]}`,
			status: engine.StatusValid, output: `{"answer":"Paris"}`},
		{name: "malformed JSON content", body: oaCompletion(`{"answer": "Paris",`, "stop"),
			status: engine.StatusInvalidOutput, code: diag.InvalidValue, prediction: `{"answer": "Paris",`, message: "no JSON object", usage: true},
		{name: "prose only", body: oaCompletion("I think it is Paris.", "stop"),
			status: engine.StatusInvalidOutput, code: diag.InvalidValue, prediction: "I think it is Paris.", message: "no JSON object", usage: true},
		{name: "refusal", body: `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I'm sorry, I can't help with that."},"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":17}}`,
			status: engine.StatusInvalidOutput, code: diag.InvalidValue, prediction: "I'm sorry, I can't help with that.", message: "refused", usage: true},
		{name: "cut off at max_tokens", body: oaCompletion(`{"answer": "Par`, "length"),
			status: engine.StatusInvalidOutput, code: diag.InvalidValue, prediction: `{"answer": "Par`, message: "cut off at the token limit", usage: true},
		{name: "no choices", body: `{"object":"chat.completion","choices":[]}`,
			status: engine.StatusExecutionError, code: diag.ProviderError, message: "no choices"},
		{name: "error object with 200", body: `{"error":{"message":"model not loaded"}}`,
			status: engine.StatusExecutionError, code: diag.ProviderError, message: "model not loaded"},
		{name: "body not JSON", body: `<html>bad gateway</html>`,
			status: engine.StatusExecutionError, code: diag.ProviderError, message: "<html>bad gateway</html>"},
	}
	task := oaQATask()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newOAServer(t, oaResponse{body: tt.body})
			a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1"}, task)
			out, err := a.Invoke(context.Background(), 0, map[string]any{"q": "Capital of France?"})
			var usage *engine.Usage
			if tt.status == engine.StatusValid {
				ans := oaAnswer(t, out, err)
				if got := mustJSON(ans.Output); got != tt.output {
					t.Errorf("output %s, want %s", got, tt.output)
				}
				usage = ans.Usage
			} else {
				f := oaFailure(t, err)
				if f.Status != tt.status || f.Code != tt.code || !strings.Contains(f.Message, tt.message) {
					t.Errorf("failure %s %s %q, want %s %s containing %q", f.Status, f.Code, f.Message, tt.status, tt.code, tt.message)
				}
				if f.Prediction != tt.prediction {
					t.Errorf("prediction %#v, want %#v", f.Prediction, tt.prediction)
				}
				usage = f.Usage
			}
			if usage == nil || usage.LatencyMS <= 0 {
				t.Errorf("usage %+v, want the latency at least", usage)
			} else if tt.usage && (usage.InputTokens != 120 || usage.OutputTokens != 17) {
				t.Errorf("usage %+v, want 120 in and 17 out", usage)
			}
			if n := len(srv.requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// TestOpenAIRetries: 429 and 5xx are retried (after the server's Retry-After when it gives
// one), other 4xx are not, and a spent budget is a provider_error with the status.
func TestOpenAIRetries(t *testing.T) {
	ok := oaResponse{body: oaCompletion(`{"answer":"ok"}`, "stop")}
	tests := []struct {
		name     string
		replies  []oaResponse
		requests int
		code     diag.Code // "" for valid
		message  []string
		waits    []time.Duration
	}{
		{name: "429 with Retry-After then success", requests: 2, waits: []time.Duration{3 * time.Second},
			replies: []oaResponse{{status: 429, retryAfter: "3", body: `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`}, ok}},
		{name: "500 then success", requests: 2, waits: []time.Duration{500 * time.Millisecond},
			replies: []oaResponse{{status: 500, body: `{"error":{"message":"The server had an error"}}`}, ok}},
		{name: "400 is not retried", requests: 1, code: diag.ProviderError, message: []string{"HTTP 400", "Invalid schema"},
			replies: []oaResponse{{status: 400, body: `{"error":{"message":"Invalid schema for response_format","type":"invalid_request_error"}}`}}},
		{name: "401 keeps the key out", requests: 1, code: diag.ProviderError, message: []string{"HTTP 401", "Incorrect API key"},
			replies: []oaResponse{{status: 401, body: `{"error":{"message":"Incorrect API key provided: sk-test-*****CRET.","code":"invalid_api_key"}}`}}},
		{name: "retries run out", requests: 3, code: diag.ProviderError, message: []string{"HTTP 503", "after 3 attempts"},
			waits:   []time.Duration{500 * time.Millisecond, time.Second},
			replies: []oaResponse{{status: 503, body: `{"error":{"message":"overloaded"}}`}}},
	}
	task := oaQATask()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newOAServer(t, tt.replies...)
			a, waits := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: 2}, task)
			out, err := a.Invoke(context.Background(), 0, map[string]any{"q": "hi"})
			if tt.code == "" {
				if ans := oaAnswer(t, out, err); mustJSON(ans.Output) != `{"answer":"ok"}` {
					t.Errorf("output %s", mustJSON(ans.Output))
				}
			} else {
				f := oaFailure(t, err)
				if f.Status != engine.StatusExecutionError || f.Code != tt.code {
					t.Errorf("failure %s %s, want execution_error %s", f.Status, f.Code, tt.code)
				}
				for _, m := range tt.message {
					if !strings.Contains(f.Message, m) {
						t.Errorf("message %q lacks %q", f.Message, m)
					}
				}
				if f.Usage == nil {
					t.Error("no usage (latency) on the failure")
				}
			}
			if n := len(srv.requests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			if mustJSON(*waits) != mustJSON(tt.waits) {
				t.Errorf("waited %v, want %v", *waits, tt.waits)
			}
		})
	}
}

// TestOpenAIInputErrors: an input the protocol cannot carry is an adapter_error before any
// request is sent.
func TestOpenAIInputErrors(t *testing.T) {
	srv := newOAServer(t, oaResponse{body: oaCompletion(`{}`, "stop")})
	task, input := oaTask(t)
	ogg := filepath.Join(t.TempDir(), "call.ogg")
	os.WriteFile(ogg, []byte("OggS audio"), 0o644)
	input["call"] = ogg
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1"}, task)
	_, err := a.Invoke(context.Background(), 0, input)
	f := oaFailure(t, err)
	if f.Status != engine.StatusExecutionError || f.Code != diag.AdapterError || !strings.Contains(f.Message, "takes wav or mp3 audio") {
		t.Errorf("ogg audio: %v", f)
	}
	input["call"] = filepath.Join(t.TempDir(), "missing.wav")
	if f := oaFailure(t, oaErr(a.Invoke(context.Background(), 0, input))); f.Code != diag.AdapterError {
		t.Errorf("missing file: %v", f)
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent for inputs that cannot be sent", n)
	}
}

func oaErr(_ any, err error) error { return err }

// TestOpenAITimeout: a reply slower than the provider's timeout is an execution_error
// timeout, and it is not retried.
func TestOpenAITimeout(t *testing.T) {
	srv := newOAServer(t, oaResponse{hang: true})
	task := Task{
		System: ir.AISystem{Model: "gpt-test"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "a", Type: ir.TypeString}}},
	}
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", Timeout: 50 * time.Millisecond}, task)
	start := time.Now()
	_, err := a.Invoke(context.Background(), 0, map[string]any{"q": "hi"})
	f := oaFailure(t, err)
	if f.Status != engine.StatusExecutionError || f.Code != diag.Timeout {
		t.Errorf("failure %v, want execution_error timeout", f)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestOpenAICancel: cancelling the run stops a request in flight, and a wait for
// Retry-After, promptly.
func TestOpenAICancel(t *testing.T) {
	task := Task{
		System: ir.AISystem{Model: "gpt-test"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "a", Type: ir.TypeString}}},
	}
	for _, tt := range []struct {
		name  string
		reply oaResponse
	}{
		{"in flight", oaResponse{hang: true}},
		{"waiting for Retry-After", oaResponse{status: 429, retryAfter: "60"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newOAServer(t, tt.reply)
			a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", MaxRetries: DefaultMaxRetries}, task)
			a.c.sleep = sleepCtx // the real wait
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			start := time.Now()
			_, err := a.Invoke(ctx, 0, map[string]any{"q": "hi"})
			if d := time.Since(start); d > time.Second {
				t.Errorf("cancellation took %v", d)
			}
			if f := oaFailure(t, err); f.Status != engine.StatusExecutionError || f.Code != diag.Timeout {
				t.Errorf("failure %v", f)
			}
		})
	}
}

// TestOpenAIKey: the key comes from the named environment variable only, and a missing one
// stops the run before it starts; no key, no Authorization header.
func TestOpenAIKey(t *testing.T) {
	task := Task{System: ir.AISystem{Model: "gpt-test"}}
	_, err := NewFactory(Config{Name: "openai", Kind: KindOpenAI, APIKeyEnv: "OPENAI_API_KEY"}, task, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") || !strings.Contains(err.Error(), `"openai"`) {
		t.Errorf("missing key: %v", err)
	}

	srv := newOAServer(t, oaResponse{body: oaCompletion(`{"a":"x"}`, "stop")})
	task = Task{
		System: ir.AISystem{Model: "llama3"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "a", Type: ir.TypeString}}},
	}
	factory, err := NewFactory(Config{Name: "local", Kind: KindOpenAI, BaseURL: srv.URL + "/v1"}, task, func(string) string { return oaKey })
	if err != nil {
		t.Fatal(err)
	}
	ad, _ := factory()
	if _, err := ad.Invoke(context.Background(), 0, map[string]any{"q": "hi"}); err != nil {
		t.Fatal(err)
	}
	if h := srv.requests()[0].Header; h.Get("Authorization") != "" {
		t.Errorf("a provider without api_key_env sent Authorization %q", h.Get("Authorization"))
	}
}

// BenchmarkOpenAIOverhead measures a text example against a local server that answers at
// once with a fixed reply: "call" is the whole Invoke (loopback HTTP included), "adapter"
// the adapter's own work — rendering the prompt, the request body and the reply — without
// the network.
func BenchmarkOpenAIOverhead(b *testing.B) {
	benchmarkOverhead(b, "You answer questions about the context. Reply with JSON only.")
}

// benchmarkOverhead is BenchmarkOpenAIOverhead with the prompt file prompt (a template, or
// plain text).
func benchmarkOverhead(b *testing.B, prompt string) {
	task := Task{
		System: ir.AISystem{Model: "gpt-test", Parameters: map[string]any{"temperature": 0.0, "max_tokens": 256.0}},
		Input: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
			{Name: "question", Type: ir.TypeString},
			{Name: "context", Type: ir.TypeString},
		}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
			{Name: "answer", Type: ir.TypeString},
			{Name: "confidence", Type: ir.TypeFloat},
			{Name: "label", Type: ir.TypeEnum, Values: []string{"yes", "no", "unknown"}},
			{Name: "date", Type: ir.TypeDate},
		}},
		Prompt: prompt,
	}
	input := map[string]any{
		"question": "Is the invoice paid?",
		"context":  strings.Repeat("The invoice INV-2024-001 was issued on 1 March and paid on 15 March. ", 8),
	}
	reply := []byte(oaCompletion(`{"answer":"yes, on 15 March","confidence":0.93,"label":"yes","date":"2024-03-15"}`, "stop"))
	perOp := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/op")
	}

	b.Run("call", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for buf := make([]byte, 4096); ; {
				if _, err := r.Body.Read(buf); err != nil {
					break
				}
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(reply)
		}))
		defer srv.Close()
		a, _ := oaAdapter(b, Config{BaseURL: srv.URL + "/v1"}, task)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.Invoke(context.Background(), 0, input); err != nil {
				b.Fatal(err)
			}
		}
		perOp(b)
	})

	b.Run("adapter", func(b *testing.B) {
		a, _ := oaAdapter(b, Config{BaseURL: "http://127.0.0.1:9/v1"}, task)
		b.ReportAllocs()
		for b.Loop() {
			t, parts, err := a.render(input)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := a.w.body(t, ModeJSONSchema, parts); err != nil {
				b.Fatal(err)
			}
			if _, _, f := a.w.reply(reply, ModeJSONSchema); f != nil {
				b.Fatal(f)
			}
		}
		perOp(b)
	})
}

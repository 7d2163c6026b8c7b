package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// literalBody is a body without artifacts.
func literalBody(b []byte) *requestBody {
	return &requestBody{segs: []segment{{json: b}}, size: int64(len(b))}
}

// bodyBytes reads a whole body, checking it is as long as its Content-Length.
func bodyBytes(t testing.TB, b *requestBody) []byte {
	t.Helper()
	r, f := b.open()
	if f != nil {
		t.Fatal(f)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != b.size {
		t.Fatalf("the body is %d bytes, its Content-Length %d", len(data), b.size)
	}
	return data
}

// wholeBody is the request body as the adapters built it before bodies were streamed
// (commit ae01cc4): every artifact read whole, base64-encoded into a string, and the request
// marshalled at once. It is kept, trimmed to the successful paths, as the reference the
// streamed bodies must match byte for byte.
func wholeBody(t *testing.T, kind Kind, task *Task, mode string, parts []Part) []byte {
	t.Helper()
	b64 := base64.StdEncoding.EncodeToString
	data := func(p Part) []byte {
		d, err := os.ReadFile(p.Path)
		if err != nil {
			t.Fatal(err)
		}
		if m := mediaType(p.Path, d); m != p.MIME {
			t.Fatalf("%s: sniffed %s from its head, %s from the whole file", p.Name, p.MIME, m)
		}
		return d
	}
	dataURL := func(p Part) string { return "data:" + p.MIME + ";base64," + b64(data(p)) }
	var req map[string]any
	system := task.Prompt
	if kind == KindOpenAI {
		content := make([]oaPart, len(parts))
		for i, p := range parts {
			switch p.Kind {
			case "text":
				content[i] = oaPart{Type: "text", Text: p.Text}
			case "image":
				content[i] = oaPart{Type: "image_url", ImageURL: &oaImageURL{URL: dataURL(p)}}
			case "audio":
				content[i] = oaPart{Type: "input_audio", InputAudio: &oaAudio{Data: b64(data(p)), Format: oaAudioFormats[p.MIME]}}
			case "document":
				content[i] = oaPart{Type: "file", File: &oaFile{Filename: p.Name, FileData: dataURL(p)}}
			}
		}
		req = map[string]any{"model": task.System.Model}
		if mode == ModeJSONSchema {
			req["response_format"] = map[string]any{
				"type":        "json_schema",
				"json_schema": map[string]any{"name": schemaName, "strict": true, "schema": JSONSchema(task.Output)},
			}
		} else {
			req["response_format"] = map[string]any{"type": "json_object"}
			schema, _ := schemaText(task)
			if system != "" {
				system += "\n\n"
			}
			system += "Answer with one JSON object that matches this JSON Schema: " + schema
		}
		messages := make([]oaMessage, 0, 2)
		if system != "" {
			messages = append(messages, oaMessage{Role: "system", Content: system})
		}
		req["messages"] = append(messages, oaMessage{Role: "user", Content: content})
		req = withParameters(req, task.System.Parameters)
	} else {
		source := func(p Part) map[string]any {
			return map[string]any{"type": "base64", "media_type": p.MIME, "data": b64(data(p))}
		}
		content := make([]any, 0, len(parts))
		for _, p := range parts {
			switch {
			case p.Kind == "text":
				content = append(content, map[string]any{"type": "text", "text": p.Text})
			case p.MIME == "text/plain":
				content = append(content, map[string]any{"type": "document", "source": map[string]any{"type": "text", "media_type": "text/plain", "data": string(data(p))}})
			default:
				content = append(content, map[string]any{"type": p.Kind, "source": source(p)})
			}
		}
		req = map[string]any{
			"model":    task.System.Model,
			"messages": []any{map[string]any{"role": "user", "content": content}},
		}
		schema := JSONSchema(task.Output)
		if mode == ModeJSONMode {
			b, _ := json.Marshal(schema)
			if system != "" {
				system += "\n\n"
			}
			system += "Answer with one JSON object that matches this JSON Schema: " + string(b)
		} else {
			req["tools"] = []any{map[string]any{"name": schemaName, "description": "Record the answer.", "input_schema": schema}}
			req["tool_choice"] = map[string]any{"type": "tool", "name": schemaName}
		}
		if system != "" {
			req["system"] = system
		}
		req = withParameters(req, task.System.Parameters)
		if _, set := req["max_tokens"]; !set {
			req["max_tokens"] = anthropicMaxTokens
		}
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// streamFiles writes artifacts of every kind and of sizes around the encoder's chunks (a
// base64 quantum split, a rune split) into dir: "scan.png", "noext" (a PNG known by its
// bytes only), "call.wav", "terms.pdf" and "notes.txt" (UTF-8 with runes of every width,
// HTML characters, controls and U+2028, which encoding/json escapes).
func streamFiles(t *testing.T, dir string, size int) map[string]string {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(size), 11))
	binary := func(head string) []byte {
		b := []byte(head)
		for len(b) < size {
			b = append(b, byte(rng.Uint32()))
		}
		return b[:max(size, len(head))]
	}
	runes := []rune("aZ09 é€😀<>&\"\\\n\t\x01\u2028\u2029\x7f\u00a0")
	var text []byte
	for len(text) < size {
		text = utf8.AppendRune(text, runes[rng.IntN(len(runes))])
	}
	files := map[string][]byte{
		"scan.png":  binary("\x89PNG\r\n\x1a\n"),
		"noext":     binary("\x89PNG\r\n\x1a\n"),
		"call.wav":  binary("RIFF\x00\x00\x00\x00WAVEfmt "),
		"terms.pdf": binary("%PDF-1.7\n"),
		"notes.txt": text,
	}
	paths := map[string]string{}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// streamTask is a task with every artifact the provider takes, and the input naming the
// files: OpenAI takes audio, Anthropic does not.
func streamTask(kind Kind, files map[string]string) (Task, map[string]any) {
	fields := []ir.Field{
		{Name: "question", Type: ir.TypeString},
		{Name: "scan", Type: ir.TypeImage},
		{Name: "sniffed", Type: ir.TypeImage},
		{Name: "terms", Type: ir.TypeDocument},
		{Name: "notes", Type: ir.TypeDocument},
		{Name: "pages", Type: ir.TypeInt},
	}
	input := map[string]any{
		"question": "Total <b>&</b> tax? \u2028 é",
		"scan":     files["scan.png"],
		"sniffed":  files["noext"],
		"terms":    files["terms.pdf"],
		"notes":    files["notes.txt"],
		"pages":    json.Number("3"),
	}
	if kind == KindOpenAI {
		fields = append(fields, ir.Field{Name: "call", Type: ir.TypeAudio})
		input["call"] = files["call.wav"]
	}
	return Task{
		System: ir.AISystem{Type: ir.SystemModel, Provider: "p", Model: "m-1", Parameters: map[string]any{
			"temperature": 0.2, "stop": []any{"<END>"}, "metadata": map[string]any{"note": "a & b \u2028"},
		}},
		Input:  ir.Field{Type: ir.TypeObject, Fields: fields},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "total", Type: ir.TypeFloat}, {Name: "tag", Type: ir.TypeEnum, Values: []string{"a<b", "c"}}}},
		Prompt: "You read <invoices> & receipts.",
	}, input
}

func wireOf(kind Kind) wire {
	if kind == KindOpenAI {
		return openAI{}
	}
	return anthropic{}
}

// TestHardeningStreamedBodyIdentical (issue 11, finding 5: artifacts were read whole into
// memory): the streamed body is byte for byte the body the adapters marshalled whole, for
// both providers, both structured-output modes, and artifacts of each kind (png image,
// a PNG known by its bytes, wav audio, pdf and text documents) of sizes around the
// encoder's chunks; and its length is its Content-Length.
func TestHardeningStreamedBodyIdentical(t *testing.T) {
	for _, size := range []int{0, 1, 2, 3, 23, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 2} {
		files := streamFiles(t, t.TempDir(), size)
		for _, kind := range []Kind{KindOpenAI, KindAnthropic} {
			for _, mode := range []string{ModeJSONSchema, ModeJSONMode} {
				task, input := streamTask(kind, files)
				parts, err := Render(task.Input, input)
				if err != nil {
					t.Fatal(err)
				}
				body, err := wireOf(kind).body(&task, mode, parts)
				if err != nil {
					t.Fatalf("%s %s: %v", kind, mode, err)
				}
				got, want := bodyBytes(t, body), wholeBody(t, kind, &task, mode, parts)
				if !bytes.Equal(got, want) {
					at := 0
					for at < min(len(got), len(want)) && got[at] == want[at] {
						at++
					}
					t.Errorf("%s %s, %d-byte files: the streamed body differs from the whole one at byte %d of %d/%d:\n got …%.80s\nwant …%.80s",
						kind, mode, size, at, len(got), len(want), got[at:], want[at:])
				}
			}
		}
	}
}

// streamServer is a provider on loopback that reads each request's whole body and records
// it with its Content-Length, answering the i-th request with status[i] (the last again
// after) and reply for a 2xx.
type streamServer struct {
	*httptest.Server
	mu    sync.Mutex
	calls []streamCall
}

type streamCall struct {
	path          string
	contentLength int64
	chunked       bool
	body          []byte
	err           error // reading the body
}

// during, if set, is called with the i-th request's body before the server reads the rest,
// after with its number once the body is read.
func newStreamServer(t *testing.T, reply string, statuses []int, during func(i int, r io.Reader), after func(i int)) *streamServer {
	s := &streamServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		i := len(s.calls)
		s.calls = append(s.calls, streamCall{})
		s.mu.Unlock()
		var body bytes.Buffer
		src := io.TeeReader(r.Body, &body)
		if during != nil {
			during(i, src)
		}
		_, err := io.Copy(io.Discard, src)
		if after != nil {
			after(i)
		}
		s.mu.Lock()
		s.calls[i] = streamCall{path: r.URL.Path, contentLength: r.ContentLength, chunked: len(r.TransferEncoding) > 0, body: body.Bytes(), err: err}
		s.mu.Unlock()
		status := statuses[min(i, len(statuses)-1)]
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status == http.StatusOK {
			io.WriteString(w, reply)
		} else {
			io.WriteString(w, `{"error":{"type":"api_error","message":"overloaded"}}`)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *streamServer) seen() []streamCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]streamCall(nil), s.calls...)
}

// streamAdapter is an adapter of kind against url, without waits between retries.
func streamAdapter(t *testing.T, kind Kind, url string, task Task, mode string) *modelAdapter {
	t.Helper()
	m := newModel(t, Config{Name: "p", Kind: kind, BaseURL: url, StructuredOutput: mode, MaxRetries: DefaultMaxRetries}, task, "")
	m.c.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	return m
}

func streamReply(kind Kind) string {
	if kind == KindOpenAI {
		return oaCompletion(`{"total": 1.5, "tag": "c"}`, "stop")
	}
	return anthReply("end_turn", anthText(`{"total": 1.5, "tag": "c"}`))
}

// TestHardeningStreamedBodyRetry: against a provider on loopback that reads every body
// whole, each request goes with its exact Content-Length (not chunked), holds the files
// the documented way (OpenAI: data: URLs in image_url.url and file.file_data, bare base64
// in input_audio.data; Anthropic: base64 sources, a text source for plain text), and a
// retry after a 500 sends the same bytes again, which are those the whole body had.
func TestHardeningStreamedBodyRetry(t *testing.T) {
	files := streamFiles(t, t.TempDir(), 1<<20+1)
	raw := map[string][]byte{}
	for name, p := range files {
		raw[name], _ = os.ReadFile(p)
	}
	b64 := func(name string) string { return base64.StdEncoding.EncodeToString(raw[name]) }
	for _, kind := range []Kind{KindOpenAI, KindAnthropic} {
		for _, mode := range []string{ModeJSONSchema, ModeJSONMode} {
			t.Run(string(kind)+"/"+mode, func(t *testing.T) {
				task, input := streamTask(kind, files)
				srv := newStreamServer(t, streamReply(kind), []int{500, 200}, nil, nil)
				a := streamAdapter(t, kind, srv.URL, task, mode)
				out, err := a.Invoke(context.Background(), 0, input)
				if err != nil {
					t.Fatalf("Invoke: %v", err)
				}
				if got := mustJSON(out.(*engine.Answer).Output); got != `{"tag":"c","total":1.5}` {
					t.Errorf("output %s", got)
				}
				calls := srv.seen()
				if len(calls) != 2 {
					t.Fatalf("%d requests, want 2 (a 500, then the retry)", len(calls))
				}
				parts, err := Render(task.Input, input)
				if err != nil {
					t.Fatal(err)
				}
				want := wholeBody(t, kind, &task, mode, parts)
				for i, c := range calls {
					if c.err != nil || c.chunked || c.contentLength != int64(len(c.body)) || !bytes.Equal(c.body, want) {
						t.Errorf("request %d: read error %v, chunked %v, Content-Length %d for %d bytes; equal to the whole body: %v",
							i, c.err, c.chunked, c.contentLength, len(c.body), bytes.Equal(c.body, want))
					}
				}
				var req struct {
					Messages []struct {
						Role    string          `json:"role"`
						Content json.RawMessage `json:"content"`
					} `json:"messages"`
				}
				if err := json.Unmarshal(calls[1].body, &req); err != nil {
					t.Fatal(err)
				}
				user := string(req.Messages[len(req.Messages)-1].Content)
				var blocks []string
				if kind == KindOpenAI {
					blocks = []string{
						`{"type":"image_url","image_url":{"url":"data:image/png;base64,` + b64("scan.png") + `"}}`,
						`{"type":"image_url","image_url":{"url":"data:image/png;base64,` + b64("noext") + `"}}`,
						`{"type":"file","file":{"filename":"terms.pdf","file_data":"data:application/pdf;base64,` + b64("terms.pdf") + `"}}`,
						`{"type":"file","file":{"filename":"notes.txt","file_data":"data:text/plain;base64,` + b64("notes.txt") + `"}}`,
						`{"type":"input_audio","input_audio":{"data":"` + b64("call.wav") + `","format":"wav"}}`,
					}
				} else {
					text, _ := json.Marshal(string(raw["notes.txt"]))
					blocks = []string{
						`{"source":{"data":"` + b64("scan.png") + `","media_type":"image/png","type":"base64"},"type":"image"}`,
						`{"source":{"data":"` + b64("noext") + `","media_type":"image/png","type":"base64"},"type":"image"}`,
						`{"source":{"data":"` + b64("terms.pdf") + `","media_type":"application/pdf","type":"base64"},"type":"document"}`,
						`{"source":{"data":` + string(text) + `,"media_type":"text/plain","type":"text"},"type":"document"}`,
					}
				}
				for _, b := range blocks {
					if !strings.Contains(user, b) {
						t.Errorf("the user message lacks the block %.120s…", b)
					}
				}
			})
		}
	}
}

// TestHardeningStreamedBodyFileChanged: the body's length is counted from the files'
// sizes when it is built, so a file that changes before or while its request is sent fails
// the request with an execution_error (adapter_error) saying so, and is not retried: no
// request goes out for a file that changed before, and one that changes while it is sent
// leaves the provider a body shorter than its Content-Length, never a wrong whole body.
func TestHardeningStreamedBodyFileChanged(t *testing.T) {
	type change struct {
		name    string
		size    int
		between func(path string) // after the first request, answered 500
		during  func(path string) // while the first request's body is read
		want    string
	}
	grow := func(p string) {
		f, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString("more")
		f.Close()
	}
	changes := []change{
		{name: "grown before the retry", size: 1000, between: grow, want: "is 1004 bytes, not the 1000 it was"},
		{name: "truncated before the retry", size: 1000, between: func(p string) { os.Truncate(p, 10) }, want: "is 10 bytes, not the 1000 it was"},
		{name: "replaced before the retry", size: 1000, between: func(p string) {
			other := p + ".new"
			os.WriteFile(other, make([]byte, 1000), 0o644)
			os.Rename(other, p)
		}, want: "document terms.pdf for terms changed while the run goes: it is another file now"},
		{name: "removed before the retry", size: 1000, between: func(p string) { os.Remove(p) }, want: "reading terms.pdf for terms: no such file or directory"},
		{name: "a FIFO before the retry", size: 1000, between: func(p string) {
			os.Remove(p)
			syscall.Mkfifo(p, 0o644)
		}, want: "document terms.pdf for terms is no longer a regular file"},
		{name: "truncated while sent", size: 16 << 20, during: func(p string) { os.Truncate(p, 1<<20) }, want: "not the 16777216 it had"},
	}
	for _, kind := range []Kind{KindOpenAI, KindAnthropic} {
		for _, c := range changes {
			t.Run(string(kind)+"/"+c.name, func(t *testing.T) {
				dir := t.TempDir()
				files := streamFiles(t, dir, 100)
				pdf := filepath.Join(dir, "terms.pdf")
				data := make([]byte, c.size)
				copy(data, "%PDF-1.7\n")
				if err := os.WriteFile(pdf, data, 0o644); err != nil {
					t.Fatal(err)
				}
				task, input := streamTask(kind, files)
				var during func(int, io.Reader)
				var after func(int)
				statuses := []int{200}
				if c.between != nil {
					statuses = []int{500, 200}
					after = func(i int) {
						if i == 0 {
							c.between(pdf)
						}
					}
				} else {
					during = func(_ int, r io.Reader) {
						io.CopyN(io.Discard, r, 64<<10)
						c.during(pdf)
					}
				}
				srv := newStreamServer(t, streamReply(kind), statuses, during, after)
				a := streamAdapter(t, kind, srv.URL, task, ModeJSONSchema)
				done := make(chan error, 1)
				go func() {
					_, err := a.Invoke(context.Background(), 0, input)
					done <- err
				}()
				var err error
				select {
				case err = <-done:
				case <-time.After(20 * time.Second):
					t.Fatal("Invoke hangs")
				}
				var f *engine.Failure
				if !errors.As(err, &f) || f.Status != engine.StatusExecutionError || f.Code != diag.AdapterError || !strings.Contains(f.Message, c.want) {
					t.Fatalf("error %v, want an execution_error adapter_error saying %q", err, c.want)
				}
				if strings.Contains(f.Message, dir) {
					t.Errorf("the message shows the artifact's absolute path: %q", f.Message)
				}
				srv.Close() // waits for the handler
				calls := srv.seen()
				if len(calls) != 1 {
					t.Errorf("%d requests, want 1: a changed file is not sent, nor retried", len(calls))
				}
				if c.during != nil && len(calls) > 0 {
					if got := calls[0]; got.err == nil || int64(len(got.body)) >= got.contentLength {
						t.Errorf("the provider read %d of %d bytes (error %v): want a body cut short", len(got.body), got.contentLength, got.err)
					}
				}
			})
		}
	}
}

// TestHardeningStreamedBodyReader: a file that grows, shrinks or stops being UTF-8 text
// while its body is read stops the reader with the failure, before the bytes that would
// differ; a closed reader reads nothing more and holds no file.
func TestHardeningStreamedBodyReader(t *testing.T) {
	dir := t.TempDir()
	build := func(name string, data []byte, text bool) *requestBody {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		part := Part{Kind: "document", MIME: "text/plain", Name: name, Label: "doc", Path: p, Size: int64(len(data))}
		media := newBodyBuilder()
		var v string
		if text {
			var f *engine.Failure
			if v, f = media.text(part); f != nil {
				t.Fatal(f)
			}
		} else {
			v = media.base64("data:text/plain;base64,", part)
		}
		b, err := media.finish(map[string]any{"data": v})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	text := bytes.Repeat([]byte("é€😀<>&\n"), 3*chunkSize/16)
	tests := []struct {
		name   string
		text   bool
		change func(p string)
		want   string
	}{
		{"grows", false, func(p string) {
			f, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			f.WriteString("x")
			f.Close()
		}, "grew past"},
		{"shrinks", false, func(p string) { os.Truncate(p, chunkSize+5) }, "ended after"},
		{"shrinks (text)", true, func(p string) { os.Truncate(p, chunkSize+5) }, "ended after"},
		{"is no longer UTF-8", true, func(p string) {
			f, _ := os.OpenFile(p, os.O_WRONLY, 0)
			f.WriteAt([]byte{0xff}, int64(len(text)-1))
			f.Close()
		}, "is no longer UTF-8 text"},
		{"has other text of the same size", true, func(p string) {
			f, _ := os.OpenFile(p, os.O_WRONLY, 0)
			f.WriteAt([]byte("<<<<"), int64(len(text)-4)) // < is 6 bytes of JSON, 😀 4
			f.Close()
		}, "no longer has the text it had"},
	}
	for i, tt := range tests {
		name := "doc" + strconv.Itoa(i) + ".txt"
		b := build(name, text, tt.text)
		r, f := b.open()
		if f != nil {
			t.Fatal(f)
		}
		first := make([]byte, 100)
		if _, err := io.ReadFull(r, first); err != nil {
			t.Fatal(err)
		}
		tt.change(filepath.Join(dir, name))
		rest, err := io.ReadAll(r)
		var fail *engine.Failure
		if !errors.As(err, &fail) || fail.Code != diag.AdapterError || !strings.Contains(fail.Message, tt.want) {
			t.Errorf("%s: read %d more bytes, error %v; want a failure saying %q", tt.name, len(rest), err, tt.want)
		}
		if n := int64(len(first) + len(rest)); n >= b.size {
			t.Errorf("%s: %d bytes read of %d: the body should stop short", tt.name, n, b.size)
		}
		r.Close()
		if _, err := r.Read(first); err == nil {
			t.Errorf("%s: a closed reader reads on", tt.name)
		}
		for _, f := range r.files {
			if f != nil {
				t.Errorf("%s: a closed reader holds a file", tt.name)
			}
		}
	}
}

// TestHardeningStreamedBodyMemory (issue 11, finding 5): one request with a 32 MiB
// document, the largest an example may carry, peaks at no more than 40 MiB of resident
// memory for the whole process (BenchmarkArtifactMemory's child); built whole, the body
// took 256 MiB.
func TestHardeningStreamedBodyMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc/self/status (Linux)")
	}
	m := measureArtifactMemory(t, 32)
	if m.outcome != "answered" {
		t.Fatalf("the example was not answered: %s", m.outcome)
	}
	t.Logf("32 MiB document: peak %.1f MiB, baseline %.1f MiB", m.peak, m.base)
	if m.peak > 40 {
		t.Errorf("peak %.1f MiB (baseline %.1f MiB), want at most 40 MiB", m.peak, m.base)
	}
}

package provider

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
	"github.com/benchy-eval/benchy/ir"
)

// openAI speaks Chat Completions, the protocol of OpenAI and of the servers that copy it
// (vLLM, Ollama, llama.cpp, LM Studio). secrets are masked in the snippets of replies its
// messages quote; price, the model's (nil: none), gives each reply its cost.
type openAI struct {
	secrets *redact.Secrets
	price   *Price
}

func (openAI) endpoint() string { return "/chat/completions" }

func (openAI) headers(key string) http.Header {
	h := http.Header{"Accept": {"application/json"}}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	return h
}

// oaMessage is one chat message: Content is a string (system) or a list of parts (user).
type oaMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// oaPart is one content part of a user message; Type says which other field is set.
type oaPart struct {
	Type       string      `json:"type"`
	Text       string      `json:"text,omitempty"`
	ImageURL   *oaImageURL `json:"image_url,omitempty"`
	InputAudio *oaAudio    `json:"input_audio,omitempty"`
	File       *oaFile     `json:"file,omitempty"`
}

type oaImageURL struct {
	URL string `json:"url"`
}

type oaAudio struct {
	Data   string `json:"data"`
	Format string `json:"format"`
}

type oaFile struct {
	Filename string `json:"filename"`
	FileData string `json:"file_data"`
}

// oaAudioFormats are the audio types Chat Completions takes, by media type.
var oaAudioFormats = map[string]string{
	"audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav",
	"audio/mpeg": "mp3", "audio/mp3": "mp3",
}

// body builds the request: the prompt file as the system message, the rendered input as
// the user message's parts, the output schema as response_format, and ai-system.parameters
// beside them. The request is a map so that encoding/json writes its keys sorted. Media
// parts go base64-encoded, streamed from their files.
func (openAI) body(t *Task, mode string, parts []Part) (*requestBody, error) {
	media := newBodyBuilder()
	content := make([]oaPart, len(parts))
	for i, p := range parts {
		switch p.Kind {
		case "text":
			content[i] = oaPart{Type: "text", Text: p.Text}
		case "image":
			content[i] = oaPart{Type: "image_url", ImageURL: &oaImageURL{URL: media.base64(dataURLHead(p), p)}}
		case "audio":
			format, ok := oaAudioFormats[p.MIME]
			if !ok {
				return nil, engine.ExecutionError(diag.AdapterError, "%s is %s audio; the OpenAI protocol takes wav or mp3 audio", p.Name, p.MIME)
			}
			content[i] = oaPart{Type: "input_audio", InputAudio: &oaAudio{Data: media.base64("", p), Format: format}}
		case "document":
			content[i] = oaPart{Type: "file", File: &oaFile{Filename: p.Name, FileData: media.base64(dataURLHead(p), p)}}
		default:
			return nil, engine.ExecutionError(diag.AdapterError, "the OpenAI protocol cannot carry a %s input", p.Kind)
		}
	}
	system := t.Prompt
	fr, err := frameOf(t, mode)
	if err != nil {
		return nil, err
	}
	if fr.schemaText != "" {
		if system != "" {
			system += "\n\n"
		}
		system += "Answer with one JSON object that matches this JSON Schema: " + fr.schemaText
	}
	user, err := json.Marshal(oaMessage{Role: "user", Content: content})
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "encoding the request: %v", err)
	}
	var sys []byte // the system message and its comma
	switch {
	case system == "":
	case t.Prompt == fr.prompt:
		sys = fr.system
	default:
		if sys, err = systemMessage(system); err != nil {
			return nil, err
		}
	}
	return media.cut(slices.Concat(fr.head, []byte("["), sys, user, []byte("]"), fr.tail))
}

// systemMessage is the system message's JSON, and the comma after it.
func systemMessage(text string) ([]byte, error) {
	data, err := json.Marshal(oaMessage{Role: "system", Content: text})
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "encoding the request: %v", err)
	}
	return append(data, ','), nil
}

// oaRequestFrame is the request object but its messages, which go where the value messages
// stands, as a map so that encoding/json writes its keys sorted, ai-system.parameters
// merged in.
func oaRequestFrame(t *Task, mode string, messages any) (map[string]any, error) {
	req := map[string]any{"model": t.System.Model, "messages": messages}
	switch mode {
	case ModeJSONSchema:
		req["response_format"] = map[string]any{
			"type":        "json_schema",
			"json_schema": map[string]any{"name": schemaName, "strict": true, "schema": JSONSchema(t.Output)},
		}
	case ModeJSONMode:
		req["response_format"] = map[string]any{"type": "json_object"}
	default:
		return nil, engine.ExecutionError(diag.AdapterError, "unknown structured output mode %q (want %s or %s)", mode, ModeJSONSchema, ModeJSONMode)
	}
	return withParameters(req, t.System.Parameters), nil
}

// A frame is a request's JSON around its messages: every request of a run has the same
// model, response format and parameters, and encoding them (the output schema, a map of
// maps, sorted) took most of a body's time: BenchmarkOpenAIPath, a body encoded whole
// against one framed, 14-42 µs and 73 allocations against 7-12 µs and 14 (the same runs
// side by side on a loaded machine; 0.2 of bench/throughput's 7 s of CPU went to bodies
// framed, 0.9 encoded whole). Frames are kept by what they are made of: the model, the
// mode, and the very output fields and parameters map of the compiled benchmark (a
// template's copy of a Task shares them), which nothing changes once compiled.
type frame struct {
	head, tail []byte // the JSON before and after the messages' value
	schemaText string // JSON mode: the output schema, for the system message
	// system is the system message of the prompt of the task the frame was made for, and
	// the comma after it: a template that writes the system part for each example has
	// other prompts, encoded each time.
	prompt string
	system []byte
	// params is the parameters map the key names by its address: held here, it keeps that
	// address from being another map's while the frame is kept.
	params map[string]any
}

type frameKey struct {
	model, mode      string
	outName, outType string
	fields           *ir.Field // the output's fields: the first, and how many
	values           *string   // an enum output's values
	nfields, nvalues int
	params           uintptr // the parameters map
	nparams          int
}

// frames holds the frames of the tasks seen lately, at most maxFrames: a server runs
// many benchmarks.
var frames struct {
	sync.Mutex
	m map[frameKey]*frame
}

const maxFrames = 256

// frameMarker stands for the messages in the request a frame is cut from: a string no
// model name, schema or parameter holds.
const frameMarker = "benchy-messages-7b0c1d3e9f"

func frameOf(t *Task, mode string) (*frame, error) {
	out := t.Output
	key := frameKey{model: t.System.Model, mode: mode, outName: out.Name, outType: out.Type,
		nfields: len(out.Fields), nvalues: len(out.Values),
		params: reflect.ValueOf(t.System.Parameters).Pointer(), nparams: len(t.System.Parameters)}
	if len(out.Fields) > 0 {
		key.fields = &out.Fields[0]
	}
	if len(out.Values) > 0 {
		key.values = &out.Values[0]
	}
	frames.Lock()
	fr := frames.m[key]
	frames.Unlock()
	if fr != nil {
		return fr, nil
	}
	req, err := oaRequestFrame(t, mode, frameMarker)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(req)
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "encoding the request: %v", err)
	}
	m := []byte(`"` + frameMarker + `"`)
	at := bytes.Index(data, m)
	if at < 0 || bytes.LastIndex(data, m) != at {
		return nil, engine.ExecutionError(diag.AdapterError, "encoding the request: its parameters hold %q", frameMarker)
	}
	fr = &frame{head: data[:at:at], tail: data[at+len(m):], prompt: t.Prompt, params: t.System.Parameters}
	system := t.Prompt
	if mode == ModeJSONMode {
		if fr.schemaText, err = schemaText(t); err != nil {
			return nil, engine.ExecutionError(diag.AdapterError, "encoding the output schema: %v", err)
		}
		if system != "" {
			system += "\n\n"
		}
		system += "Answer with one JSON object that matches this JSON Schema: " + fr.schemaText
	}
	if fr.system, err = systemMessage(system); err != nil {
		return nil, err
	}
	frames.Lock()
	if len(frames.m) >= maxFrames || frames.m == nil {
		frames.m = make(map[frameKey]*frame)
	}
	frames.m[key] = fr
	frames.Unlock()
	return fr, nil
}

// dataURLHead is what comes before a media part's base64 in a data URL.
func dataURLHead(p Part) string {
	return "data:" + p.MIME + ";base64,"
}

// schemaText is the output schema as compact JSON, without HTML escaping, for a prompt.
func schemaText(t *Task) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(JSONSchema(t.Output)); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// oaReply is the part of a chat completion the adapter reads.
type oaReply struct {
	Choices []struct {
		Message struct {
			Content json.RawMessage `json:"content"` // a string, null, or (some servers) a list of parts
			Refusal string          `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     *int `json:"prompt_tokens"` // nil: not reported (usage.unreported)
		CompletionTokens *int `json:"completion_tokens"`
		// PromptTokensDetails.CachedTokens are the prompt tokens read from OpenAI's prompt
		// cache, counted in PromptTokens too.
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

// reply reads the first choice: a refusal, a reply cut off at the token limit or one the
// content filter stopped, and text with no JSON object are invalid_output; the JSON object
// the text holds is the output.
func (o openAI) reply(body []byte, mode string) (any, *engine.Usage, *engine.Failure) {
	if out, usage, f, ok := o.quickReply(body); ok {
		return out, usage, f
	}
	return o.fullReply(body, mode)
}

// fullReply is reply through encoding/json: every shape a server may send, the strict
// check of the whole body apart.
func (o openAI) fullReply(body []byte, _ string) (any, *engine.Usage, *engine.Failure) {
	var r oaReply
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, unreported(), engine.ExecutionError(diag.ProviderError, "the reply is not a chat completion: %s", snippet(o.secrets, body))
	}
	usage := unreported()
	if u := r.Usage; u != nil && reported(u.PromptTokens, u.CompletionTokens) {
		in, out := clampUsage(*u.PromptTokens), clampUsage(*u.CompletionTokens)
		usage = &engine.Usage{InputTokens: in, OutputTokens: out}
		cachedIn := 0
		if d := u.PromptTokensDetails; d != nil {
			cachedIn = min(max(d.CachedTokens, 0), in)
		}
		setCost(usage, o.price, tokens{input: in - cachedIn, cachedInput: cachedIn, output: out})
	}
	if len(r.Choices) == 0 {
		return nil, usage, engine.ExecutionError(diag.ProviderError, "the reply has no choices: %s", snippet(o.secrets, body))
	}
	choice := r.Choices[0]
	if choice.Message.Refusal != "" {
		return nil, usage, engine.InvalidOutput(choice.Message.Refusal, "the model refused to answer")
	}
	content, ok := oaContent(choice.Message.Content)
	if !ok {
		return nil, usage, engine.ExecutionError(diag.ProviderError, "the reply's content is neither text nor text parts: %s", snippet(o.secrets, body))
	}
	switch choice.FinishReason {
	case "length":
		return nil, usage, engine.InvalidOutput(content, "the reply was cut off at the token limit")
	case "content_filter":
		return nil, usage, engine.InvalidOutput(content, "the provider's content filter stopped the reply")
	}
	if err := strictReply(body); err != nil {
		return nil, usage, engine.InvalidOutput(content, "the reply is not strict JSON (RFC 8259): %v; nothing in it is scored", err)
	}
	out, strict, ok := ExtractJSON(content)
	if !ok {
		return nil, usage, engine.InvalidOutput(content, "the reply holds no JSON object")
	}
	if strict != nil {
		return nil, usage, engine.InvalidOutput(out, "the reply's JSON object is not strict JSON (RFC 8259): %v; it is not scored", strict)
	}
	return out, usage, nil
}

// oaContent reads a message's content: a string, null, or a list of text parts joined.
func oaContent(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, true
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), true
}

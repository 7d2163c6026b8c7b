package provider

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
)

// anthropic speaks Anthropic's Messages API. secrets are masked in the snippets of replies
// its messages quote.
type anthropic struct {
	secrets *redact.Secrets
	price   *Price // the model's, nil for none: each reply's cost
}

// anthropicVersion is the API version the request and reply shapes below follow.
const anthropicVersion = "2023-06-01"

// anthropicMaxTokens is max_tokens when ai-system.parameters does not set it: the Messages
// API requires the field.
const anthropicMaxTokens = 4096

// anthropicImageTypes are the image media types the Messages API takes.
var anthropicImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

func (anthropic) endpoint() string { return "/v1/messages" }

func (anthropic) headers(key string) http.Header {
	h := http.Header{}
	if key != "" {
		h.Set("x-api-key", key)
	}
	h.Set("anthropic-version", anthropicVersion)
	return h
}

// body builds a Messages request: the prompt file as the system prompt, the input as one
// user message, and the output schema as a single forced tool (or, in JSON mode, as an
// instruction in the system prompt). Map keys are encoded sorted, so the bytes are the same
// for the same example. Media parts are streamed from their files.
func (anthropic) body(t *Task, mode string, parts []Part) (*requestBody, error) {
	media := newBodyBuilder()
	content := make([]any, 0, len(parts))
	for _, p := range parts {
		c, f := anthropicPart(p, media)
		if f != nil {
			return nil, f
		}
		content = append(content, c)
	}
	req := map[string]any{
		"model":    t.System.Model,
		"messages": []any{map[string]any{"role": "user", "content": content}},
	}
	system := t.Prompt
	schema := JSONSchema(t.Output)
	if mode == ModeJSONMode {
		b, err := json.Marshal(schema)
		if err != nil {
			return nil, engine.ExecutionError(diag.AdapterError, "encoding the output schema: %v", err)
		}
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
	req = withParameters(req, t.System.Parameters)
	if _, set := req["max_tokens"]; !set {
		req["max_tokens"] = anthropicMaxTokens
	}
	return media.finish(req)
}

// anthropicPart is one content block of the user message, or the reason the Messages API
// cannot take the part.
func anthropicPart(p Part, media *bodyBuilder) (any, *engine.Failure) {
	switch p.Kind {
	case "text":
		return map[string]any{"type": "text", "text": p.Text}, nil
	case "image":
		if !anthropicImageTypes[p.MIME] {
			return nil, engine.ExecutionError(diag.AdapterError, "image %s is %s: the Anthropic Messages API takes JPEG, PNG, GIF and WebP images only", p.Name, p.MIME)
		}
		return map[string]any{"type": "image", "source": anthropicBase64(p, media)}, nil
	case "document":
		switch p.MIME {
		case "application/pdf":
			return map[string]any{"type": "document", "source": anthropicBase64(p, media)}, nil
		case "text/plain":
			text, f := media.text(p) // "document x is not UTF-8 text" when it is not
			if f != nil {
				return nil, f
			}
			return map[string]any{"type": "document", "source": map[string]any{"type": "text", "media_type": "text/plain", "data": text}}, nil
		}
		return nil, engine.ExecutionError(diag.AdapterError, "document %s is %s: the Anthropic Messages API takes PDF and plain-text documents only", p.Name, p.MIME)
	case "audio":
		return nil, engine.ExecutionError(diag.AdapterError, "audio %s: the Anthropic Messages API takes no audio input", p.Name)
	}
	return nil, engine.ExecutionError(diag.AdapterError, "input part of kind %q: the Anthropic Messages API cannot take it", p.Kind)
}

func anthropicBase64(p Part, media *bodyBuilder) map[string]any {
	return map[string]any{"type": "base64", "media_type": p.MIME, "data": media.base64("", p)}
}

// anthropicReply is the part of a Messages reply the adapter reads.
type anthropicReply struct {
	Content []struct {
		Type  string `json:"type"`
		Text  string `json:"text"`
		Name  string `json:"name"`
		Input any    `json:"input"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      *struct {
		InputTokens              *int `json:"input_tokens"` // nil: not reported (usage.unreported)
		OutputTokens             *int `json:"output_tokens"`
		CacheCreationInputTokens int  `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int  `json:"cache_read_input_tokens"`
	} `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// reply reads a Messages reply. In tool mode the forced tool's input is the output; a reply
// without the tool call falls back to the JSON object its text holds. Input tokens count
// the prompt cache's reads and writes too, since the API reports those apart.
func (a anthropic) reply(body []byte, mode string) (any, *engine.Usage, *engine.Failure) {
	var r anthropicReply
	if err := decodeKeepingNumbers(body, &r); err != nil {
		return nil, unreported(), engine.ExecutionError(diag.ProviderError, "the reply is not a Messages response: %s", snippet(a.secrets, body))
	}
	usage := unreported()
	if u := r.Usage; u != nil && reported(u.InputTokens, u.OutputTokens) && u.CacheCreationInputTokens >= 0 && u.CacheReadInputTokens >= 0 {
		in, written, read := clampUsage(*u.InputTokens), clampUsage(u.CacheCreationInputTokens), clampUsage(u.CacheReadInputTokens)
		out := clampUsage(*u.OutputTokens)
		usage = &engine.Usage{InputTokens: in + written + read, OutputTokens: out}
		// Cache writes are priced as other input tokens: Anthropic's surcharge on them is
		// not in the runtime file's prices.
		setCost(usage, a.price, tokens{input: in + written, cachedInput: read, output: out})
	}
	if r.Error != nil {
		return nil, usage, engine.ExecutionError(diag.ProviderError, "%s: %s", r.Error.Type, r.Error.Message)
	}
	if r.Content == nil {
		return nil, usage, engine.ExecutionError(diag.ProviderError, "the reply has no content: %s", snippet(a.secrets, body))
	}
	var text strings.Builder
	var input any
	called := false
	for _, c := range r.Content {
		switch {
		case c.Type == "text":
			text.WriteString(c.Text)
		case c.Type == "tool_use" && c.Name == schemaName && !called:
			input, called = c.Input, true
		}
	}
	switch r.StopReason {
	case "max_tokens":
		var prediction any
		switch {
		case called:
			prediction = input
		case text.Len() > 0:
			prediction = text.String()
		}
		return nil, usage, engine.InvalidOutput(prediction, "the reply was cut off at the token limit (stop_reason max_tokens)")
	case "refusal":
		var prediction any
		if text.Len() > 0 {
			prediction = text.String()
		}
		return nil, usage, engine.InvalidOutput(prediction, "the model refused to answer (stop_reason refusal)")
	}
	if err := strictReply(body); err != nil {
		return nil, usage, engine.InvalidOutput(text.String(), "the reply is not strict JSON (RFC 8259): %v; nothing in it is scored", err)
	}
	if mode != ModeJSONMode && called {
		if _, ok := input.(map[string]any); !ok {
			return nil, usage, engine.InvalidOutput(input, "the %s tool's input is not a JSON object", schemaName)
		}
		return input, usage, nil
	}
	if v, strict, ok := ExtractJSON(text.String()); ok {
		if strict != nil {
			return nil, usage, engine.InvalidOutput(v, "the reply's JSON object is not strict JSON (RFC 8259): %v; it is not scored", strict)
		}
		return v, usage, nil
	}
	return nil, usage, engine.InvalidOutput(text.String(), "the reply holds no JSON object")
}

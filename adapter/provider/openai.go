package provider

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
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
	req := map[string]any{"model": t.System.Model}
	switch mode {
	case ModeJSONSchema:
		req["response_format"] = map[string]any{
			"type":        "json_schema",
			"json_schema": map[string]any{"name": schemaName, "strict": true, "schema": JSONSchema(t.Output)},
		}
	case ModeJSONMode:
		req["response_format"] = map[string]any{"type": "json_object"}
		schema, err := schemaText(t)
		if err != nil {
			return nil, engine.ExecutionError(diag.AdapterError, "encoding the output schema: %v", err)
		}
		if system != "" {
			system += "\n\n"
		}
		system += "Answer with one JSON object that matches this JSON Schema: " + schema
	default:
		return nil, engine.ExecutionError(diag.AdapterError, "unknown structured output mode %q (want %s or %s)", mode, ModeJSONSchema, ModeJSONMode)
	}
	messages := make([]oaMessage, 0, 2)
	if system != "" {
		messages = append(messages, oaMessage{Role: "system", Content: system})
	}
	req["messages"] = append(messages, oaMessage{Role: "user", Content: content})
	return media.finish(withParameters(req, t.System.Parameters))
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
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
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
func (o openAI) reply(body []byte, _ string) (any, *engine.Usage, *engine.Failure) {
	var r oaReply
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, nil, engine.ExecutionError(diag.ProviderError, "the reply is not a chat completion: %s", snippet(o.secrets, body))
	}
	var usage *engine.Usage
	if r.Usage != nil {
		usage = &engine.Usage{InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens}
		cachedIn := 0
		if d := r.Usage.PromptTokensDetails; d != nil {
			cachedIn = min(max(d.CachedTokens, 0), r.Usage.PromptTokens)
		}
		setCost(usage, o.price, tokens{input: r.Usage.PromptTokens - cachedIn, cachedInput: cachedIn, output: r.Usage.CompletionTokens})
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

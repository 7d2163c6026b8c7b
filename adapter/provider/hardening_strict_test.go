package provider

import (
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestHardeningStrictProviderReplies: a provider reply, in the documented Chat Completions
// and Messages shapes, whose JSON breaks RFC 8259's rules (in the envelope, in the model's
// JSON text, in a tool's input) is invalid_output, never a repaired and scored value.
func TestHardeningStrictProviderReplies(t *testing.T) {
	oa := func(content string) []byte {
		return []byte(`{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":` + content + `},"finish_reason":"stop"}]}`)
	}
	an := func(content string) []byte {
		return []byte(`{"id":"m","type":"message","role":"assistant","content":[` + content + `],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}
	tests := []struct {
		name string
		p    interface {
			reply([]byte, string) (any, *engine.Usage, *engine.Failure)
		}
		mode string
		body []byte
	}{
		{"openai: a duplicate key in the model's JSON text", openAI{}, ModeJSONSchema, oa(`"{\"label\":\"a\",\"label\":\"b\"}"`)},
		{"openai: a lone surrogate escape in the model's JSON text", openAI{}, ModeJSONSchema, oa(`"{\"label\":\"\\ud800\"}"`)},
		{"openai: a lone surrogate escape in the envelope", openAI{}, ModeJSONSchema, oa(`"{\"label\":\"\ud800\"}"`)},
		{"openai: invalid UTF-8 in the envelope", openAI{}, ModeJSONSchema, oa("\"{\\\"label\\\":\\\"caf\xe9\\\"}\"")},
		{"anthropic: a duplicate key in the tool's input", anthropic{}, ModeJSONSchema, an(`{"type":"tool_use","id":"t","name":"` + schemaName + `","input":{"label":"a","label":"b"}}`)},
		{"anthropic: invalid UTF-8 in the tool's input", anthropic{}, ModeJSONSchema, an("{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"" + schemaName + "\",\"input\":{\"label\":\"caf\xe9\"}}")},
		{"anthropic: a duplicate key in the text's JSON", anthropic{}, ModeJSONMode, an(`{"type":"text","text":"{\"label\":\"a\",\"label\":\"b\"}"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _, f := tt.p.reply(tt.body, tt.mode)
			if f == nil {
				t.Fatalf("output %#v accepted", out)
			}
			if f.Status != engine.StatusInvalidOutput {
				t.Errorf("failure %+v, want invalid_output", f)
			}
		})
	}
}

package provider

import (
	"context"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// TestPlainPromptSameBody: a prompt file with no placeholder and no marker line sends, byte
// for byte, the request of the rendering before templates: the file as the system message,
// Render's parts as the user message (built here through the wire's body directly).
func TestPlainPromptSameBody(t *testing.T) {
	prompts := []string{"", "You read invoices.\n", "Answer {\"total\": 1} or {\"a\": {\"b\": 2}}.\n}} stays.", "CRLF\r\nkept\r\n", "---user--- \nnot a marker", "---users---\n", "é ✓ 🎉\n"}
	for _, mode := range []string{ModeJSONSchema, ModeJSONMode} {
		for _, prompt := range prompts {
			task, input := oaTask(t)
			task.Prompt = prompt
			srv := newOAServer(t, oaResponse{body: oaCompletion(`{"total":1,"currency":"EUR","lines":1,"date":"2024-01-01"}`, "stop")})
			a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1", StructuredOutput: mode}, task)
			if _, err := a.Invoke(context.Background(), 0, input); err != nil {
				t.Fatalf("%q: %v", prompt, err)
			}
			parts, err := Render(task.Input, input)
			if err != nil {
				t.Fatal(err)
			}
			want, err := openAI{}.body(&task, mode, parts)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(srv.requests()[0].Raw); got != string(bodyBytes(t, want)) {
				t.Errorf("OpenAI, %s, %q: sent\n%s\nwant\n%s", mode, prompt, got, bodyBytes(t, want))
			}

			atask := anthTask()
			atask.Prompt = prompt
			asrv, calls := anthServer(t, anthStep{status: 200, body: anthReply("tool_use", anthToolUse(`{"answer":"a","total":1}`))})
			if mode == ModeJSONMode {
				asrv, calls = anthServer(t, anthStep{status: 200, body: anthReply("end_turn", anthText(`{"answer":"a","total":1}`))})
			}
			m, _ := anthAdapter(t, asrv.URL, atask, Config{StructuredOutput: mode})
			if _, err := m.Invoke(context.Background(), 0, anthQuestion); err != nil {
				t.Fatalf("%q: %v", prompt, err)
			}
			aparts, _ := Render(atask.Input, anthQuestion)
			awant, err := anthropic{}.body(&atask, mode, aparts)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(calls()[0].raw); got != string(bodyBytes(t, awant)) {
				t.Errorf("Anthropic, %s, %q: sent\n%s\nwant\n%s", mode, prompt, got, bodyBytes(t, awant))
			}
		}
	}
}

// invoiceTemplate places oaTask's input: the question in the system part and in the text,
// each artifact at its line, with an escaped brace pair.
const invoiceTemplate = "You read invoices. Keep {{{{braces}} as they are.\r\nThe question is: {{question}}\r\n---user---\r\nHere is the scan:\r\n{{scan}}\r\nthe call {{call}} and the contract:\r\n{{contract}}\r\n{{question}}\r\n"

// TestTemplateOpenAIBody: the exact body a Chat Completions stand-in receives for a template.
func TestTemplateOpenAIBody(t *testing.T) {
	task, input := oaTask(t)
	task.Prompt = invoiceTemplate
	srv := newOAServer(t, oaResponse{body: oaCompletion(`{"total":1,"currency":"EUR","lines":1,"date":"2024-01-01"}`, "stop")})
	a, _ := oaAdapter(t, Config{BaseURL: srv.URL + "/v1"}, task)
	if _, err := a.Invoke(context.Background(), 0, input); err != nil {
		t.Fatal(err)
	}
	if got := string(srv.requests()[0].Raw); got != openAITemplateGolden {
		t.Errorf("sent\n%s\nwant\n%s", got, openAITemplateGolden)
	}
}

// TestTemplateAnthropicBody: the exact body a Messages stand-in receives for a template
// with an image and a PDF (the Messages API takes no audio).
func TestTemplateAnthropicBody(t *testing.T) {
	task, input := oaTask(t)
	task.System = ir.AISystem{Type: ir.SystemModel, Provider: "claude", Model: "claude-sonnet-4-5"}
	task.Output = anthOutput
	task.Input.Fields = []ir.Field{task.Input.Fields[0], task.Input.Fields[1], task.Input.Fields[3]}
	delete(input, "call")
	task.Prompt = "You read invoices.\n---user---\n{{scan}}\n{{contract}}\nQ: {{question}}\n"
	srv, calls := anthServer(t, anthStep{status: 200, body: anthReply("tool_use", anthToolUse(`{"answer":"a","total":1}`))})
	m, _ := anthAdapter(t, srv.URL, task, Config{})
	if _, err := m.Invoke(context.Background(), 0, input); err != nil {
		t.Fatal(err)
	}
	if got := string(calls()[0].raw); got != anthropicTemplateGolden {
		t.Errorf("sent\n%s\nwant\n%s", got, anthropicTemplateGolden)
	}
}

const openAITemplateGolden = `{"max_tokens":256,"messages":[{"role":"system","content":"You read invoices. Keep {{braces}} as they are.\nThe question is: What is the total?"},{"role":"user","content":[{"type":"text","text":"Here is the scan:"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgppbWFnZS1ieXRlcw=="}},{"type":"text","text":"the call "},{"type":"input_audio","input_audio":{"data":"UklGRgAAAABXQVZFZm10IGF1ZGlvLWJ5dGVz","format":"wav"}},{"type":"text","text":" and the contract:"},{"type":"file","file":{"filename":"contract.pdf","file_data":"data:application/pdf;base64,JVBERi0xLjcgZG9jdW1lbnQtYnl0ZXM="}},{"type":"text","text":"What is the total?"}]}],"model":"gpt-test","response_format":{"json_schema":{"name":"benchy_output","schema":{"additionalProperties":false,"properties":{"currency":{"enum":["EUR","USD"],"type":"string"},"date":{"description":"a calendar date, YYYY-MM-DD","pattern":"^\\d{4}-\\d{2}-\\d{2}$","type":"string"},"lines":{"type":"integer"},"total":{"type":"number"}},"required":["total","currency","lines","date"],"type":"object"},"strict":true},"type":"json_schema"},"seed":7,"stop":"END","temperature":0.2,"top_p":0.9}`

const anthropicTemplateGolden = `{"max_tokens":4096,"messages":[{"content":[{"source":{"data":"iVBORw0KGgppbWFnZS1ieXRlcw==","media_type":"image/png","type":"base64"},"type":"image"},{"source":{"data":"JVBERi0xLjcgZG9jdW1lbnQtYnl0ZXM=","media_type":"application/pdf","type":"base64"},"type":"document"},{"text":"Q: What is the total?","type":"text"}],"role":"user"}],"model":"claude-sonnet-4-5","system":"You read invoices.","tool_choice":{"name":"benchy_output","type":"tool"},"tools":[{"description":"Record the answer.","input_schema":{"additionalProperties":false,"properties":{"answer":{"type":"string"},"total":{"type":"number"}},"required":["answer","total"],"type":"object"},"name":"benchy_output"}]}`

package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// unframedBody is a request body as openAI.body built it before frames: the whole request a
// map, encoded at once. TestFrameAgrees holds the framed body to it.
func unframedBody(t *Task, mode string, parts []Part) (*requestBody, error) {
	media := newBodyBuilder()
	content := make([]oaPart, len(parts))
	for i, p := range parts {
		switch p.Kind {
		case "text":
			content[i] = oaPart{Type: "text", Text: p.Text}
		case "image":
			content[i] = oaPart{Type: "image_url", ImageURL: &oaImageURL{URL: media.base64(dataURLHead(p), p)}}
		}
	}
	system := t.Prompt
	req := map[string]any{"model": t.System.Model}
	switch mode {
	case ModeJSONSchema:
		req["response_format"] = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": schemaName, "strict": true, "schema": JSONSchema(t.Output)}}
	case ModeJSONMode:
		req["response_format"] = map[string]any{"type": "json_object"}
		schema, _ := schemaText(t)
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
	return media.finish(withParameters(req, t.System.Parameters))
}

// bodyText is a body's JSON with each artifact as <art>, whatever its marker was.
func bodyText(b *requestBody) string {
	var s strings.Builder
	for _, seg := range b.segs {
		if seg.art != nil {
			s.WriteString("<art:" + string(seg.art.prefix) + ">")
			continue
		}
		s.Write(seg.json)
	}
	return s.String()
}

// TestFrameAgrees: a body built from a kept frame is the body encoded whole, byte for
// byte and of the same length, whatever sorts before or after "messages", in either mode,
// with artifacts, with a template's copy of a task (another prompt, the same frame), and a
// task with other parameters or another output gets a frame of its own.
func TestFrameAgrees(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "scan.png")
	os.WriteFile(img, []byte("\x89PNG\r\n\x1a\nrest"), 0o644)
	out := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
		{Name: "answer", Type: ir.TypeString},
		{Name: "when", Type: ir.TypeDate},
		{Name: "nested", Type: ir.TypeObject, Fields: []ir.Field{{Name: "label", Type: ir.TypeEnum, Values: []string{"a<b", "c&d"}}}},
	}}
	other := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "n", Type: ir.TypeInt}}}
	in := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}, {Name: "scan", Type: ir.TypeImage}}}
	textIn := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}}
	params := map[string]any{"frequency_penalty": 0.5, "max_tokens": 256.0, "temperature": 0.0, "seed": json.Number("7"), "model": "ignored", "logit_bias": map[string]any{"50256": -100.0}}
	base := Task{System: ir.AISystem{Model: "m</script>", Parameters: params}, Input: textIn, Output: out, Prompt: "Say <it> & \u2028 go."}
	copied := base
	copied.Prompt = "another prompt, a template's"
	noPrompt := base
	noPrompt.Prompt = ""
	otherParams := base
	otherParams.System.Parameters = map[string]any{"top_p": 0.9}
	otherOut := base
	otherOut.Output = other
	withArt := base
	withArt.Input = in
	tests := []struct {
		name  string
		task  Task
		input map[string]any
	}{
		{"plain", base, map[string]any{"q": "what \"now\"?\n<b>"}},
		{"a template's copy", copied, map[string]any{"q": "x"}},
		{"no prompt", noPrompt, map[string]any{"q": "x"}},
		{"other parameters", otherParams, map[string]any{"q": "x"}},
		{"another output", otherOut, map[string]any{"q": "x"}},
		{"no parameters", Task{System: ir.AISystem{Model: "m"}, Input: textIn, Output: out}, map[string]any{"q": "x"}},
		{"an artifact", withArt, map[string]any{"q": "look", "scan": img}},
	}
	for _, mode := range []string{ModeJSONSchema, ModeJSONMode} {
		for _, tt := range tests {
			for range 2 { // the second from the frame the first kept
				parts, err := Render(tt.task.Input, tt.input)
				if err != nil {
					t.Fatal(err)
				}
				got, err := (openAI{}).body(&tt.task, mode, parts)
				if err != nil {
					t.Fatalf("%s, %s: %v", tt.name, mode, err)
				}
				want, err := unframedBody(&tt.task, mode, parts)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := bodyText(got), bodyText(want); g != w || got.size != want.size {
					t.Errorf("%s, %s: framed body (%d bytes)\n%s\nwant (%d bytes)\n%s", tt.name, mode, got.size, g, want.size, w)
				}
			}
		}
	}
}

// TestFrameUnknownMode: an unknown mode is refused as before, and keeps no frame.
func TestFrameUnknownMode(t *testing.T) {
	task := Task{System: ir.AISystem{Model: "m"}, Output: ir.Field{Type: ir.TypeObject}}
	if _, err := (openAI{}).body(&task, "xml", nil); err == nil || !strings.Contains(err.Error(), `unknown structured output mode "xml"`) {
		t.Errorf("got %v", err)
	}
}

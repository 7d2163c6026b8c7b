package provider

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// TestEstimateTokens: the bounds hold the rules estimate.go gives, each row a request a
// reader can count by hand.
func TestEstimateTokens(t *testing.T) {
	task := Task{
		System: ir.AISystem{Model: "m"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "q", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "a", Type: ir.TypeString}}},
		Prompt: "Answer.",
	}
	rows := []struct {
		name   string
		wire   wire
		params map[string]any
		output int
	}{
		{"openai without a limit: the default output bound", openAI{}, nil, defaultOutputTokens},
		{"openai max_completion_tokens is the output bound", openAI{}, map[string]any{"max_completion_tokens": json.Number("50")}, 50},
		{"openai max_tokens as a YAML integer", openAI{}, map[string]any{"max_tokens": uint64(70)}, 70},
		{"anthropic max_tokens as a float", anthropic{}, map[string]any{"max_tokens": 90.0}, 90},
	}
	for _, r := range rows {
		task := task
		task.System.Parameters = r.params
		b, err := r.wire.body(&task, ModeJSONSchema, []Part{{Kind: "text", Text: "q: " + string(bytes.Repeat([]byte("x"), 400))}})
		if err != nil {
			t.Fatal(err)
		}
		raw := bodyBytes(t, b)
		e := estimateTokens(b, r.params)
		if e.OutputBound != r.output {
			t.Errorf("%s: output bound %d, want %d", r.name, e.OutputBound, r.output)
		}
		if e.InputBound < len(raw) {
			t.Errorf("%s: input bound %d below the request's %d bytes", r.name, e.InputBound, len(raw))
		}
		if e.Expected < len(raw)/4 || e.Expected > e.InputBound {
			t.Errorf("%s: expected %d outside [%d, %d]", r.name, e.Expected, len(raw)/4, e.InputBound)
		}
		if e.Bound() != e.InputBound+e.OutputBound {
			t.Errorf("%s: Bound %d", r.name, e.Bound())
		}
	}
}

// TestEstimateImage: an image counts at its dimensions' bound, not its bytes; one whose
// dimensions cannot be read at the largest bound.
func TestEstimateImage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.png")
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1024, 512)))
	os.WriteFile(path, buf.Bytes(), 0o644)
	bad := filepath.Join(dir, "b.png")
	os.WriteFile(bad, []byte("not a png at all"), 0o644)
	task := Task{
		System: ir.AISystem{Model: "m"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "img", Type: ir.TypeImage}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "a", Type: ir.TypeString}}},
	}
	for _, r := range []struct {
		path string
		want int
	}{{path, imageTokens(1024, 512)}, {bad, maxImageTokens}} {
		parts, err := Render(task.Input, map[string]any{"img": r.path})
		if err != nil {
			t.Fatal(err)
		}
		b, err := openAI{}.body(&task, ModeJSONSchema, parts)
		if err != nil {
			t.Fatal(err)
		}
		plain := estimateTokens(b, nil)
		text := 0
		for _, s := range b.segs {
			if s.art == nil {
				text += len(s.json)
			} else {
				text += len(s.art.prefix)
			}
		}
		if got := plain.InputBound - text - replyOverhead - messageOverhead*1; got != r.want {
			t.Errorf("%s: image counted %d, want %d", filepath.Base(r.path), got, r.want)
		}
	}
	// 1024×512: tiles 2×1 → 425; patches 32×16=512 ×2.5 → 1280; Anthropic 699.
	if got := imageTokens(1024, 512); got != 1280 {
		t.Errorf("imageTokens(1024, 512) = %d, want 1280", got)
	}
	if got := imageTokens(8000, 8000); got != maxImageTokens {
		t.Errorf("imageTokens(8000, 8000) = %d, want %d", got, maxImageTokens)
	}
}

package provider

import (
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// boundTask is a model task whose input is one text field and whose prompt is prompt.
func boundTask(prompt string) Task {
	return Task{
		System: ir.AISystem{Type: ir.SystemModel, Provider: "local", Model: "tiny"},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "text", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "label", Type: ir.TypeString}}},
		Prompt: prompt, PromptFile: "prompt.md",
	}
}

// TestRenderStopsAtRequestBound: a 500 KB template of {{text}} placeholders and a 1 KiB
// field would render 64 MiB of text; render refuses it before writing any, so refusing
// allocates less than 1 MiB (it built the 64 MiB message, twice over, before the bound).
func TestRenderStopsAtRequestBound(t *testing.T) {
	prompt := "Classify.\n---user---\n" + strings.Repeat("{{text}}", 500<<10/8)
	for _, name := range []string{"in the user part", "in the system part"} {
		t.Run(name, func(t *testing.T) {
			p := prompt
			if name == "in the system part" {
				p = strings.Repeat("{{text}}", 500<<10/8)
			}
			a := newModel(t, Config{Name: "local", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1/v1"}, boundTask(p), "")
			input := map[string]any{"text": strings.Repeat("x", 1<<10)}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, parts, err := a.render(input)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), "8 MiB") {
				t.Errorf("a 64 MiB request rendered (%d parts, err %v), want a refusal naming the 8 MiB bound", len(parts), err)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
				t.Errorf("refusing a 64 MiB request allocated %.1f MiB, want less than 1 (nothing is written before the size is known)", float64(got)/(1<<20))
			}
		})
	}
}

// TestRequestBoundEdge: a request of exactly MaxRenderedBytes of text renders; one byte
// more is refused, by render and by CheckInput, as request_too_large at the field that
// writes the most of it, without a byte of its value in the message.
func TestRequestBoundEdge(t *testing.T) {
	a := newModel(t, Config{Name: "local", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1/v1"}, boundTask("Be brief.\n---user---\n{{text}}|{{text}}"), "")
	fixed := len("Be brief.") + len("|")
	each := (MaxRenderedBytes - fixed) / 2 // bytes of text each placeholder may write
	fits := strings.Repeat("é", each/2) + strings.Repeat("x", each%2)
	for _, c := range []struct {
		text string
		ok   bool
	}{{fits, true}, {fits + "x", false}} {
		input := map[string]any{"text": c.text}
		task, parts, err := a.render(input)
		if c.ok {
			if err != nil || a.CheckInput(input) != nil {
				t.Fatalf("a request of %d bytes: %v, CheckInput %v; want it rendered", fixed+2*len(c.text), err, a.CheckInput(input))
			}
			if got := len(task.Prompt) + len(parts[0].Text); got != MaxRenderedBytes {
				t.Errorf("rendered %d bytes of text, want %d", got, MaxRenderedBytes)
			}
			continue
		}
		if err == nil {
			t.Errorf("a request of %d bytes rendered, want it refused", fixed+2*len(c.text))
		}
		var re *engine.RowError
		if err := a.CheckInput(input); !errors.As(err, &re) || re.Code != diag.RequestTooLarge || !slices.Equal(re.Path, []string{"input", "text"}) ||
			!strings.Contains(re.Message, "input.text, 4.0 MiB, 2 times") || strings.Contains(re.Message, "é") {
			t.Errorf("CheckInput: %v, want request_too_large at input.text naming its size and uses, not its value", err)
		}
	}
}

// TestRequestSizeBoundsRendering: the size counted before rendering is never less than
// the text rendered (else the bound could be passed), and at most a few bytes more (the
// line breaks Render trims, blank parts a template leaves out), for every prompt of
// TestTemplateRender's kinds and a plain one; RowsFit admits the row that writes it.
func TestRequestSizeBoundsRendering(t *testing.T) {
	input := tmplInput(t)
	for _, prompt := range []string{
		"", "You classify.\n", "You answer.\n---user---\nQ: {{question}}\n", "---user---\n{{address.city}} {{ address.zip }} n={{n}}",
		"s\n---user---\nLook:\n{{scan}}\nWhat is it?\n", "---user---\nHear {{call}} and read {{doc}}.", "---user---\n{{scan}}\n{{doc}}\n\n",
		"---user---\n{{{{question}} is {{question}} }}", "sys\r\nline 2\r\n---user---\r\nQ: {{question}}\r\nA:\r\n",
		"About {{address.city}} ({{n}}).\n", "Write {{{{x}} literally.", "{{question}}{{question}}\n---user---\n{{question}}",
	} {
		task := boundTask(prompt)
		task.Input = tmplSchema
		a := newModel(t, Config{Name: "local", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1/v1"}, task, "")
		rt, parts, err := a.render(input)
		if err != nil {
			t.Fatalf("%q: %v", prompt, err)
		}
		rendered := jsonLen(rt.Prompt) // as the request's JSON writes it
		for _, p := range parts {
			rendered += jsonLen(p.Text)
		}
		if counted := a.textSize(input).bytes; counted < int64(rendered) || counted > int64(rendered)+8 {
			t.Errorf("%q: counted %d bytes before rendering, rendered %d", prompt, counted, rendered)
		}
		row, _ := json.Marshal(map[string]any{"input": input, "expected": map[string]any{}})
		if !a.RowsFit(len(row)) {
			t.Errorf("%q: RowsFit refuses a row of %d bytes", prompt, len(row))
		}
	}
}

// TestRowsFitBoundsEveryRow: RowsFit says yes only for row lengths whose every input fits,
// each byte of a row counted as the 6 bytes JSON may write it as (< is \u003c): 1,000
// placeholders of a field fit rows of 1,300 bytes (7.8 MB sent at most), not of 1,400; a
// row CheckInput then reads admits 8,000 plain bytes (8 MB), not 8,400, nor 1,400 of <.
func TestRowsFitBoundsEveryRow(t *testing.T) {
	a := newModel(t, Config{Name: "local", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1/v1"}, boundTask("---user---\n"+strings.Repeat("{{text}}", 1000)), "")
	if !a.RowsFit(1300) || a.RowsFit(1400) {
		t.Errorf("RowsFit(1300) %v, RowsFit(1400) %v; want true, false", a.RowsFit(1300), a.RowsFit(1400))
	}
	if err := a.CheckInput(map[string]any{"text": strings.Repeat("<", 1400)}); err == nil {
		t.Error("1,400 bytes of < written 1,000 times (8.4 MB as sent) admitted")
	}
	if err := a.CheckInput(map[string]any{"text": strings.Repeat("x", 8000)}); err != nil {
		t.Errorf("a row RowsFit admits is refused: %v", err)
	}
	if err := a.CheckInput(map[string]any{"text": strings.Repeat("x", 8400)}); err == nil {
		t.Error("8.4 MB of text admitted")
	}
}

// FuzzRequestSize: for any prompt file that parses, the size counted before rendering is
// at least the text rendered, so that the bound can never be passed by a request it
// admitted.
func FuzzRequestSize(f *testing.F) {
	for _, s := range []string{"", "a", "{{n}}", "{{question}}{{question}}", "x\r\n---user---\r\n{{call}}\r\n", "---user---\n{{scan}}\n \n{{doc}}\n",
		"é{{address.city}}\n---user---\n{{{{n}} {{ n }}", "{{address.zip}}\n---user---\n\n\n{{question}}\n\n"} {
		f.Add(s)
	}
	input := tmplInput(f)
	f.Fuzz(func(t *testing.T, prompt string) {
		task := boundTask(prompt)
		task.Input = tmplSchema
		fac, err := NewFactory(Config{Name: "local", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1/v1"}, task, func(string) string { return "" })
		if err != nil {
			return // not a template this input parses
		}
		ad, _ := fac()
		a := ad.(*modelAdapter)
		rt, parts, err := a.render(input)
		if err != nil {
			t.Fatalf("%q: %v", prompt, err)
		}
		rendered := jsonLen(rt.Prompt) // as the request's JSON writes it
		for _, p := range parts {
			rendered += jsonLen(p.Text)
		}
		if counted := a.textSize(input).bytes; counted < int64(rendered) {
			t.Fatalf("%q: counted %d bytes before rendering, rendered %d", prompt, counted, rendered)
		}
	})
}

// TestRequestBoundPromptAlone: a prompt whose own text is past the bound is refused as
// such, whatever the row.
func TestRequestBoundPromptAlone(t *testing.T) {
	a := newModel(t, Config{Name: "local", Kind: KindOpenAI, BaseURL: "http://127.0.0.1:1/v1"}, boundTask(strings.Repeat("x", MaxRenderedBytes)), "")
	if err := a.CheckInput(map[string]any{"text": "y"}); err == nil || !strings.Contains(err.Error(), "the prompt's own text is 8.0 MiB") {
		t.Errorf("CheckInput: %v, want the prompt's own size named", err)
	}
}

package provider

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// tmplSchema is an input with every kind of leaf a template names: text, a number, a
// nested object and the three artifact types.
var tmplSchema = ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
	{Name: "question", Type: ir.TypeString},
	{Name: "n", Type: ir.TypeInt},
	{Name: "address", Type: ir.TypeObject, Fields: []ir.Field{
		{Name: "city", Type: ir.TypeString},
		{Name: "zip", Type: ir.TypeString},
	}},
	{Name: "scan", Type: ir.TypeImage},
	{Name: "doc", Type: ir.TypeDocument},
	{Name: "call", Type: ir.TypeAudio},
}}

// tmplInput is an input of tmplSchema whose artifacts are small files in a temporary folder.
func tmplInput(t testing.TB) map[string]any {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"scan.png": "\x89PNG\r\n\x1a\nimage", "doc.pdf": "%PDF-1.7 doc", "call.wav": "RIFF\x00\x00\x00\x00WAVEfmt audio"}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]any{
		"question": "Grüße, what? 🎉", "n": 3.0,
		"address": map[string]any{"city": "Paris", "zip": "75001"},
		"scan":    filepath.Join(dir, "scan.png"), "doc": filepath.Join(dir, "doc.pdf"), "call": filepath.Join(dir, "call.wav"),
	}
}

// partText is a part as the table writes it: the text of a text part, [kind name] of a
// media part.
func partText(ps []Part) []string {
	var out []string
	for _, p := range ps {
		if p.Kind == "text" {
			out = append(out, p.Text)
		} else {
			out = append(out, fmt.Sprintf("[%s %s]", p.Kind, p.Name))
		}
	}
	return out
}

// TestTemplateRender: each row is a prompt file, the system message and the user message's
// parts it gives for tmplInput; a nil user is Render's name: value lines.
func TestTemplateRender(t *testing.T) {
	input := tmplInput(t)
	render, _ := Render(tmplSchema, input)
	lines := partText(render)
	for _, c := range []struct {
		name, prompt, system string
		user                 []string
	}{
		{"a system and a user part", "You answer.\n---user---\nQ: {{question}}\n", "You answer.", []string{"Q: Grüße, what? 🎉"}},
		{"nested fields by dotted path, spaces inside the braces", "---user---\n{{address.city}} {{ address.zip }}", "", []string{"Paris 75001"}},
		{"a number as JSON", "---user---\nn={{n}}", "", []string{"n=3"}},
		{"an artifact in the middle of the text takes the line breaks beside it", "s\n---user---\nLook:\n{{scan}}\nWhat is it?\n", "s", []string{"Look:", "[image scan.png]", "What is it?"}},
		{"an artifact inside a line", "---user---\nHear {{call}} and read {{doc}}.", "", []string{"Hear ", "[audio call.wav]", " and read ", "[document doc.pdf]", "."}},
		{"artifacts side by side: no blank part between", "---user---\n{{scan}}\n{{doc}}\n\n", "", []string{"[image scan.png]", "[document doc.pdf]"}},
		{"one artifact twice", "---user---\n{{scan}} {{scan}}", "", []string{"[image scan.png]", "[image scan.png]"}},
		{"{{{{ is a literal {{, a lone }} is text", "---user---\n{{{{question}} is {{question}} }}", "", []string{"{{question}} is Grüße, what? 🎉 }}"}},
		{"unicode around placeholders", "Réponds ✓\n---user---\n«{{question}}» — {{address.city}}", "Réponds ✓", []string{"«Grüße, what? 🎉» — Paris"}},
		{"a CRLF file sends \\n line breaks", "sys\r\nline 2\r\n---user---\r\nQ: {{question}}\r\nA:\r\n", "sys\nline 2", []string{"Q: Grüße, what? 🎉\nA:"}},
		{"a CRLF marker line with an artifact", "---user---\r\nLook:\r\n{{scan}}\r\nok", "", []string{"Look:", "[image scan.png]", "ok"}},
		{"placeholders in the system part, no marker: the input as name: value lines", "About {{address.city}} ({{n}}).\n", "About Paris (3).\n", nil},
		{"the file's own last line break is not the user's", "---user---\nx\n\n", "", []string{"x\n"}},
		{"a user part with no placeholder", "sys\n---user---\nHello.", "sys", []string{"Hello."}},
		{"an escape alone makes a template, without a marker", "Write {{{{x}} literally.", "Write {{x}} literally.", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmpl, ds := ParseTemplate("p.md", c.prompt, tmplSchema, KindOpenAI)
			if ds != nil || tmpl == nil {
				t.Fatalf("ParseTemplate: %v (template %v)", ds, tmpl)
			}
			if got := tmpl.systemText(input); got != c.system {
				t.Errorf("system %q, want %q", got, c.system)
			}
			want := c.user
			if want == nil {
				if tmpl.hasUser {
					t.Fatal("a user part where the row has none")
				}
				want = lines
			} else {
				parts, err := tmpl.userParts(input)
				if err != nil {
					t.Fatal(err)
				}
				if got := partText(parts); !reflect.DeepEqual(got, want) {
					t.Errorf("user %q, want %q", got, want)
				}
			}
		})
	}
}

// TestNotATemplate: a file with neither {{ nor a marker line is not a template, whatever
// else it holds.
func TestNotATemplate(t *testing.T) {
	for _, p := range []string{"", "You classify.\n", "JSON: {\"a\": {\"b\": 1}}", "a }} b", "---user--- \n", " ---user---\n", "---users---\n", "x---user---\n", "{ {x} }", "crlf\r\n"} {
		if tmpl, ds := ParseTemplate("p.md", p, tmplSchema, KindOpenAI); tmpl != nil || ds != nil {
			t.Errorf("%q: %v, %v; want no template", p, tmpl, ds)
		}
	}
}

// TestTemplateErrors: each problem is a setup diagnostic at its line and column (code
// points), every one of a file reported, in order.
func TestTemplateErrors(t *testing.T) {
	for _, c := range []struct {
		name, prompt string
		kind         Kind
		want         []string // "line:column: a piece of the message"
		suggestion   string
	}{
		{"an unknown field, with a suggestion", "---user---\nQ: {{questoin}}", KindOpenAI, []string{"2:4: {{questoin}} is not a field of the input; its fields are question, n, address.city, address.zip, scan, doc, call"}, "question"},
		{"an unterminated placeholder", "a\n  {{question\n}}", KindOpenAI, []string{"2:3: an unterminated placeholder"}, ""},
		{"unterminated at the end of the file", "x {{question", KindOpenAI, []string{"1:3: an unterminated placeholder"}, ""},
		{"unterminated at the end of the system part", "{{n\n---user---\n{{n}}", KindOpenAI, []string{"1:1: an unterminated placeholder"}, ""},
		{"an empty placeholder", "---user---\n{{ }}", KindOpenAI, []string{"2:1: an empty placeholder"}, ""},
		{"an object is not a leaf", "---user---\n{{address}}", KindOpenAI, []string{"2:1: {{address}} is an object of the input: name one of its fields (address.city, address.zip)"}, ""},
		{"an artifact in the system part", "See {{scan}}\n---user---\nx", KindOpenAI, []string{"1:5: {{scan}} is an artifact (image): the system part takes text only"}, ""},
		{"audio for Anthropic", "---user---\nHear {{call}}", KindAnthropic, []string{"2:6: {{call}} is an artifact (audio): the Anthropic Messages API takes no audio input"}, ""},
		{"a second marker line", "a\n---user---\nb\n---user---\nc", KindOpenAI, []string{"4:1: a second ---user--- line"}, ""},
		{"an empty user part", "sys\n---user---\n  \n", KindOpenAI, []string{"2:1: the user part below ---user--- is empty"}, ""},
		{"a marker as the last line", "sys\n---user---", KindOpenAI, []string{"2:1: the user part below ---user--- is empty"}, ""},
		{"columns count code points", "é✓🎉 {{nope}}", KindOpenAI, []string{"1:5: {{nope}} is not a field"}, ""},
		{"a CRLF file keeps its lines", "a\r\nb {{nope}}\r\n", KindOpenAI, []string{"2:3: {{nope}} is not a field"}, ""},
		{"every problem, in order", "{{x}} {{scan}}\n---user---\n{{y}}\n{{call}} {{z", KindAnthropic, []string{
			"1:1: {{x}} is not a field", "1:7: {{scan}} is an artifact (image)", "3:1: {{y}} is not a field", "4:1: {{call}} is an artifact (audio)", "4:10: an unterminated placeholder"}, "n"},
		{"a triple brace is an unknown name", "---user---\n{{{n}}", KindOpenAI, []string{"2:1: {{{n}} is not a field"}, "n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmpl, ds := ParseTemplate("bench/prompt.md", c.prompt, tmplSchema, c.kind)
			if tmpl != nil {
				t.Fatal("a template despite its errors")
			}
			if len(ds) != len(c.want) {
				t.Fatalf("%d diagnostics, want %d:\n%v", len(ds), len(c.want), ds)
			}
			for i, d := range ds {
				got := fmt.Sprintf("%d:%d: %s", d.Line, d.Column, d.Message)
				if !strings.HasPrefix(got, c.want[i]) {
					t.Errorf("diagnostic %d: %s\nwant it to start %s", i, got, c.want[i])
				}
				if d.File != "bench/prompt.md" || d.Phase != engine.PhaseSetup || !diag.Registered(d.Code) || !reflect.DeepEqual(d.Path, []string{"ai-system", "prompt"}) {
					t.Errorf("diagnostic %d: %+v", i, d)
				}
			}
			if ds[0].Suggestion != c.suggestion {
				t.Errorf("suggestion %q, want %q", ds[0].Suggestion, c.suggestion)
			}
		})
	}
}

// TestTemplateErrorsBeforeAnyCall: NewFactory refuses a template with errors as a diag.List
// naming the prompt file, line and column, so that benchy run and the server show it
// before any example runs.
func TestTemplateErrorsBeforeAnyCall(t *testing.T) {
	task := Task{System: ir.AISystem{Model: "m"}, Input: tmplSchema, Output: anthOutput, Prompt: "---user---\n{{questoin}}", PromptFile: "b/prompt.md"}
	_, err := NewFactory(Config{Name: "p", Kind: KindOpenAI}, task, func(string) string { return "" })
	var ds diag.List
	if !errors.As(err, &ds) {
		t.Fatalf("%v: not a diag.List", err)
	}
	if want := `b/prompt.md:2:1: invalid_value: {{questoin}} is not a field of the input`; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%s\nwant it to start %s", err, want)
	}
}

// FuzzTemplate: parsing any text neither panics nor reports a problem outside the file;
// a template that parses renders tmplInput without panicking, the same twice.
func FuzzTemplate(f *testing.F) {
	for _, s := range []string{"", "a", "{{", "}}", "{{{{", "{{n}}", "{{ address.city }}", "---user---\n{{scan}}", "x\r\n---user---\r\n{{call}}\r\n",
		"{{x", "é{{é}}", "---user---\n---user---\n", "{{{n}}}", "---user---", "\n---user---\n\n", "{{scan}}\n---user---\n{{doc}} {{address}}"} {
		f.Add(s)
	}
	input := tmplInput(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, k := range []Kind{KindOpenAI, KindAnthropic} {
			tmpl, ds := ParseTemplate("p.md", text, tmplSchema, k)
			if tmpl != nil && ds != nil {
				t.Fatalf("%q: a template and diagnostics", text)
			}
			lines := strings.Split(text, "\n")
			for _, d := range ds {
				if d.Line < 1 || d.Line > len(lines) || d.Column < 1 || d.Column > utf8.RuneCountInString(lines[d.Line-1])+1 {
					t.Fatalf("%q: %v is outside the file", text, d)
				}
				if !diag.Registered(d.Code) || d.File != "p.md" || d.Message == "" {
					t.Fatalf("%q: %+v", text, d)
				}
			}
			if tmpl == nil {
				if ds == nil && IsTemplate(text) {
					t.Fatalf("%q: a template gave neither a template nor a diagnostic", text)
				}
				continue
			}
			if a, b := tmpl.systemText(input), tmpl.systemText(input); a != b {
				t.Fatalf("%q: system %q then %q", text, a, b)
			}
			if tmpl.hasUser {
				p1, err1 := tmpl.userParts(input)
				p2, err2 := tmpl.userParts(input)
				if !reflect.DeepEqual(partText(p1), partText(p2)) || (err1 == nil) != (err2 == nil) {
					t.Fatalf("%q: two renderings differ", text)
				}
				for _, p := range p1 {
					if p.Kind == "text" && strings.TrimSpace(p.Text) == "" {
						t.Fatalf("%q: a blank text part", text)
					}
				}
			}
		}
	})
}

// TestExampleTemplate: the model example's template (assets/examples/model, its README)
// parses against that benchmark's input for both protocols and places the ticket last.
func TestExampleTemplate(t *testing.T) {
	src, err := os.ReadFile("../../assets/examples/model/benchmark.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, ds := compiler.Compile(src)
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	text, err := os.ReadFile("../../assets/examples/model/prompt-template.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []Kind{KindOpenAI, KindAnthropic} {
		tmpl, ds := ParseTemplate("prompt-template.md", string(text), b.Program.Input, k)
		if ds != nil || tmpl == nil || !tmpl.static || !tmpl.hasUser {
			t.Fatalf("%s: %v, %+v", k, ds, tmpl)
		}
		parts, err := tmpl.userParts(map[string]any{"text": "The app crashes."})
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != 1 || !strings.HasSuffix(parts[0].Text, "The ticket:\n\nThe app crashes.") || !strings.HasSuffix(tmpl.text, `{"sentiment": "neutral"}.`) {
			t.Errorf("%s: user %q, system %q", k, partText(parts), tmpl.text)
		}
	}
}

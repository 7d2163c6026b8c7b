package ontology

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func leaf(typ string, path ...string) Leaf { return Leaf{Path: path, Type: typ} }

func TestCheckProgram(t *testing.T) {
	r := mustV1(t)
	var (
		text    = leaf("string", "text")
		image   = leaf("image", "image")
		audio   = leaf("audio", "clip")
		label   = leaf("enum", "label")
		str     = leaf("string", "out")
		integer = leaf("int", "count")
	)
	tests := []struct {
		name  string
		task  string
		prog  Program
		parts []string // Part of each expected violation, in order; nil for none
	}{
		// extract: only the single-language rule.
		{"extract minimal", "extract", Program{}, nil},
		{"extract image to fields", "extract", Program{Input: []Leaf{image}, Output: []Leaf{leaf("string", "name"), leaf("float", "total"), leaf("date", "due")}}, nil},
		{"extract anything", "extract", Program{Input: []Leaf{audio, text}, Output: []Leaf{label, integer}}, nil},
		{"extract nested", "extract", Program{Input: []Leaf{leaf("document", "doc", "file")}, Output: []Leaf{leaf("string", "invoice", "vendor", "name")}}, nil},
		{"extract language pair", "extract", Program{Input: []Leaf{text}, Output: []Leaf{str}, LanguagePair: true}, []string{PartLanguage}},

		// classify: exactly one enum output, single language.
		{"classify ok", "classify", Program{Input: []Leaf{text}, Output: []Leaf{label}}, nil},
		{"classify ok no input", "classify", Program{Output: []Leaf{label}}, nil},
		{"classify nested leaf", "classify", Program{Input: []Leaf{image}, Output: []Leaf{leaf("enum", "result", "category")}}, nil},
		{"classify zero outputs", "classify", Program{Input: []Leaf{text}}, []string{PartOutput}},
		{"classify two outputs", "classify", Program{Input: []Leaf{text}, Output: []Leaf{label, leaf("enum", "other")}}, []string{PartOutput}},
		{"classify two nested outputs", "classify", Program{Input: []Leaf{text}, Output: []Leaf{leaf("enum", "r", "a"), leaf("enum", "r", "b")}}, []string{PartOutput}},
		{"classify string output", "classify", Program{Input: []Leaf{text}, Output: []Leaf{str}}, []string{PartOutput}},
		{"classify language pair", "classify", Program{Input: []Leaf{text}, Output: []Leaf{label}, LanguagePair: true}, []string{PartLanguage}},
		{"classify everything wrong", "classify", Program{Output: []Leaf{str, integer}, LanguagePair: true}, []string{PartOutput, PartLanguage}},

		// transcribe: an audio input, exactly one string output, single language.
		{"transcribe ok", "transcribe", Program{Input: []Leaf{audio}, Output: []Leaf{str}}, nil},
		{"transcribe ok audio among inputs", "transcribe", Program{Input: []Leaf{text, leaf("audio", "media", "speech")}, Output: []Leaf{leaf("string", "result", "transcript")}}, nil},
		{"transcribe no audio", "transcribe", Program{Input: []Leaf{text, image}, Output: []Leaf{str}}, []string{PartInput}},
		{"transcribe no input", "transcribe", Program{Output: []Leaf{str}}, []string{PartInput}},
		{"transcribe enum output", "transcribe", Program{Input: []Leaf{audio}, Output: []Leaf{label}}, []string{PartOutput}},
		{"transcribe two outputs", "transcribe", Program{Input: []Leaf{audio}, Output: []Leaf{str, leaf("string", "speaker")}}, []string{PartOutput}},
		{"transcribe zero outputs", "transcribe", Program{Input: []Leaf{audio}}, []string{PartOutput}},
		{"transcribe language pair", "transcribe", Program{Input: []Leaf{audio}, Output: []Leaf{str}, LanguagePair: true}, []string{PartLanguage}},
		{"transcribe everything wrong", "transcribe", Program{Input: []Leaf{text}, Output: []Leaf{label}, LanguagePair: true}, []string{PartInput, PartOutput, PartLanguage}},

		// translate: a string input, exactly one string output, a language pair.
		{"translate ok", "translate", Program{Input: []Leaf{text}, Output: []Leaf{str}, LanguagePair: true}, nil},
		{"translate ok nested", "translate", Program{Input: []Leaf{image, leaf("string", "source", "text")}, Output: []Leaf{leaf("string", "target", "text")}, LanguagePair: true}, nil},
		{"translate no string input", "translate", Program{Input: []Leaf{audio}, Output: []Leaf{str}, LanguagePair: true}, []string{PartInput}},
		{"translate enum input only", "translate", Program{Input: []Leaf{label}, Output: []Leaf{str}, LanguagePair: true}, []string{PartInput}},
		{"translate single language", "translate", Program{Input: []Leaf{text}, Output: []Leaf{str}}, []string{PartLanguage}},
		{"translate int output", "translate", Program{Input: []Leaf{text}, Output: []Leaf{integer}, LanguagePair: true}, []string{PartOutput}},
		{"translate two outputs", "translate", Program{Input: []Leaf{text}, Output: []Leaf{str, leaf("string", "alt")}, LanguagePair: true}, []string{PartOutput}},
		{"translate everything wrong", "translate", Program{Output: []Leaf{integer}}, []string{PartInput, PartOutput, PartLanguage}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := r.CheckProgram(tt.task, tt.prog)
			if err != nil {
				t.Fatalf("CheckProgram(%q) error: %v", tt.task, err)
			}
			parts := make([]string, len(vs))
			for i, v := range vs {
				parts[i] = v.Part
				if !strings.Contains(v.Message, "task "+tt.task) {
					t.Errorf("violation message %q does not name task %q", v.Message, tt.task)
				}
			}
			if !slices.Equal(parts, tt.parts) {
				t.Errorf("CheckProgram(%q) violation parts = %v, want %v\nviolations: %+v", tt.task, parts, tt.parts, vs)
			}
		})
	}
}

// TestCheckProgramMessages checks that messages describe the offending fields, with nested
// paths joined by dots.
func TestCheckProgramMessages(t *testing.T) {
	r := mustV1(t)
	tests := []struct {
		task string
		prog Program
		want []string
	}{
		{"classify", Program{Output: []Leaf{leaf("string", "result", "label")}}, []string{"enum", "result.label", "string"}},
		{"classify", Program{Output: []Leaf{leaf("enum", "a", "b"), leaf("int", "c")}}, []string{"2", "a.b: enum", "c: int"}},
		{"classify", Program{}, []string{"0", "none"}},
		{"transcribe", Program{Input: []Leaf{leaf("image", "scan", "page")}, Output: []Leaf{leaf("string", "t")}}, []string{"audio", "scan.page: image"}},
		{"translate", Program{Input: []Leaf{leaf("string", "s")}, Output: []Leaf{leaf("string", "t")}}, []string{"source", "target"}},
		{"extract", Program{LanguagePair: true}, []string{"translate"}},
	}
	for _, tt := range tests {
		vs, err := r.CheckProgram(tt.task, tt.prog)
		if err != nil || len(vs) != 1 {
			t.Errorf("CheckProgram(%q, %+v) = %+v, %v; want one violation", tt.task, tt.prog, vs, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(vs[0].Message, w) {
				t.Errorf("CheckProgram(%q) message %q does not mention %q", tt.task, vs[0].Message, w)
			}
		}
	}
}

func TestCheckProgramUnknownTask(t *testing.T) {
	r := mustV1(t)
	for _, task := range []string{"summarize", "", "Classify", "classify ", "TRANSLATE"} {
		vs, err := r.CheckProgram(task, Program{Output: []Leaf{leaf("enum", "label")}})
		if !errors.Is(err, ErrUnsupportedTask) {
			t.Errorf("CheckProgram(%q) error = %v, want one wrapping ErrUnsupportedTask", task, err)
		}
		if vs != nil {
			t.Errorf("CheckProgram(%q) violations = %+v, want nil with the error", task, vs)
		}
		if err != nil && !strings.Contains(err.Error(), `"`+task+`"`) {
			t.Errorf("CheckProgram(%q) error %q does not name the task", task, err)
		}
	}
}

// TestRulesMatchTasks checks that every rule belongs to a registry task and that the words
// published in Task.Rules are the ones bound to the validator.
func TestRulesMatchTasks(t *testing.T) {
	r := mustV1(t)
	for id, ru := range v1Rules {
		if !r.HasTask(id) {
			t.Errorf("rule for %q, which the 1.0 registry does not list", id)
		}
		if ru.check == nil {
			t.Errorf("rule for %q has no check", id)
		}
	}
	for _, task := range r.Tasks {
		if !slices.Equal(task.Rules, v1Rules[task.ID].text) {
			t.Errorf("task %q Rules = %q, want %q", task.ID, task.Rules, v1Rules[task.ID].text)
		}
	}
}

package compiler

import (
	"reflect"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// TestCompileSystem: a system file is one ai-system: mapping, checked by the benchmark's
// own rules at the positions of the file; anything else at its top is refused, with the
// usual unknown_key and its suggestion.
func TestCompileSystem(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      ir.AISystem
		// the first diagnostic: code, line, column, suggestion, and words of its message
		code       diag.Code
		line, col  int
		suggestion string
		says       string
	}{
		{name: "an external system", src: "ai-system:\n  type: external\n  id: baseline\n",
			want: ir.AISystem{Type: ir.SystemExternal, ID: "baseline"}},
		{name: "a model with its prompt and parameters",
			src:  "# a comment\nai-system:\n  type: model\n  provider: openai\n  model: local/meta/llama\n  prompt: prompts/p.md\n  parameters: {temperature: 0, seed: 7, stream: false}\n",
			want: ir.AISystem{Type: ir.SystemModel, Provider: "openai", Model: "local/meta/llama", Prompt: "prompts/p.md", Parameters: map[string]any{"temperature": 0.0, "seed": 7.0, "stream": false}}},
		{name: "a bad type is the benchmark's diagnostic, with its suggestion", src: "ai-system:\n  type: externa\n  id: x\n",
			code: diag.InvalidValue, line: 2, col: 9, suggestion: "external", says: "must be model or external"},
		{name: "an external system lacks its id", src: "ai-system:\n  type: external\n",
			code: diag.MissingKey, line: 1, col: 1, says: `lacks the required key "id"`},
		{name: "a key besides ai-system", src: "ai-system:\n  type: external\n  id: x\ndata: {path: other.jsonl}\n",
			code: diag.UnknownKey, line: 4, col: 1, says: `unknown key "data"`},
		{name: "a misspelt ai-system is suggested, and not also said missing", src: "ai-sytem:\n  type: external\n  id: x\n",
			code: diag.UnknownKey, line: 1, col: 1, suggestion: "ai-system", says: "takes only the key ai-system"},
		{name: "a key of a model on an external system", src: "ai-system:\n  type: external\n  id: x\n  prompt: p.md\n",
			code: diag.UnknownKey, line: 4, col: 3, says: `unknown key "prompt"`},
		{name: "an absolute prompt", src: "ai-system: {type: model, provider: p, model: m, prompt: /etc/passwd}\n",
			code: diag.InvalidValue, line: 1, col: 57, says: "is absolute"},
		{name: "empty parameters", src: "ai-system: {type: model, provider: p, model: m, parameters: {}}\n",
			code: diag.InvalidValue, line: 1, col: 61, says: "parameters is empty"},
		{name: "ai-system is not a mapping", src: "ai-system: baseline\n",
			code: diag.InvalidValue, line: 1, col: 12, says: "must be a mapping"},
		{name: "the file is not a mapping", src: "- type: external\n  id: x\n",
			code: diag.InvalidValue, line: 1, col: 1, says: "a system file is a mapping"},
		{name: "an empty file", src: "",
			code: diag.MissingKey, line: 1, col: 1, says: "this one is empty"},
		{name: "a whole benchmark is not a system file", src: "version: \"1.0\"\nai-system: {type: external, id: x}\n",
			code: diag.UnknownKey, line: 1, col: 1, says: `unknown key "version"`},
		{name: "YAML that does not parse", src: "ai-system: {type: external\n",
			code: diag.InvalidYAML, line: 1},
		{name: "two documents are named a system file's", src: "ai-system: {type: external, id: x}\n---\nai-system: {type: external, id: y}\n",
			code: diag.InvalidYAML, line: 2, says: "system file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ds := CompileSystem([]byte(tc.src))
			if tc.code == "" {
				if len(ds) > 0 || !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("got %+v\n%s", got, ds.Format("s.yaml"))
				}
				return
			}
			if len(ds) == 0 {
				t.Fatalf("no diagnostic; got %+v", got)
			}
			d := ds[0]
			if d.Code != tc.code || d.Line != tc.line || (tc.col != 0 && d.Column != tc.col) ||
				d.Suggestion != tc.suggestion || !strings.Contains(d.Message, tc.says) {
				t.Errorf("got %s, want %s at %d:%d suggesting %q, saying %q", ds.Format("s.yaml"), tc.code, tc.line, tc.col, tc.suggestion, tc.says)
			}
			if !reflect.DeepEqual(got, ir.AISystem{}) {
				t.Errorf("a refused file gave a system: %+v", got)
			}
		})
	}
}

// TestCompileSystemBounds: a system file is bounded as a benchmark is, by the front end.
func TestCompileSystemBounds(t *testing.T) {
	big := "ai-system:\n  type: external\n  id: x\n#" + strings.Repeat("x", 1<<20) + "\n"
	if _, ds := CompileSystem([]byte(big)); !ds.Has(diag.TooLarge) || !strings.Contains(ds[0].Message, "system file") {
		t.Errorf("1 MiB of comment: %s", ds.Format("s.yaml"))
	}
	deep := "ai-system: {type: model, provider: p, model: m, parameters: {a: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "}}\n"
	if _, ds := CompileSystem([]byte(deep)); !ds.Has(diag.TooDeep) {
		t.Errorf("100 deep: %s", ds.Format("s.yaml"))
	}
}

// TestVerifySystem: a system built from parts (benchy run --model) passes the rules the
// file would, and fails where the file would.
func TestVerifySystem(t *testing.T) {
	ok := ir.AISystem{Type: ir.SystemModel, Provider: "openai", Model: "gpt-x", Prompt: "prompts/p.md", Parameters: map[string]any{"temperature": 0.5, "n": "x"}}
	if ds := VerifySystem(ok); len(ds) > 0 {
		t.Errorf("%+v: %s", ok, ds.Format("s"))
	}
	for _, bad := range []ir.AISystem{
		{Type: ir.SystemModel, Provider: " openai", Model: "m"},
		{Type: ir.SystemModel, Provider: "p", Model: "m\n"},
		{Type: ir.SystemExternal},
	} {
		if ds := VerifySystem(bad); len(ds) == 0 {
			t.Errorf("%+v passed", bad)
		}
	}
}

// TestCompileSystemNeverQuotesAScalar: a file given as a system file by mistake may be
// any file; one whose top is a scalar (a .env of keys is one string) is refused naming
// the scalar's kind, never its text.
func TestCompileSystemNeverQuotesAScalar(t *testing.T) {
	const secret = "sk-secret-0123456789"
	for _, tc := range []struct{ src, kind string }{
		{"OPENAI_API_KEY=" + secret + "\n", "a string"},
		{"A=" + secret + "\nB=" + secret + "\n", "a string"},
		{"\"" + secret + "\"\n", "a string"},
		{"1234567890123\n", "a number"},
		{"true\n", "a boolean"},
		{"- " + secret + "\n", "a list"},
	} {
		_, ds := CompileSystem([]byte(tc.src))
		text := ds.Format("s.yaml")
		if len(ds) != 1 || ds[0].Code != diag.InvalidValue || !strings.HasSuffix(ds[0].Message, "; found "+tc.kind) ||
			strings.Contains(text, secret) || strings.Contains(text, "1234567890123") {
			t.Errorf("%q: %s", tc.src, text)
		}
	}
}

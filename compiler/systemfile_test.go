package compiler

import (
	"fmt"
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

// TestSystemBounds: an AI-system's definition is copied into every run that takes it, so
// its names, model and parameters are bounded; each bound is held just under and just
// over, by every way a system reaches the compiler (a system file, a benchmark, a system
// built from parts, a hand-written IR), refused with too_large at the value and naming the
// bound, never quoting the value.
func TestSystemBounds(t *testing.T) {
	params := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "    p%02d: 1\n", i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name   string
		system string // the ai-system mapping's lines, under "ai-system:\n"
		// the diagnostic wanted, "" for none: its line and column in the system file
		says      string
		line, col int
	}{
		{"an id of 256 bytes", "  type: external\n  id: " + strings.Repeat("i", 256) + "\n", "", 0, 0},
		{"an id of 257 bytes", "  type: external\n  id: " + strings.Repeat("i", 257) + "\n", "at most 256", 3, 7},
		{"a provider of 256 bytes", "  type: model\n  provider: " + strings.Repeat("p", 256) + "\n  model: m\n", "", 0, 0},
		{"a provider of 257 bytes", "  type: model\n  provider: " + strings.Repeat("p", 257) + "\n  model: m\n", "at most 256", 3, 13},
		{"a model of 256 bytes", "  type: model\n  provider: p\n  model: " + strings.Repeat("m", 256) + "\n", "", 0, 0},
		{"a model of 257 bytes", "  type: model\n  provider: p\n  model: " + strings.Repeat("m", 257) + "\n", "at most 256", 4, 10},
		{"a model of 257 bytes with a space at its end", "  type: model\n  provider: p\n  model: \"" + strings.Repeat("m", 256) + " \"\n", "at most 256", 4, 10},
		{"64 parameters", "  type: model\n  provider: p\n  model: m\n  parameters:\n" + params(64), "", 0, 0},
		{"65 parameters", "  type: model\n  provider: p\n  model: m\n  parameters:\n" + params(65), "at most 64", 70, 5},
		{"a parameter name of 128 bytes", "  type: model\n  provider: p\n  model: m\n  parameters:\n    " + strings.Repeat("n", 128) + ": 1\n", "", 0, 0},
		{"a parameter name of 129 bytes", "  type: model\n  provider: p\n  model: m\n  parameters:\n    " + strings.Repeat("n", 129) + ": 1\n", "at most 128", 6, 5},
		{"a parameter of 4096 bytes", "  type: model\n  provider: p\n  model: m\n  parameters:\n    p: " + strings.Repeat("v", 4096) + "\n", "", 0, 0},
		{"a parameter of 4097 bytes", "  type: model\n  provider: p\n  model: m\n  parameters:\n    p: " + strings.Repeat("v", 4097) + "\n", "at most 4096", 6, 8},
		{"a parameter of 1 MB", "  type: model\n  provider: p\n  model: m\n  parameters: {p: \"" + strings.Repeat("v", 1<<20-100) + "\"}\n", "at most 4096", 5, 19},
		{"a prompt path of 4096 bytes", "  type: model\n  provider: p\n  model: m\n  prompt: " + strings.Repeat("d/", 2048) + "\n", "", 0, 0},
		{"a prompt path of 4097 bytes", "  type: model\n  provider: p\n  model: m\n  prompt: " + strings.Repeat("d/", 2048) + "x\n", "at most 4096", 5, 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "ai-system:\n" + tc.system
			sys, ds := CompileSystem([]byte(src))
			if tc.says == "" {
				if len(ds) > 0 {
					t.Fatalf("refused: %.300s", ds.Format("s.yaml"))
				}
			} else if len(ds) != 1 || ds[0].Code != diag.TooLarge || ds[0].Line != tc.line || ds[0].Column != tc.col ||
				!strings.Contains(ds[0].Message, tc.says) || len(ds.Format("s.yaml")) > 500 {
				t.Fatalf("got %.500s, want one too_large at %d:%d saying %q, short", ds.Format("s.yaml"), tc.line, tc.col, tc.says)
			}
			// The same system in a benchmark.
			bench := strings.Replace(systemBench, "ai-system: {type: external, id: x}\n", src, 1)
			b, ds := Compile([]byte(bench))
			if refused := ds.Has(diag.TooLarge); refused != (tc.says != "") || (tc.says == "" && len(ds) > 0) {
				t.Fatalf("in a benchmark: %.500s", ds.Format("b.yaml"))
			}
			// Built from parts, and as a hand-written IR: the accepted system over its
			// bound by one, the refused one as it is written.
			if tc.says == "" {
				sys = stretch(sys)
				b.AISystem = sys
			} else {
				b, _ = Compile([]byte(systemBench))
				b.AISystem = over(tc.name)
			}
			if ds := VerifySystem(b.AISystem); !ds.Has(diag.TooLarge) {
				t.Errorf("VerifySystem(%.80v): %.300s", b.AISystem, ds.Format("s"))
			}
			if ds := VerifyIR(b); !ds.Has(diag.TooLarge) {
				t.Errorf("VerifyIR: %.300s", ds.Format("ir"))
			}
		})
	}
}

// systemBench is a benchmark TestSystemBounds puts its systems in.
const systemBench = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: customer_support, language: en}
program:
  input: {text: string}
  output: {label: {enum: [a, b]}}
scoring:
  weights: {label: 1}
  aggregator: weighted_mean
data: {path: ./data.jsonl}
ai-system: {type: external, id: x}
`

// stretch is s with one value one byte or one entry past its bound: the one the row
// held just under it.
func stretch(s ir.AISystem) ir.AISystem {
	switch {
	case len(s.ID) == maxNameLen:
		s.ID += "i"
	case len(s.Provider) == maxNameLen:
		s.Provider += "p"
	case len(s.Model) == maxNameLen:
		s.Model += "m"
	case len(s.Prompt) == maxPathLen:
		s.Prompt += "x"
	case len(s.Parameters) == maxParameters:
		s.Parameters["z"] = 1.0
	default:
		for k, v := range s.Parameters {
			if len(k) == maxParamNameLen {
				s.Parameters[k+"n"] = v
				delete(s.Parameters, k)
			} else if v, ok := v.(string); ok {
				s.Parameters[k] = v + "v"
			}
		}
	}
	return s
}

// over is the system of a refused row, built from parts.
func over(name string) ir.AISystem {
	s := ir.AISystem{Type: ir.SystemModel, Provider: "p", Model: "m"}
	switch {
	case strings.HasPrefix(name, "an id"):
		return ir.AISystem{Type: ir.SystemExternal, ID: strings.Repeat("i", maxNameLen+1)}
	case strings.HasPrefix(name, "a provider"):
		s.Provider = strings.Repeat("p", maxNameLen+1)
	case strings.HasPrefix(name, "a model"):
		s.Model = strings.Repeat("m", maxNameLen+1)
	case strings.HasPrefix(name, "a prompt"):
		s.Prompt = strings.Repeat("d/", maxPathLen/2) + "x"
	case strings.HasPrefix(name, "65"):
		s.Parameters = map[string]any{}
		for i := range maxParameters + 1 {
			s.Parameters[fmt.Sprintf("p%02d", i)] = 1.0
		}
	case strings.HasPrefix(name, "a parameter name"):
		s.Parameters = map[string]any{strings.Repeat("n", maxParamNameLen+1): 1.0}
	default:
		s.Parameters = map[string]any{"p": strings.Repeat("v", maxParamLen+1)}
	}
	return s
}

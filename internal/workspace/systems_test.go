package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

const modelBenchmark = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {text: string}
  output: {name: string}
scoring: {weights: {name: 1}, aggregator: weighted_mean}
data: {path: ./data.jsonl}
ai-system:
  type: model
  provider: local
  model: tiny
  prompt: prompts/p.md
  parameters: {temperature: 0}
`

// TestWithSystem: each form of a choice gives the effective benchmark it says, with its
// own ir_hash and the benchmark_hash of the file; a choice that names no system is refused
// for what it is.
func TestWithSystem(t *testing.T) {
	external, ds := compiler.Compile([]byte(system))
	model, ds2 := compiler.Compile([]byte(modelBenchmark))
	if len(ds)+len(ds2) > 0 {
		t.Fatal(ds, ds2)
	}
	temp0 := map[string]any{"temperature": 0.0}
	for _, tc := range []struct {
		name string
		b    *ir.Benchmark
		c    Choice
		want ir.AISystem
		bad  string // words of a *BadChoice's reason; "diag" for a diag.List
	}{
		{name: "own is the file's system", b: external, c: Choice{Own: true}, want: external.AISystem},
		{name: "a system id replaces a model", b: model, c: Choice{System: "baseline"}, want: ir.AISystem{Type: ir.SystemExternal, ID: "baseline"}},
		{name: "a model keeps the prompt and parameters of the benchmark's model", b: model, c: Choice{Model: "openai/gpt-x"},
			want: ir.AISystem{Type: ir.SystemModel, Provider: "openai", Model: "gpt-x", Prompt: "prompts/p.md", Parameters: temp0}},
		{name: "a model name may hold a slash: the split is at the first", b: model, c: Choice{Model: "local/meta/llama"},
			want: ir.AISystem{Type: ir.SystemModel, Provider: "local", Model: "meta/llama", Prompt: "prompts/p.md", Parameters: temp0}},
		{name: "a model on an external benchmark has no prompt", b: external, c: Choice{Model: "openai/gpt-x"},
			want: ir.AISystem{Type: ir.SystemModel, Provider: "openai", Model: "gpt-x"}},
		{name: "a system file is what it says, its prompt the benchmark's folder's", b: model,
			c:    Choice{YAML: []byte("ai-system: {type: model, provider: p, model: m, prompt: other.md}\n"), File: "s.yaml"},
			want: ir.AISystem{Type: ir.SystemModel, Provider: "p", Model: "m", Prompt: "other.md"}},
		{name: "a model without a slash", b: model, c: Choice{Model: "gpt-x"}, bad: "not PROVIDER/MODEL"},
		{name: "a model without a provider", b: model, c: Choice{Model: "/gpt-x"}, bad: "not PROVIDER/MODEL"},
		{name: "a model without a name", b: model, c: Choice{Model: "openai/"}, bad: "not PROVIDER/MODEL"},
		{name: "a provider the compiler's rules refuse", b: model, c: Choice{Model: " openai/x"}, bad: "whitespace"},
		{name: "an id the compiler's rules refuse", b: model, c: Choice{System: "a\tb"}, bad: `system "a\tb": id must not contain`},
		{name: "no field", b: model, c: Choice{}, bad: "exactly one of"},
		{name: "two fields", b: model, c: Choice{System: "a", Own: true}, bad: "exactly one of"},
		{name: "a system file that does not compile", b: model, c: Choice{YAML: []byte("ai-system:\n  type: modle\n"), File: "s.yaml"}, bad: "diag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := WithSystem("b.yaml", tc.b, tc.c)
			var bad *BadChoice
			var ds diag.List
			switch {
			case tc.bad == "diag":
				if !errors.As(err, &ds) || ds[0].File != "s.yaml" || ds[0].Line != 2 || ds[0].Column != 9 || !strings.HasPrefix(err.Error(), "s.yaml:2:9: invalid_value:") {
					t.Fatalf("%v, want the system file's diagnostic at s.yaml:2:9", err)
				}
				return
			case tc.bad != "":
				if !errors.As(err, &bad) || !strings.Contains(bad.Reason, tc.bad) {
					t.Fatalf("%v, want a BadChoice saying %q", err, tc.bad)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if !reflect.DeepEqual(src.IR.AISystem, tc.want) {
				t.Errorf("system %+v, want %+v", src.IR.AISystem, tc.want)
			}
			canonical, _ := ir.Marshal(src.IR)
			if string(canonical) != string(src.Canonical) || src.IRHash != ir.Hash(canonical) {
				t.Errorf("the canonical bytes or ir_hash are not the effective IR's")
			}
			if ds := compiler.VerifyIR(src.IR); len(ds) > 0 {
				t.Errorf("the effective IR is not one the compiler makes: %s", ds.Format("b"))
			}
			fileCanonical, _ := ir.Marshal(tc.b)
			bh, _ := ir.BenchmarkHash(src.Canonical)
			fileBH, _ := ir.BenchmarkHash(fileCanonical)
			if bh != fileBH {
				t.Errorf("benchmark_hash %s, the file's %s", bh, fileBH)
			}
			if same := src.IRHash == ir.Hash(fileCanonical); same != reflect.DeepEqual(tc.want, tc.b.AISystem) {
				t.Errorf("ir_hash the file's: %v, but the systems are equal: %v", same, !same)
			}
			if tc.b.AISystem.Type == ir.SystemModel && tc.c.Model != "" {
				src.IR.AISystem.Parameters["temperature"] = 1.0
				if tc.b.AISystem.Parameters["temperature"] != 0.0 {
					t.Errorf("the effective IR shares its parameters with the file's")
				}
			}
		})
	}
}

// TestWithSystemPrepared: the effective benchmark binds as any does: the chosen id through
// the runtime file, an unbound id as missing_binding with the runtime file's suggestion, a
// model's prompt read from the benchmark's folder and its digest recorded.
func TestWithSystemPrepared(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "prompts"), 0o755)
	os.WriteFile(filepath.Join(dir, "prompts", "p.md"), []byte("Name it.\n"), 0o644)
	b, err := Load(Source{Name: "b.yaml", Text: []byte(modelBenchmark)})
	if err != nil {
		t.Fatal(err)
	}
	rt := runtime(t, "bindings:\n  baseline: {command: [cat]}\n  other: {command: [cat]}\nproviders:\n  openai: {kind: openai, base_url: 'http://127.0.0.1:1/v1'}\n")
	setup := Setup{Dir: dir, Paths: engine.Paths{Workspace: dir}, Runtime: rt}

	src, err := WithSystem("b.yaml", b, Choice{System: "baseline"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(src, setup)
	if err != nil || p.Binding != "baseline" || p.IRHash != src.IRHash || p.System.Label != "baseline" || p.System.PromptSHA256 != "" {
		t.Fatalf("%+v, %v", p, err)
	}
	m, err := WithSystem("b.yaml", b, Choice{Model: "openai/gpt-x"})
	if err != nil {
		t.Fatal(err)
	}
	q, err := Prepare(m, setup)
	if err != nil || q.Binding != "openai" || q.System.Label != "openai/gpt-x" || q.System.PromptSHA256 != engine.SHA256([]byte("Name it.\n")) {
		t.Fatalf("%+v, %v", q, err)
	}
	if p.BenchmarkHash != q.BenchmarkHash || p.IRHash == q.IRHash || p.System.Hash == q.System.Hash {
		t.Errorf("benchmark hashes %s %s, ir hashes %s %s", p.BenchmarkHash, q.BenchmarkHash, p.IRHash, q.IRHash)
	}
	unbound, _ := WithSystem("b.yaml", b, Choice{System: "baselin"})
	_, err = Prepare(unbound, setup)
	var ds diag.List
	if !errors.As(err, &ds) || !ds.Has(diag.MissingBinding) || !strings.Contains(err.Error(), `did you mean "baseline"?`) {
		t.Errorf("an unbound id: %v", err)
	}
}

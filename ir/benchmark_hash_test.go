package ir

import (
	"strings"
	"testing"
)

// TestBenchmarkHash: the benchmark hash is the same for any AI-system and changes with
// anything else the IR holds; the IR hash changes with both. It is the hash of the IR
// written out by hand without its ai_system member.
func TestBenchmarkHash(t *testing.T) {
	hashes := func(t *testing.T, b *Benchmark) (benchmark, whole string) {
		t.Helper()
		canonical, err := Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		bh, err := BenchmarkHash(canonical)
		if err != nil {
			t.Fatal(err)
		}
		return bh, Hash(canonical)
	}
	base, baseIR := hashes(t, invoice())
	if want := Hash([]byte(strings.Replace(invoiceIR, `"ai_system":{"id":"invoice-extractor-v7","type":"external"},`, "", 1))); base != want {
		t.Fatalf("BenchmarkHash = %s, want %s (the hand-written IR without ai_system)", base, want)
	}
	tests := []struct {
		name      string
		change    func(b *Benchmark)
		sameBench bool
	}{
		{"another external system", func(b *Benchmark) { b.AISystem.ID = "baseline" }, true},
		{"a model", func(b *Benchmark) {
			b.AISystem = AISystem{Type: SystemModel, Provider: "local", Model: "m", Prompt: "p.md", Parameters: map[string]any{"temperature": 0.0}}
		}, true},
		{"a weight", func(b *Benchmark) { b.Scoring.Dimensions[4].Weight = 4 }, false},
		{"an output field", func(b *Benchmark) { b.Program.Output.Fields[0].Name = "number" }, false},
		{"the dataset path", func(b *Benchmark) { b.Data.Path = "./data/other.jsonl" }, false},
		{"the language", func(b *Benchmark) { b.Benchmark.Language.Code = "en" }, false},
	}
	for _, tt := range tests {
		b := invoice()
		tt.change(b)
		bh, whole := hashes(t, b)
		if (bh == base) != tt.sameBench || whole == baseIR {
			t.Errorf("%s: benchmark hash same %v (want %v), IR hash same %v (want false)", tt.name, bh == base, tt.sameBench, whole == baseIR)
		}
	}
	for _, bad := range []string{``, `[]`, `{"benchmark":{}}`, invoiceIR + `{}`} {
		if h, err := BenchmarkHash([]byte(bad)); err == nil {
			t.Errorf("BenchmarkHash(%q) = %s, want an error", bad, h)
		}
	}
}

package ir

import (
	"bytes"
	"encoding/json"
	"testing"
)

// reference is the obviously correct, slower path Marshal replaces.
func reference(t *testing.T, b *Benchmark) []byte {
	t.Helper()
	raw, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Canonicalize(raw)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMarshalMatchesReference(t *testing.T) {
	model := invoice()
	model.AISystem = AISystem{Type: SystemModel, Provider: "openai", Model: "gpt-4o", Prompt: "p.md",
		Parameters: map[string]any{"temperature": 0.0, "stop": "<END>", "stream": false, "max_tokens": 1e3, "é": 1.5, "\u20ac": "x", "a": 1e21}}
	pair := invoice()
	pair.Benchmark.Language = Language{Source: "es", Target: "en"}
	pair.Program.Output.Fields = append(pair.Program.Output.Fields,
		Field{Name: "sup\"plier\n", Type: TypeObject, Fields: []Field{{Name: "label", Type: TypeEnum, Values: []string{"a", "<b>", "ü"}}}})
	pair.Scoring.Dimensions = append(pair.Scoring.Dimensions, Dimension{Path: []string{"sup\"plier\n", "label"}, Type: TypeEnum, Weight: 1e-7})
	for name, b := range map[string]*Benchmark{"invoice": invoice(), "model": model, "pair": pair} {
		got, err := Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if want := reference(t, b); !bytes.Equal(got, want) {
			t.Errorf("%s:\ngot  %s\nwant %s", name, got, want)
		}
	}
}

func TestMarshalRejectsNonFinite(t *testing.T) {
	b := invoice()
	b.Scoring.Dimensions[0].Weight = posInf()
	if _, err := Marshal(b); err == nil {
		t.Error("Marshal accepted an infinite weight")
	}
	b = invoice()
	b.AISystem = AISystem{Type: SystemModel, Provider: "p", Model: "m", Parameters: map[string]any{"x": posInf()}}
	if _, err := Marshal(b); err == nil {
		t.Error("Marshal accepted an infinite parameter")
	}
}

func posInf() float64 { x := 1e308; return x * 10 }

package compiler

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ir/irschema"
	"github.com/benchy-eval/benchy/ontology"
)

// jsonValue turns a parsed node into the JSON value an editor's YAML plug-in would check.
func jsonValue(n *yamlnode.Node) any {
	switch n.Kind {
	case yamlnode.Map:
		m := map[string]any{}
		for _, p := range n.Pairs {
			m[p.Key] = jsonValue(p.Value)
		}
		return m
	case yamlnode.Seq:
		s := []any{}
		for _, it := range n.Items {
			s = append(s, jsonValue(it))
		}
		return s
	case yamlnode.Bool:
		return strings.EqualFold(n.Text, "true")
	case yamlnode.Int, yamlnode.Float:
		if math.IsInf(n.Num, 0) || math.IsNaN(n.Num) {
			return n.Text // JSON has no such number; the schema sees a string and rejects it
		}
		return json.Number(ir.AppendNumber(nil, n.Num))
	case yamlnode.String:
		return n.Text
	}
	return nil
}

func yamlSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	reg, _ := ontology.Lookup(ontology.Version)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(YAMLSchema(reg)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestYAMLSchemaAcceptsValidCases: the editor schema is never stricter than the compiler.
// Where the compiler rejects, the schema rejects too for the problems it can express.
func TestYAMLSchemaAcceptsValidCases(t *testing.T) {
	s := yamlSchema(t)
	checked := 0
	for _, f := range benchmarkFiles() {
		src, _ := os.ReadFile(f)
		root, ds := parse(src)
		if len(ds) > 0 {
			continue
		}
		_, cds := Compile(src)
		err := s.Validate(jsonValue(root))
		if len(cds) == 0 && err != nil {
			t.Errorf("%s compiles but the editor schema rejects it: %v", f, err)
		}
		checked++
	}
	if checked < 50 {
		t.Errorf("only %d cases checked", checked)
	}
}

// TestYAMLSchemaRejects: unknown keys and the registry's closed sets are caught while typing.
func TestYAMLSchemaRejects(t *testing.T) {
	s := yamlSchema(t)
	base, _ := os.ReadFile("testdata/compile/ok_paper_invoice.yaml")
	tests := []struct{ name, old, new string }{
		{"unknown top-level key", "ai-system:", "ai_system:"},
		{"unknown key in benchmark", "  language: es\n", "  language: es\n  level: hard\n"},
		{"unknown task", "task: extract", "task: extraction"},
		{"unknown domain", "domain: finance", "domain: finanse"},
		{"unknown language", "language: es", "language: spa"},
		{"pair for extract", "language: es", "language: {source: es, target: en}"},
		{"unknown type", "total: float\nscoring", "total: decimal\nscoring"},
		{"list type", "supplier: string\n", "supplier: [string]\n"},
		{"unquoted version", `version: "1.0"`, "version: 1.0"},
		{"negative weight", "total: 5", "total: -5"},
		{"other aggregator", "aggregator: weighted_mean", "aggregator: mean"},
		{"absolute data path", "path: ./data/invoices.jsonl", "path: /data/x.jsonl"},
		{"external with model", "id: invoice-extractor-v7", "id: x\n  model: m"},
		{"unknown system type", "type: external", "type: agent"},
	}
	for _, tt := range tests {
		src := strings.Replace(string(base), tt.old, tt.new, 1)
		if src == string(base) {
			t.Fatalf("%s: %q not found", tt.name, tt.old)
		}
		root, ds := parse([]byte(src))
		if len(ds) > 0 {
			t.Fatalf("%s: %v", tt.name, ds)
		}
		if err := s.Validate(jsonValue(root)); err == nil {
			t.Errorf("%s: the editor schema accepts it", tt.name)
		}
		if _, cds := Compile([]byte(src)); len(cds) == 0 {
			t.Errorf("%s: the compiler accepts it", tt.name)
		}
	}
}

// TestPublishedSchemaIsCurrent: schema/benchmark.schema.json, which benchmark files reference
// for their editors, is what `benchy schema` prints.
func TestPublishedSchemaIsCurrent(t *testing.T) {
	reg, _ := ontology.Lookup(ontology.Version)
	want := YAMLSchema(reg)
	const path = "../schema/benchmark.schema.json"
	if *update {
		os.WriteFile(path, want, 0o644)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./compiler -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; run go test ./compiler -update", path)
	}
}

// TestGoldenIRsMatchIRSchema validates every golden IR against ir.schema.json.
func TestGoldenIRsMatchIRSchema(t *testing.T) {
	files, _ := filepath.Glob("testdata/compile/*.ir.json")
	if len(files) < 10 {
		t.Fatalf("only %d golden IRs", len(files))
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if err := irschema.Validate(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// parse reads src as Compile does, without validating it.
func parse(src []byte) (*yamlnode.Node, diag.List) {
	root, ds, _ := yamlnode.Parse(src, yamlnode.Options{})
	return root, ds
}

package irschema

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/ir"
)

// edit is one change to a decoded IR document at a JSON pointer: set a value, or delete
// the member or element when del is true.
type edit struct {
	ptr string
	val any
	del bool
}

func set(ptr string, v any) edit { return edit{ptr: ptr, val: v} }
func del(ptr string) edit        { return edit{ptr: ptr, del: true} }

// mutate applies edits to the decoded form of ir and returns the re-encoded JSON.
func mutate(t *testing.T, ir string, edits ...edit) []byte {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(ir), &doc); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		parts := strings.Split(strings.TrimPrefix(e.ptr, "/"), "/")
		parent := doc
		for _, p := range parts[:len(parts)-1] {
			parent = child(t, parent, p)
		}
		last := parts[len(parts)-1]
		switch x := parent.(type) {
		case map[string]any:
			if e.del {
				if _, ok := x[last]; !ok {
					t.Fatalf("test bug: %s does not exist", e.ptr)
				}
				delete(x, last)
			} else {
				x[last] = e.val
			}
		case []any:
			i, err := strconv.Atoi(last)
			if err != nil || i >= len(x) || e.del {
				t.Fatalf("test bug: cannot edit %s", e.ptr)
			}
			x[i] = e.val
		default:
			t.Fatalf("test bug: %s is not in a container", e.ptr)
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func child(t *testing.T, v any, key string) any {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		if c, ok := x[key]; ok {
			return c
		}
	case []any:
		if i, err := strconv.Atoi(key); err == nil && i < len(x) {
			return x[i]
		}
	}
	t.Fatalf("test bug: no %q in %v", key, v)
	return nil
}

func obj(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestValidateAccepts(t *testing.T) {
	model := obj("type", "model", "provider", "openai", "model", "gpt-x",
		"prompt", "./prompts/invoice.md",
		"parameters", obj("temperature", 0, "top_p", 0.9, "stop", "END", "stream", false))
	nested := []any{
		obj("name", "total", "type", "float"),
		obj("name", "supplier", "type", "object", "fields", []any{
			obj("name", "name", "type", "string"),
			obj("name", "kind", "type", "enum", "values", []any{"company", "person"}),
		}),
	}
	tests := []struct {
		name string
		ir   []byte
	}{
		{"invoice as marshalled", []byte(invoiceIR)},
		{"model with prompt and parameters", mutate(t, invoiceIR, set("/ai_system", model))},
		{"model without prompt or parameters", mutate(t, invoiceIR, set("/ai_system", obj("type", "model", "provider", "p", "model", "m")))},
		{"language pair", mutate(t, invoiceIR, set("/benchmark/language", obj("source", "en", "target", "es")))},
		{"nested object and enum", mutate(t, invoiceIR, set("/program/output/fields", nested))},
		{"zero and fractional weights", mutate(t, invoiceIR, set("/scoring/dimensions/0/weight", 0), set("/scoring/dimensions/1/weight", 0.25))},
		{"non-canonical whitespace", []byte(strings.ReplaceAll(invoiceIR, ",", ",\n  "))},
	}
	for _, tt := range tests {
		if err := Validate(tt.ir); err != nil {
			t.Errorf("%s: %v\n%s", tt.name, err, tt.ir)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	model := func(kv ...any) map[string]any {
		return obj(append([]any{"type", "model", "provider", "openai", "model", "gpt-x"}, kv...)...)
	}
	tests := []struct {
		name string
		ir   []byte
		at   string // instance location the error must name
	}{
		{"missing version", mutate(t, invoiceIR, del("/version")), "at ''"},
		{"wrong version", mutate(t, invoiceIR, set("/version", "2.0")), "/version"},
		{"numeric version", mutate(t, invoiceIR, set("/version", 1)), "/version"},
		{"wrong ontology version", mutate(t, invoiceIR, set("/ontology_version", "0.9")), "/ontology_version"},
		{"missing ai_system", mutate(t, invoiceIR, del("/ai_system")), "at ''"},
		{"unknown top-level key", mutate(t, invoiceIR, set("/extra", true)), "at ''"},
		{"unknown benchmark key", mutate(t, invoiceIR, set("/benchmark/subtask", "x")), "/benchmark"},
		{"numeric task", mutate(t, invoiceIR, set("/benchmark/task", 3)), "/benchmark/task"},
		{"language upper case", mutate(t, invoiceIR, set("/benchmark/language", "EN")), "/benchmark/language"},
		{"language three letters", mutate(t, invoiceIR, set("/benchmark/language", "spa")), "/benchmark/language"},
		{"language pair without target", mutate(t, invoiceIR, set("/benchmark/language", obj("source", "en"))), "/benchmark/language"},
		{"language pair upper case", mutate(t, invoiceIR, set("/benchmark/language", obj("source", "EN", "target", "es"))), "/benchmark/language"},
		{"language pair extra key", mutate(t, invoiceIR, set("/benchmark/language", obj("source", "en", "target", "es", "via", "fr"))), "/benchmark/language"},
		{"empty input fields", mutate(t, invoiceIR, set("/program/input/fields", []any{})), "/program/input/fields"},
		{"root without fields", mutate(t, invoiceIR, del("/program/output/fields")), "/program/output"},
		{"root not an object", mutate(t, invoiceIR, set("/program/input/type", "string")), "/program/input/type"},
		{"root with a name", mutate(t, invoiceIR, set("/program/input/name", "input")), "/program/input"},
		{"field without name", mutate(t, invoiceIR, del("/program/input/fields/0/name")), "/program/input/fields/0"},
		{"field with empty name", mutate(t, invoiceIR, set("/program/input/fields/0/name", "")), "/program/input/fields/0/name"},
		{"field of unknown type", mutate(t, invoiceIR, set("/program/output/fields/4/type", "number")), "/program/output/fields/4/type"},
		{"field with unknown key", mutate(t, invoiceIR, set("/program/output/fields/4/nullable", true)), "/program/output/fields/4"},
		{"enum without values", mutate(t, invoiceIR, set("/program/output/fields/0/type", "enum")), "/program/output/fields/0"},
		{"enum with empty values", mutate(t, invoiceIR, set("/program/output/fields/0", obj("name", "c", "type", "enum", "values", []any{}))), "/program/output/fields/0/values"},
		{"enum with duplicate values", mutate(t, invoiceIR, set("/program/output/fields/0", obj("name", "c", "type", "enum", "values", []any{"a", "a"}))), "/program/output/fields/0/values"},
		{"enum with empty value", mutate(t, invoiceIR, set("/program/output/fields/0", obj("name", "c", "type", "enum", "values", []any{"a", ""}))), "/program/output/fields/0/values/1"},
		{"values on a string", mutate(t, invoiceIR, set("/program/output/fields/0/values", []any{"a"})), "/program/output/fields/0/values"},
		{"object without fields", mutate(t, invoiceIR, set("/program/output/fields/0/type", "object")), "/program/output/fields/0"},
		{"object with empty fields", mutate(t, invoiceIR, set("/program/output/fields/0", obj("name", "s", "type", "object", "fields", []any{}))), "/program/output/fields/0/fields"},
		{"fields on a string", mutate(t, invoiceIR, set("/program/output/fields/0/fields", []any{obj("name", "x", "type", "int")})), "/program/output/fields/0/fields"},
		{"bad nested field", mutate(t, invoiceIR, set("/program/output/fields/0", obj("name", "s", "type", "object", "fields", []any{obj("name", "x", "type", "enum")}))), "/program/output/fields/0/fields/0"},
		{"wrong evaluator", mutate(t, invoiceIR, set("/scoring/evaluator", "fuzzy")), "/scoring/evaluator"},
		{"wrong instance aggregator", mutate(t, invoiceIR, set("/scoring/instance_aggregator", "mean")), "/scoring/instance_aggregator"},
		{"wrong benchmark aggregator", mutate(t, invoiceIR, set("/scoring/benchmark_aggregator", "median")), "/scoring/benchmark_aggregator"},
		{"no dimensions", mutate(t, invoiceIR, set("/scoring/dimensions", []any{})), "/scoring/dimensions"},
		{"dimension weight -1", mutate(t, invoiceIR, set("/scoring/dimensions/0/weight", -1)), "/scoring/dimensions/0/weight"},
		{"dimension weight a string", mutate(t, invoiceIR, set("/scoring/dimensions/0/weight", "1")), "/scoring/dimensions/0/weight"},
		{"dimension without weight", mutate(t, invoiceIR, del("/scoring/dimensions/0/weight")), "/scoring/dimensions/0"},
		{"dimension with empty path", mutate(t, invoiceIR, set("/scoring/dimensions/0/path", []any{})), "/scoring/dimensions/0/path"},
		{"dimension path with empty key", mutate(t, invoiceIR, set("/scoring/dimensions/0/path", []any{"a", ""})), "/scoring/dimensions/0/path/1"},
		{"dimension path a string", mutate(t, invoiceIR, set("/scoring/dimensions/0/path", "total")), "/scoring/dimensions/0/path"},
		{"dimension of type object", mutate(t, invoiceIR, set("/scoring/dimensions/0/type", "object")), "/scoring/dimensions/0/type"},
		{"dimension with unknown key", mutate(t, invoiceIR, set("/scoring/dimensions/0/tolerance", 0.1)), "/scoring/dimensions/0"},
		{"data format csv", mutate(t, invoiceIR, set("/data/format", "csv")), "/data/format"},
		{"data path empty", mutate(t, invoiceIR, set("/data/path", "")), "/data/path"},
		{"data without path", mutate(t, invoiceIR, del("/data/path")), "/data"},
		{"external with provider", mutate(t, invoiceIR, set("/ai_system/provider", "openai")), "/ai_system"},
		{"external without id", mutate(t, invoiceIR, del("/ai_system/id")), "/ai_system"},
		{"external with empty id", mutate(t, invoiceIR, set("/ai_system/id", "")), "/ai_system"},
		{"unknown system type", mutate(t, invoiceIR, set("/ai_system/type", "human")), "/ai_system"},
		{"model without model", mutate(t, invoiceIR, set("/ai_system", obj("type", "model", "provider", "openai"))), "/ai_system"},
		{"model with id", mutate(t, invoiceIR, set("/ai_system", model("id", "x"))), "/ai_system"},
		{"model with empty prompt", mutate(t, invoiceIR, set("/ai_system", model("prompt", ""))), "/ai_system"},
		{"model with empty parameters", mutate(t, invoiceIR, set("/ai_system", model("parameters", obj()))), "/ai_system"},
		{"model parameter null", mutate(t, invoiceIR, set("/ai_system", model("parameters", obj("temperature", nil)))), "/ai_system"},
		{"model parameter object", mutate(t, invoiceIR, set("/ai_system", model("parameters", obj("x", obj("y", 1))))), "/ai_system"},
		{"model parameter array", mutate(t, invoiceIR, set("/ai_system", model("parameters", obj("stop", []any{"a"})))), "/ai_system"},
		{"not an object", []byte(`[]`), "at ''"},
	}
	for _, tt := range tests {
		err := Validate(tt.ir)
		if err == nil {
			t.Errorf("%s: Validate accepted\n%s", tt.name, tt.ir)
			continue
		}
		if !strings.Contains(err.Error(), tt.at) {
			t.Errorf("%s: error does not name %s:\n%v", tt.name, tt.at, err)
		}
	}
}

func TestValidateRejectsBadJSON(t *testing.T) {
	for _, in := range []string{``, `{`, invoiceIR + `}`, invoiceIR + ` {}`} {
		if err := Validate([]byte(in)); err == nil {
			t.Errorf("Validate accepted %q", in)
		}
	}
}

// The schema's type lists must track Types: dimensions take exactly the leaf types and
// fields take those plus object.
func TestSchemaTypesMatchTypes(t *testing.T) {
	var s struct {
		ID   string `json:"$id"`
		Defs struct {
			Field struct {
				Properties struct{ Type struct{ Enum []string } }
			}
			Dimension struct {
				Properties struct{ Type struct{ Enum []string } }
			}
		} `json:"$defs"`
	}
	if err := json.Unmarshal(JSON, &s); err != nil {
		t.Fatal(err)
	}
	if s.ID != "https://benchy.dev/schema/ir-1.0.json" {
		t.Errorf("$id = %q", s.ID)
	}
	if got := s.Defs.Dimension.Properties.Type.Enum; !reflect.DeepEqual(got, ir.Types) {
		t.Errorf("dimension types = %v, want %v", got, ir.Types)
	}
	want := append(append([]string(nil), ir.Types...), ir.TypeObject)
	if got := s.Defs.Field.Properties.Type.Enum; !reflect.DeepEqual(got, want) {
		t.Errorf("field types = %v, want %v", got, want)
	}
}

// invoiceIR is the paper's invoice example as canonical IR, compiled from the engine's fixture.
var invoiceIR = func() string {
	src, err := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	if err != nil {
		panic(err)
	}
	canonical, _, ds := compiler.CompileCanonical(src)
	if len(ds) > 0 {
		panic(ds.Error())
	}
	return string(canonical)
}()

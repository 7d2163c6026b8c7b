package form

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/compiler"
)

// The paper's example read into the form and written back is the same benchmark, in
// canonical form.
func TestRoundTripExample(t *testing.T) {
	src, err := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml") // the paper's example
	if err != nil {
		t.Fatal(err)
	}
	d, ok := FromYAML(string(src))
	if !ok {
		t.Fatal("example does not parse")
	}
	if d.Weights["total"] != "5" || len(d.Output) != 5 || d.SystemID != "invoice-extractor-v7" {
		t.Fatalf("form = %+v", d)
	}
	out := d.Canonical()
	_, h1, ds := compiler.CompileCanonical(src)
	_, h2, ds2 := compiler.CompileCanonical([]byte(out))
	if len(ds) > 0 || len(ds2) > 0 || h1 != h2 {
		t.Fatalf("hash %s vs %s; diags %v %v\n%s", h1, h2, ds, ds2, out)
	}
	formatted, err := compiler.Format([]byte(out))
	if err != nil || string(formatted) != out {
		t.Fatalf("form YAML is not canonical:\n%s\nfmt:\n%s (%v)", out, formatted, err)
	}
}

// Every template compiles as it is, and survives YAML -> form -> YAML unchanged.
func TestTemplates(t *testing.T) {
	for _, task := range []string{"extract", "classify", "transcribe", "translate"} {
		t.Run(task, func(t *testing.T) {
			y := New(task).Canonical()
			if _, ds := compiler.Compile([]byte(y)); len(ds) > 0 {
				t.Fatalf("template does not compile: %v\n%s", ds, y)
			}
			d, ok := FromYAML(y)
			if !ok {
				t.Fatal("template YAML does not parse")
			}
			if again := d.Canonical(); again != y {
				t.Fatalf("round trip changed the YAML:\n%s\nvs\n%s", y, again)
			}
		})
	}
}

func TestNestedModelAndQuoting(t *testing.T) {
	d := New("extract")
	d.Output = []Field{
		{Name: "supplier", Type: "object", Children: []Field{{Name: "name", Type: "string"}, {Name: "tax id", Type: "string"}}},
		{Name: "kind", Type: "enum", Members: []string{"yes", "no", "a b"}},
	}
	d.SyncWeights()
	d.Weights["kind"] = "2.5"
	d.SystemType, d.Provider, d.Model, d.Prompt = "model", "openai", "gpt-4o-mini", "./prompt.md"
	d.Params = []Param{{"json", "true"}, {"seed", "42"}, {"stop", "END"}, {"temperature", "0"}} // canonical order: sorted
	y := d.Canonical()
	if _, ds := compiler.Compile([]byte(y)); len(ds) > 0 {
		t.Fatalf("does not compile: %v\n%s", ds, y)
	}
	back, _ := FromYAML(y)
	if !reflect.DeepEqual(back.Output, d.Output) || !reflect.DeepEqual(back.Params, d.Params) {
		t.Fatalf("round trip: %+v\n%+v", back.Output, back.Params)
	}
	if want := []string{"supplier.name", "supplier.tax id", "kind"}; !reflect.DeepEqual(d.Leaves(), want) {
		t.Fatalf("leaves %v", d.Leaves())
	}
	if back.Weights["kind"] != "2.5" || back.Weights["supplier.tax id"] != "1" {
		t.Fatalf("weights %v", back.Weights)
	}
}

// A YAML that parses but is far from valid still fills what it can.
func TestFromInvalid(t *testing.T) {
	d, ok := FromYAML("benchmark: {task: clasify}\nprogram: 3\n")
	if !ok || d.Task != "clasify" || d.Output != nil {
		t.Fatalf("%+v %v", d, ok)
	}
	if _, ok := FromYAML("a: [\n"); ok {
		t.Fatal("broken YAML filled the form")
	}
}

// The form keeps the comment lines heading a file, and the result is still canonical.
func TestHeader(t *testing.T) {
	src := "# The paper's invoice example.\n#\n# yaml-language-server: $schema=x\n\nversion: \"1.0\"\n# inner\nbenchmark: {}\n"
	if h := Header(src); h != "# The paper's invoice example.\n#\n# yaml-language-server: $schema=x\n" {
		t.Fatalf("Header = %q", h)
	}
	if h := Header("version: \"1.0\"\n# late\n"); h != "" {
		t.Fatalf("Header of a file without one = %q", h)
	}
	d := New("classify")
	out := WithHeader(d.Canonical(), Header(src))
	if !strings.HasPrefix(out, "# The paper's invoice example.\n") {
		t.Fatalf("header lost:\n%s", out)
	}
	if f, err := compiler.Format([]byte(out)); err != nil || string(f) != out {
		t.Fatalf("not canonical:\n%s\nfmt:\n%s (%v)", out, f, err)
	}
	if _, ds := compiler.Compile([]byte(out)); len(ds) > 0 {
		t.Fatal(ds)
	}
	if WithHeader("a: 1\n", "") != "a: 1\n" {
		t.Fatal("no header changed the text")
	}
}

func TestMoveWeights(t *testing.T) {
	d := New("extract")
	d.Output = []Field{{Name: "total", Type: "float"}, {Name: "supplier", Type: "object", Children: []Field{{Name: "name", Type: "string"}, {Name: "id", Type: "string"}}}}
	d.SyncWeights()
	d.Weights["total"], d.Weights["supplier.name"], d.Weights["supplier.id"] = "7", "2", "3"
	d.Output[0].Name = "amount"
	d.MoveWeights("total", "amount")
	d.Output[1].Name = "vendor"
	d.MoveWeights("supplier", "vendor")
	d.SyncWeights()
	want := map[string]string{"amount": "7", "vendor.name": "2", "vendor.id": "3"}
	if !reflect.DeepEqual(d.Weights, want) {
		t.Fatalf("weights %v, want %v", d.Weights, want)
	}
}

package form

import (
	"os"
	"reflect"
	"slices"
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
	if weightOf(d, "total") != "5" || len(d.Output) != 5 || d.SystemID != "invoice-extractor-v7" {
		t.Fatalf("form = %+v", d)
	}
	out := d.Canonical()
	_, h1, ds := compiler.CompileCanonical(src)
	_, h2, ds2 := compiler.CompileCanonical([]byte(out))
	if len(ds) > 0 || len(ds2) > 0 || h1 != h2 {
		t.Fatalf("hash %s vs %s; diags %v %v\n%s", h1, h2, ds, ds2, out)
	}
	formatted, ds := compiler.Format([]byte(out))
	if len(ds) > 0 || string(formatted) != out {
		t.Fatalf("form YAML is not canonical:\n%s\nfmt:\n%s (%v)", out, formatted, ds)
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
		{Name: "kind", Type: "enum", Members: []string{"yes", "no", "a b", "x, y", "[z]", "null"}}, // chips: a member may hold a comma
	}
	d.SyncWeights()
	d.SetWeight([]int{1}, "2.5")
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
	if want := []string{"supplier.name", "supplier.tax id", "kind"}; !reflect.DeepEqual(leafNames(d), want) {
		t.Fatalf("leaves %v", d.Leaves())
	}
	if weightOf(back, "kind") != "2.5" || weightOf(back, "supplier", "tax id") != "1" {
		t.Fatalf("weights %v", back.Leaves())
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
	if _, ok := FromYAML("a: 1\na: 2\n"); ok {
		t.Fatal("a duplicate key filled the form")
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
	if f, ds := compiler.Format([]byte(out)); len(ds) > 0 || string(f) != out {
		t.Fatalf("not canonical:\n%s\nfmt:\n%s (%v)", out, f, ds)
	}
	if _, ds := compiler.Compile([]byte(out)); len(ds) > 0 {
		t.Fatal(ds)
	}
	if WithHeader("a: 1\n", "") != "a: 1\n" {
		t.Fatal("no header changed the text")
	}
}

// Renaming an output field, a leaf or an object, keeps its weights: they are on the leaves.
func TestRenameKeepsWeights(t *testing.T) {
	d := New("extract")
	d.Output = []Field{{Name: "total", Type: "float"}, {Name: "supplier", Type: "object", Children: []Field{{Name: "name", Type: "string"}, {Name: "id", Type: "string"}}}}
	d.SyncWeights()
	d.SetWeight([]int{0}, "7")
	d.SetWeight([]int{1, 0}, "2")
	d.SetWeight([]int{1, 1}, "3")
	d.Output[0].Name = "amount"
	d.Output[1].Name = "vendor"
	d.SyncWeights()
	got := map[string]string{}
	for _, l := range d.Leaves() {
		got[l.String()] = l.Weight
	}
	want := map[string]string{"amount": "7", "vendor.name": "2", "vendor.id": "3"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("weights %v, want %v", got, want)
	}
}

// An emptied weight stays empty (the compiler then reports it) instead of becoming 1 again
// while the author types; a new leaf gets 1, and an object holds none.
func TestSyncWeights(t *testing.T) {
	d := New("extract")
	d.SetWeight([]int{0}, "")
	d.Output = append(d.Output, Field{Name: "x", Type: "string"}, Field{Name: "o", Type: "object", Weight: new("4"), Children: []Field{{Name: "y", Type: "int"}}})
	d.Input[0].Weight = new("9")
	d.SyncWeights()
	if got := []string{weightOf(d, "total"), weightOf(d, "x"), weightOf(d, "o", "y")}; !reflect.DeepEqual(got, []string{"", "1", "1"}) {
		t.Fatalf("weights %q", got)
	}
	if d.Output[2].Weight != nil || d.Input[0].Weight != nil {
		t.Fatal("an object or an input field kept a weight")
	}
}

// Field names may hold dots: "a.b" beside a: {b} are two dimensions, each with its own
// weight, through the form and back, and editing one leaves the other. The form used to key
// weights by dotted path, so both read "a.b" and one weight landed on both fields.
func TestFormWeightsDottedNames(t *testing.T) {
	for name, output := range map[string]string{
		"dotted first": "    \"a.b\": string\n    a:\n      b: string\n",
		"nested first": "    a:\n      b: string\n    \"a.b\": string\n",
	} {
		t.Run(name, func(t *testing.T) {
			src := `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: extract
  domain: finance
  language: en
program:
  input:
    document: document
  output:
` + output + `scoring:
  weights:
    "a.b": 2
    a:
      b: 3
  aggregator: weighted_mean
data:
  path: ./data/documents.jsonl
ai-system:
  type: external
  id: x
`
			dotted, nested := []string{"a.b"}, []string{"a", "b"}
			want := map[string]float64{`"a.b"`: 2, "a.b": 3}
			checkIR(t, src, want)
			d, ok := FromYAML(src)
			if !ok {
				t.Fatal("does not parse")
			}
			if weightOf(d, dotted...) != "2" || weightOf(d, nested...) != "3" {
				t.Fatalf("read weights %v", d.Leaves())
			}
			out := d.Canonical()
			checkIR(t, out, want)
			back, _ := FromYAML(out)
			if !reflect.DeepEqual(back.Output, d.Output) {
				t.Fatalf("round trip changed the output: %+v vs %+v", back.Output, d.Output)
			}

			back.SetWeight(leafAt(t, back, dotted...), "7")
			if weightOf(back, nested...) != "3" {
				t.Fatalf("editing \"a.b\" changed a.b: %v", back.Leaves())
			}
			checkIR(t, back.Canonical(), map[string]float64{`"a.b"`: 7, "a.b": 3})
			back.SetWeight(leafAt(t, back, nested...), "0.5")
			if weightOf(back, dotted...) != "7" {
				t.Fatalf("editing a.b changed \"a.b\": %v", back.Leaves())
			}
			checkIR(t, back.Canonical(), map[string]float64{`"a.b"`: 7, "a.b": 0.5})
		})
	}
}

// checkIR compiles src and checks the weight of each dimension, by its Leaf.String path.
func checkIR(t *testing.T, src string, want map[string]float64) {
	t.Helper()
	b, ds := compiler.Compile([]byte(src))
	if len(ds) > 0 {
		t.Fatalf("does not compile: %v\n%s", ds, src)
	}
	got := map[string]float64{}
	for _, dim := range b.Scoring.Dimensions {
		got[Leaf{Path: dim.Path}.String()] = dim.Weight
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("IR weights %v, want %v\n%s", got, want, src)
	}
}

// leafAt is the index path of the output leaf at path.
func leafAt(t *testing.T, d *Doc, path ...string) []int {
	t.Helper()
	for _, l := range d.Leaves() {
		if slices.Equal(l.Path, path) {
			return l.At
		}
	}
	t.Fatalf("no leaf %q in %v", path, d.Leaves())
	return nil
}

// weightOf is the weight of the output leaf at path, "-" when there is no such leaf.
func weightOf(d *Doc, path ...string) string {
	for _, l := range d.Leaves() {
		if slices.Equal(l.Path, path) {
			return l.Weight
		}
	}
	return "-"
}

func leafNames(d *Doc) []string {
	var out []string
	for _, l := range d.Leaves() {
		out = append(out, l.String())
	}
	return out
}

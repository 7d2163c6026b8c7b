package form

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// An edit in the form, whatever the YAML's problem, changes only the value edited: every
// other value of the text (an unknown key's, a weight the form did not read) stays as it
// was. The weigths row is the loss the editor had: a weight typed into the form rewrote the
// YAML with default weights (total: 5 became total: 1) and dropped the misspelt section.
func TestEditKeepsTheRest(t *testing.T) {
	example, err := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base := string(example)
	sources := []struct{ name, src, code string }{
		{"valid", base, ""},
		{"unknown key", strings.Replace(base, "  weights:", "  weigths:", 1), "unknown_key"},
		{"bad weight", strings.Replace(base, "total: 5", `total: "high"`, 1), "invalid_weight"},
		{"bad type", strings.Replace(base, "date: date", "date: dat", 1), "invalid_schema"},
		{"bad enum", strings.Replace(strings.Replace(base, "    total: float", "    total: float\n    kind: {enum: a}", 1), "total: 5", "total: 5\n    kind: 1", 1), ""},
		{"missing key", strings.Replace(base, "data:\n  path: ./data/invoices.jsonl\n", "", 1), "missing_key"},
		{"unknown key in ai-system", strings.Replace(base, "  id: invoice-extractor-v7", "  id: invoice-extractor-v7\n  idd: other", 1), "unknown_key"},
	}
	edits := []struct {
		control string
		parts   []string // the places the edit may change
		edit    func(d *Doc)
	}{
		{"domain input", []string{"benchmark.domain"}, func(d *Doc) { d.Domain = "legal" }},
		{"language input", []string{"benchmark.language"}, func(d *Doc) { d.Language = "fr" }},
		{"task select", []string{"benchmark.task"}, func(d *Doc) { d.Task = "classify" }},
		{"weight input", []string{"scoring.weights.total"}, func(d *Doc) { d.SetWeight([]int{4}, "7") }},
		{"field name", []string{"program.output.supplier", "program.output.vendor", "scoring.weights.supplier", "scoring.weights.vendor"},
			func(d *Doc) { d.Output[2].Name = "vendor" }},
		{"field type", []string{"program.output.subtotal"}, func(d *Doc) { d.Output[3].Type = "int" }},
		{"enum members", []string{"program.output.supplier"}, func(d *Doc) {
			d.Output[2].Type, d.Output[2].Members = "enum", []string{"a", "b"}
		}},
		{"add field", []string{"program.output.field", "scoring.weights.field"}, func(d *Doc) {
			d.Output = append(d.Output, Field{Name: "field", Type: "string"})
		}},
		{"data path", []string{"data.path"}, func(d *Doc) { d.DataPath = "./other.jsonl" }},
		{"system id", []string{"ai-system.id"}, func(d *Doc) { d.SystemID = "v8" }},
		{"system type", []string{"ai-system"}, func(d *Doc) { d.SystemType, d.Provider, d.Model = "model", "openai", "gpt" }},
	}
	for _, s := range sources {
		if s.code != "" {
			if _, _, ds := compiler.CompileCanonical([]byte(s.src)); !hasCode(ds, s.code) {
				t.Fatalf("%s: the source does not carry %s: %v", s.name, s.code, ds)
			}
		}
		for _, e := range edits {
			t.Run(s.name+"/"+e.control, func(t *testing.T) {
				d, ok := FromYAML(s.src)
				if !ok {
					t.Fatal("does not parse")
				}
				e.edit(d)
				d.SyncWeights() // as the editor does before writing
				out := WithHeader(d.Canonical(), Header(s.src))
				before, after := values(t, s.src), values(t, out)
				for k, v := range before {
					if w, ok := after[k]; !under(k, e.parts) && (!ok || w != v) {
						t.Errorf("%s was %q, is %q (present %v)\n%s", k, v, w, ok, out)
					}
				}
				for k, w := range after {
					if _, ok := before[k]; !ok && !under(k, e.parts) {
						t.Errorf("%s = %q added\n%s", k, w, out)
					}
				}
			})
		}
	}
}

// While scoring holds a misspelt weights section, the weights are locked, and say why.
func TestLockedWeights(t *testing.T) {
	src, _ := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	d, _ := FromYAML(strings.Replace(string(src), "  weights:", "  weigths:", 1))
	locks := d.Locked()
	if len(locks) != 1 || locks[0].Part != "scoring.weights" || !strings.Contains(locks[0].Reason, "weigths") {
		t.Fatalf("locked = %+v", locks)
	}
	if d, _ := FromYAML(string(src)); d.Locked() != nil {
		t.Fatalf("the example locks %+v", d.Locked())
	}
}

func hasCode(ds any, code string) bool { return strings.Contains(fmt.Sprint(ds), code) }

// values is every scalar of a YAML text by its dotted path (list items by index).
func values(t *testing.T, src string) map[string]string {
	t.Helper()
	root, ds, _ := yamlnode.Parse([]byte(src), yamlnode.Options{})
	if root == nil || len(ds) > 0 {
		t.Fatalf("does not parse: %v\n%s", ds, src)
	}
	out := map[string]string{}
	var walk func(path string, n *yamlnode.Node)
	walk = func(path string, n *yamlnode.Node) {
		switch n.Kind {
		case yamlnode.Map:
			for _, p := range n.Pairs {
				walk(path+"."+p.Key, p.Value)
			}
		case yamlnode.Seq:
			for i, it := range n.Items {
				walk(fmt.Sprintf("%s.%d", path, i), it)
			}
		default:
			out[strings.TrimPrefix(path, ".")] = n.Text
		}
	}
	walk("", root)
	return out
}

func under(k string, parts []string) bool {
	for _, p := range parts {
		if k == p || strings.HasPrefix(k, p+".") {
			return true
		}
	}
	return false
}

// Switching task keeps the language as translate's source and names the target it adds;
// back again, the source is the language and nothing is added.
func TestSetTask(t *testing.T) {
	d := New("extract")
	d.Language = "fr"
	if n := d.SetTask("translate"); d.Source != "fr" || d.Target != "en" || !strings.Contains(n, "target: en") {
		t.Fatalf("to translate: %+v, notice %q", d, n)
	}
	if n := d.SetTask("extract"); d.Language != "fr" || d.Source != "" || n != "" {
		t.Fatalf("from translate: %+v, notice %q", d, n)
	}
}

// A duplicate key pauses the form as duplicate_key at its line, like the CLI, not as a text
// that does not parse.
func TestPausedDuplicateKey(t *testing.T) {
	src := "version: \"1.0\"\nbenchmark:\n  task: extract\n  task: classify\n"
	if got := Paused(src); !strings.HasPrefix(got, "4:3: duplicate_key:") {
		t.Fatalf("Paused = %q", got)
	}
	if _, ok := FromYAML(src); ok {
		t.Fatal("the form reads a text whose duplicate it would drop")
	}
	if got := Paused("version: \"1.0\"\n"); got != "" {
		t.Fatalf("Paused(valid) = %q", got)
	}
}

// A form edit on a text read from YAML keeps its comments, the header once, and a renamed
// output field keeps its weight.
func TestEditKeepsCommentsAndWeight(t *testing.T) {
	src, _ := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	text := strings.Replace(string(src), "  total: 5\n", "  # the one that matters\n    total: 5\n", 1)
	d, ok := FromYAML(text)
	if !ok {
		t.Fatal("does not parse")
	}
	d.Domain = "legal"
	d.SyncWeights()
	if out := d.Canonical(); !strings.Contains(out, "    # the one that matters\n    total: 5\n") {
		t.Fatalf("a domain edit dropped a comment:\n%s", out)
	}
	d.Output[4].Name = "grand_total"
	d.SyncWeights()
	out := WithHeader(d.Canonical(), Header(text))
	if strings.Count(out, "# The paper's invoice example") != 1 || !strings.Contains(out, "    grand_total: 5\n") {
		t.Fatalf("out:\n%s", out)
	}
	if formatted, ds := compiler.Format([]byte(out)); len(ds) > 0 || string(formatted) != out {
		t.Fatalf("not canonical: %v\n%s", ds, out)
	}
}

// A form edit inside a part changes only the entry edited: the part's other entries keep
// their comments and their spelling (0x1 stayed valid only unquoted; the whole part was
// written from the form, comments dropped and 0x1 quoted into an invalid weight), a renamed
// entry keeps the comments above it, and an edited value keeps its line comment.
func TestEditKeepsEntries(t *testing.T) {
	example, err := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(example)
	for _, r := range [][2]string{
		{"    image: image\n", "    image: image  # a scan\n"},
		{"    supplier: string\n", "    # the seller, as printed\n    supplier: string  # who\n"},
		{"    date: 1\n", "    date: 0.50  # half\n"}, // the writer spells it 0.5 # half
		{"    subtotal: 1\n", "    subtotal: 0x1\n"},  // and this 1, as benchy fmt does
		{"    total: 5\n", "    total: 5  # what counts\n"},
	} {
		if !strings.Contains(src, r[0]) {
			t.Fatalf("the example lacks %q", r[0])
		}
		src = strings.Replace(src, r[0], r[1], 1)
	}
	if _, _, ds := compiler.CompileCanonical([]byte(src)); len(ds) > 0 {
		t.Fatalf("the source is invalid: %v", ds)
	}
	for _, c := range []struct {
		name string
		edit func(d *Doc)
		want []string // lines the text must keep or gain
	}{
		{"a weight", func(d *Doc) { d.SetWeight([]int{2}, "2") }, []string{
			"    supplier: 2\n", "    date: 0.5 # half\n", "    subtotal: 1\n", "    # the seller, as printed\n", "    supplier: string # who\n"}},
		{"a weighted value", func(d *Doc) { d.SetWeight([]int{4}, "6") }, []string{"    total: 6 # what counts\n", "    subtotal: 1\n"}},
		{"an output renamed", func(d *Doc) { d.Output[3].Name = "net" }, []string{
			"    # the seller, as printed\n", "    supplier: string # who\n", "    date: 0.5 # half\n", "    net: float\n"}},
		{"the field with comments renamed", func(d *Doc) { d.Output[2].Name = "vendor" }, []string{
			"    # the seller, as printed\n    vendor: string # who\n", "    vendor: 1\n", "    subtotal: 1\n"}},
		{"an input renamed", func(d *Doc) { d.Input[0].Name = "scan" }, []string{"    scan: image # a scan\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, ok := FromYAML(src)
			if !ok {
				t.Fatal("does not parse")
			}
			c.edit(d)
			d.SyncWeights()
			out := d.Canonical()
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("the text lacks %q:\n%s", w, out)
				}
			}
			if _, _, ds := compiler.CompileCanonical([]byte(out)); len(ds) > 0 {
				t.Errorf("the edit made the text invalid: %v\n%s", ds, out)
			}
		})
	}
}

// A misspelt section (scorng: for scoring:) locks every part the form would otherwise
// write into a new section of that name, with defaults (weights of 1, a benchmark with a
// domain and no task), leaving the misspelt one behind; an edit of a locked part changes
// nothing, and the other sections stay editable.
func TestLockedMisspeltSection(t *testing.T) {
	example, err := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		section, typo string
		edit          func(d *Doc)
	}{
		{"scoring", "scorng", func(d *Doc) { d.SetWeight([]int{4}, "3") }},
		{"benchmark", "benchmrk", func(d *Doc) { d.Domain = "retail" }},
		{"data", "dta", func(d *Doc) { d.DataPath = "./other.jsonl" }},
		{"ai-system", "ai-sytem", func(d *Doc) { d.SystemID = "v8" }},
		{"program", "progam", func(d *Doc) { d.Output = append(d.Output, Field{Name: "field", Type: "string"}) }},
	} {
		t.Run(c.typo, func(t *testing.T) {
			src := strings.Replace(string(example), "\n"+c.section+":", "\n"+c.typo+":", 1)
			d, ok := FromYAML(src)
			if !ok {
				t.Fatal("does not parse")
			}
			locks := d.Locked()
			if len(locks) == 0 {
				t.Fatal("nothing is locked")
			}
			for _, l := range locks {
				if c.section == "program" && l.Part == "scoring.weights" {
					continue // the weights of outputs the form cannot read
				}
				if !strings.HasPrefix(l.Part, c.section+".") || !strings.Contains(l.Reason, c.typo) {
					t.Errorf("locked %s: %s", l.Part, l.Reason)
				}
			}
			c.edit(d)
			d.SyncWeights()
			out := d.Canonical()
			before, after := values(t, src), values(t, out)
			if len(before) != len(after) {
				t.Errorf("the edit added or dropped values:\n%s", out)
			}
			for k, v := range before {
				if after[k] != v {
					t.Errorf("%s was %q, is %q", k, v, after[k])
				}
			}
			// Another section is still edited.
			d.Task = "transcribe"
			if c.section != "benchmark" && !strings.Contains(d.Canonical(), "task: transcribe") {
				t.Errorf("the task edit did not take:\n%s", d.Canonical())
			}
		})
	}
}

// A text whose comments the form could not keep (one inside a flow mapping: benchy fmt
// refuses it as unplaced_comment) is not the form's to write: FromYAML says it does not
// read it, and Paused says why. The form wrote it from its own defaults, weigths: and
// every comment dropped, and the text became "valid".
func TestCommentsTheFormCannotKeep(t *testing.T) {
	example, err := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(example), `  weights:
    invoice_number: 1
    date: 1
    supplier: 1
    subtotal: 1
    total: 5
`, `  weigths: {
    invoice_number: 1, date: 1, supplier: 1, subtotal: 1,
    # money
    total: 5
  }
`, 1)
	if src == string(example) {
		t.Fatal("the example's weights are not the ones this test rewrites")
	}
	if _, ok := FromYAML(src); ok {
		t.Error("FromYAML reads a text whose comments it cannot keep")
	}
	if why := Paused(src); !strings.Contains(why, "comment") {
		t.Errorf("Paused = %q, want the comment's diagnostic", why)
	}
}

// An enum's members edited (a chip added) keep their comments and the list its style.
func TestEditKeepsMembers(t *testing.T) {
	src := `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: classify
  domain: general
  language: en
program:
  input:
    text: string
  output:
    label:
      enum:
        - positive # good
        - neutral # meh
        - negative
scoring:
  weights:
    label: 1
  aggregator: weighted_mean
data:
  path: ./data.jsonl
ai-system:
  type: external
  id: sentiment
`
	d, ok := FromYAML(src)
	if !ok {
		t.Fatal("does not parse")
	}
	d.Output[0].Members = append(d.Output[0].Members, "mixed")
	out := d.Canonical()
	for _, w := range []string{"- positive # good\n", "- neutral # meh\n", "- negative\n", "- mixed\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("the text lacks %q:\n%s", w, out)
		}
	}
}

// A leaf the text gives no weight (a field just added in the YAML) leaves the weights
// editable: the form shows it as 1 and writes that only with an edit of the weights (the
// whole of scoring.weights was locked, so the form could not add the weight asked for).
func TestMissingWeightNotLocked(t *testing.T) {
	example, err := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(example), "    total: float\n", "    total: float\n    currency: string\n", 1)
	d, ok := FromYAML(src)
	if !ok {
		t.Fatal("does not parse")
	}
	if locks := d.Locked(); len(locks) > 0 {
		t.Fatalf("locked: %+v", locks)
	}
	d.Domain = "retail"
	if out := d.Canonical(); strings.Contains(out, "currency: 1") {
		t.Errorf("a domain edit wrote the missing weight:\n%s", out)
	}
	d.SetWeight([]int{5}, "2")
	out := d.Canonical()
	if !strings.Contains(out, "    currency: 2\n") || !strings.Contains(out, "    total: 5\n") {
		t.Errorf("the weight edit:\n%s", out)
	}
}

package editor

import (
	"os"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/web/form"
)

func TestOffsetUTF16(t *testing.T) {
	s := "ab\nñ😀x\n\nend"
	for _, c := range []struct{ line, col, want int }{
		{1, 1, 0}, {1, 3, 2}, {2, 1, 3}, {2, 2, 4}, {2, 3, 6}, {2, 4, 7},
		{2, 99, 7}, // past the end of a line: its end
		{3, 1, 8}, {4, 2, 10},
		{9, 1, 12}, // past the last line: the end
	} {
		if got := offsetUTF16(s, c.line, c.col); got != c.want {
			t.Errorf("offsetUTF16(%d:%d) = %d, want %d", c.line, c.col, got, c.want)
		}
	}
}

func TestFieldEdits(t *testing.T) {
	list := []form.Field{{Name: "field"}, {Name: "field_2"}}
	if got := freeName(list, "field"); got != "field_3" {
		t.Errorf("freeName = %q", got)
	}
	f := form.Field{Name: "x", Type: "string"}
	setType(&f, "enum")
	if len(f.Members) == 0 {
		t.Error("an enum needs members to be valid")
	}
	setType(&f, "object")
	if f.Members != nil || len(f.Children) != 1 {
		t.Errorf("object: %+v", f)
	}
	setType(&f, "int")
	if f.Children != nil {
		t.Errorf("int keeps children: %+v", f)
	}
	d := form.New("classify")
	if note := d.SetTask("translate"); d.Language != "" || d.Source != "en" || d.Target != "es" || !strings.Contains(note, "target: es") {
		t.Errorf("to translate: %+v, %q", d, note)
	}
	d.SetTask("extract")
	if d.Language != "en" || d.Source != "" {
		t.Errorf("from translate: %+v", d)
	}
}

func TestSavePath(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"b.yaml", "b.yaml", ""},
		{" ./dir/b ", "dir/b.yaml", ""},
		{"x.YAML", "x.yaml", ""},
		{"a/b.yml", "a/b.yml", ""},
		{"", "", "name the file"},
		{"../x.yaml", "", "inside the workspace"},
		{"sub/../../y.yaml", "", "inside the workspace"},
		{"/tmp/abs.yaml", "", "relative"},
		{"q?x=1.yaml", "", "cannot contain"},
		{"h#a.yaml", "", "cannot contain"},
		{"a//b.yaml", "", "empty folder"},
		{".benchy/x.yaml", "", "hidden"},
		{"benchy.runtime.yaml", "", "runtime file"},
	} {
		got, err := savePath(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("savePath(%q) = %q, %v; want %q", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("savePath(%q) = %q, %v; want an error about %q", c.in, got, err, c.err)
		}
	}
	if got := api.BenchmarkPath("my dir/a#b.yaml"); got != "/api/benchmarks/my%20dir/a%23b.yaml" {
		t.Errorf("api.BenchmarkPath = %q", got)
	}
}

// The editor's starting benchmark is the paper's example, the same IR as the one the
// engine's and the browser tests' fixture holds.
func TestPaperExample(t *testing.T) {
	fixture, err := os.ReadFile("../../engine/testdata/invoice/benchmark.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, want, ds := compiler.CompileCanonical(fixture)
	_, got, ds2 := compiler.CompileCanonical([]byte(paperExample))
	if len(ds)+len(ds2) > 0 || got != want {
		t.Fatalf("paperExample compiles to %s, the fixture to %s (%v %v)", got, want, ds, ds2)
	}
}

// TestFormPanelEditsTheCurrentDocument: the form panel reads the editor's document when it
// renders and when an event fires, not a copy of it taken as a prop: go-app would keep an
// old pointer whose document is equal to the new one (it compares props by value), and an
// edit would go to a document the editor no longer shows.
func TestFormPanelEditsTheCurrentDocument(t *testing.T) {
	e := &Page{doc: form.New("extract")}
	p := &formPanel{Owner: e}
	e.doc = form.New("extract") // New again: an equal document, another pointer
	if got := p.fieldList("output", nil); got != &e.doc.Output {
		t.Fatal("the panel edits a document the editor replaced")
	}
	for _, panel := range []*formPanel{
		{Owner: e, Parses: true},
		{Owner: e, Parses: false},
		{Owner: &Page{}, Parses: true},
	} {
		if panel.Render() == nil {
			t.Errorf("%+v rendered nothing", panel)
		}
	}
}

// TestApplySuggestion: "did you mean X?" replaces the word at the diagnostic's position, a
// key or a value, quoted or not, and nothing else; a position outside the text changes
// nothing.
func TestApplySuggestion(t *testing.T) {
	for _, c := range []struct {
		src        string
		line, col  int
		suggestion string
		want       string
		ok         bool
	}{
		{"benchmark:\n  task: extrct\n", 2, 9, "extract", "benchmark:\n  task: extract\n", true},
		{"scoring:\n  weigths:\n    a: 1\n", 2, 3, "weights", "scoring:\n  weights:\n    a: 1\n", true},
		{"a:\n  t: \"strng\" # x\n", 2, 6, "string", "a:\n  t: \"string\" # x\n", true},
		{"x: [a, bb, c]\n", 1, 8, "b", "x: [a, b, c]\n", true},
		{"ñ: vál\n", 1, 4, "val", "ñ: val\n", true},
		{"a: b\n", 3, 1, "c", "a: b\n", false},
		{"a: b\n", 1, 9, "c", "a: b\n", false},
		{"a: b\n", 0, 1, "c", "a: b\n", false},
	} {
		got, ok := applySuggestion(c.src, c.line, c.col, c.suggestion)
		if got != c.want || ok != c.ok {
			t.Errorf("applySuggestion(%q, %d:%d, %q) = %q, %v; want %q, %v", c.src, c.line, c.col, c.suggestion, got, ok, c.want, c.ok)
		}
	}
}

// Package form is the editor's model of a benchmark: what the web form shows and edits. It
// is filled from any YAML that parses and written back as canonical YAML. It is pure Go, for
// the browser.
package form

import (
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// Types are the field types of the language, in the order the type picker lists them;
// "object" is a nested field.
var Types = []string{"string", "int", "float", "bool", "enum", "date", "time", "datetime", "image", "audio", "document", "object"}

// Field is one field of the program, with its children when it is an object.
type Field struct {
	Name     string
	Type     string   // one of Types
	Members  []string // enum members
	Children []Field  // object fields
	// Weight is an output leaf's scoring weight as written: "" when emptied (written "" and
	// reported by the compiler), nil until the leaf has one (SyncWeights gives it 1). It lives
	// on the leaf, not under a dotted path, because names may hold dots ("a.b" beside a: {b})
	// and a renamed field keeps it. Replace it, never write through it: copies share it.
	Weight *string
}

// Param is one model parameter, its value as written (a number, true/false, or text).
type Param struct {
	Key, Value string
}

// Doc is a benchmark as the form edits it.
type Doc struct {
	Task, Domain    string
	Language        string  // every task but translate
	Source, Target  string  // translate
	Input, Output   []Field // output leaves carry their weights
	DataPath        string
	SystemType      string // external | model
	SystemID        string
	Provider, Model string
	Prompt          string
	Params          []Param
	Version, Onto   string // "1.0" unless the YAML says otherwise
	Aggregator      string
}

// New returns a fresh document for a task, with the fields its rules ask for.
func New(task string) *Doc {
	d := &Doc{Task: task, Domain: "general", Language: "en", Version: "1.0", Onto: "1.0",
		Aggregator: "weighted_mean", SystemType: "external"}
	switch task {
	case "classify":
		d.Input = []Field{{Name: "text", Type: "string"}}
		d.Output = []Field{{Name: "label", Type: "enum", Members: []string{"positive", "negative"}}}
		d.DataPath, d.SystemID = "./data/examples.jsonl", "my-classifier"
	case "transcribe":
		d.Input = []Field{{Name: "audio", Type: "audio"}}
		d.Output = []Field{{Name: "transcription", Type: "string"}}
		d.DataPath, d.SystemID = "./data/clips.jsonl", "my-transcriber"
	case "translate":
		d.Language, d.Source, d.Target = "", "es", "en"
		d.Input = []Field{{Name: "text", Type: "string"}}
		d.Output = []Field{{Name: "translation", Type: "string"}}
		d.DataPath, d.SystemID = "./data/sentences.jsonl", "my-translator"
	default:
		d.Task = "extract"
		d.Domain = "finance"
		d.Input = []Field{{Name: "document", Type: "document"}}
		d.Output = []Field{{Name: "total", Type: "float"}}
		d.DataPath, d.SystemID = "./data/documents.jsonl", "my-extractor"
	}
	d.SyncWeights()
	return d
}

// Leaf is one output leaf field: a scoring dimension.
type Leaf struct {
	Path   []string // the field names from the top of the output down, as the IR's dimension path
	At     []int    // the index path of the field in Doc.Output, for SetWeight
	Weight string   // as written; "" when it has none
}

// String is the leaf's path for people: names joined by dots, a name quoted when it holds a
// dot or a quote or is empty, so that "a.b" and a.b read apart.
func (l Leaf) String() string {
	parts := make([]string, len(l.Path))
	for i, n := range l.Path {
		parts[i] = n
		if n == "" || strings.ContainsAny(n, `."`) {
			parts[i] = strconv.Quote(n)
		}
	}
	return strings.Join(parts, ".")
}

// Leaves lists the output's leaf fields in declaration order: the scoring dimensions, each
// of which needs a weight.
func (d *Doc) Leaves() []Leaf {
	var out []Leaf
	var walk func(path []string, at []int, fs []Field)
	walk = func(path []string, at []int, fs []Field) {
		for i, f := range fs {
			p, a := append(slices.Clip(path), f.Name), append(slices.Clip(at), i)
			if f.Type == "object" {
				walk(p, a, f.Children)
				continue
			}
			l := Leaf{Path: p, At: a}
			if f.Weight != nil {
				l.Weight = *f.Weight
			}
			out = append(out, l)
		}
	}
	walk(nil, nil, d.Output)
	return out
}

// SetWeight sets the weight of the output leaf at the index path at (Leaf.At); it does
// nothing when no leaf is there.
func (d *Doc) SetWeight(at []int, w string) {
	fs := d.Output
	for k, i := range at {
		if i < 0 || i >= len(fs) {
			return
		}
		f := &fs[i]
		if k == len(at)-1 {
			if f.Type != "object" {
				f.Weight = &w
			}
			return
		}
		fs = f.Children
	}
}

// SyncWeights keeps one weight per output leaf: leaves without one get 1, objects and input
// fields hold none.
func (d *Doc) SyncWeights() {
	var walk func(fs []Field, output bool)
	walk = func(fs []Field, output bool) {
		for i := range fs {
			f := &fs[i]
			switch {
			case f.Type == "object" || !output:
				f.Weight = nil
			case f.Weight == nil:
				one := "1"
				f.Weight = &one
			}
			walk(f.Children, output)
		}
	}
	walk(d.Input, false)
	walk(d.Output, true)
}

// FromYAML fills a document from YAML text. ok is false when the text does not parse; a text
// that parses fills what it can, however far from valid it is.
func FromYAML(src string) (d *Doc, ok bool) {
	root, ds, _ := yamlnode.Parse([]byte(src), yamlnode.Options{})
	if root == nil || len(ds) > 0 {
		return nil, false
	}
	d = &Doc{}
	d.Version, d.Onto = str(root, "version"), str(root, "ontology_version")
	bm := mapOf(root, "benchmark")
	d.Task, d.Domain = str(bm, "task"), str(bm, "domain")
	if lang, _ := bm.Get("language"); lang != nil {
		if lang.Kind == yamlnode.Map {
			d.Source, d.Target = str(lang, "source"), str(lang, "target")
		} else {
			d.Language = scalar(lang)
		}
	}
	prog := mapOf(root, "program")
	d.Input, d.Output = fields(mapOf(prog, "input")), fields(mapOf(prog, "output"))
	sc := mapOf(root, "scoring")
	weigh(d.Output, mapOf(sc, "weights"))
	d.Aggregator = str(sc, "aggregator")
	d.DataPath = str(mapOf(root, "data"), "path")
	sys := mapOf(root, "ai-system")
	d.SystemType, d.SystemID = str(sys, "type"), str(sys, "id")
	d.Provider, d.Model, d.Prompt = str(sys, "provider"), str(sys, "model"), str(sys, "prompt")
	if ps := mapOf(sys, "parameters"); ps != nil {
		for _, p := range ps.Pairs {
			d.Params = append(d.Params, Param{Key: p.Key, Value: scalar(p.Value)})
		}
	}
	return d, true
}

// mapOf is the mapping under key in mapping n, or nil.
func mapOf(n *yamlnode.Node, key string) *yamlnode.Node {
	v, _ := n.Get(key)
	if v == nil || v.Kind != yamlnode.Map {
		return nil
	}
	return v
}

func str(n *yamlnode.Node, key string) string {
	v, _ := n.Get(key)
	return scalar(v)
}

// scalar is a scalar's text: a string's value, a number as written, a boolean as true or
// false; collections and null are "".
func scalar(n *yamlnode.Node) string {
	switch {
	case n == nil:
		return ""
	case n.Kind == yamlnode.String, n.Kind == yamlnode.Int, n.Kind == yamlnode.Float:
		return n.Text
	case n.Kind == yamlnode.Bool:
		return strconv.FormatBool(strings.EqualFold(n.Text, "true"))
	}
	return ""
}

func fields(m *yamlnode.Node) []Field {
	if m == nil {
		return nil
	}
	out := make([]Field, 0, len(m.Pairs))
	for _, p := range m.Pairs {
		f := Field{Name: p.Key}
		switch v := p.Value; {
		case v.Kind == yamlnode.Map && len(v.Pairs) == 1 && v.Pairs[0].Key == "enum":
			f.Type = "enum"
			for _, it := range v.Pairs[0].Value.Items {
				f.Members = append(f.Members, scalar(it))
			}
		case v.Kind == yamlnode.Map:
			f.Type, f.Children = "object", fields(v)
		default:
			f.Type = scalar(v)
		}
		out = append(out, f)
	}
	return out
}

// weigh puts the weights of a weight mapping on the fields it mirrors, name by name: a
// weight that names no field, or does not match its field's shape, is left out.
func weigh(fs []Field, m *yamlnode.Node) {
	if m == nil {
		return
	}
	for _, p := range m.Pairs {
		at := slices.IndexFunc(fs, func(f Field) bool { return f.Name == p.Key })
		if at < 0 {
			continue
		}
		f := &fs[at]
		isMap := p.Value.Kind == yamlnode.Map
		switch {
		case f.Type == "object" && isMap:
			weigh(f.Children, p.Value)
		case f.Type != "object" && !isMap:
			w := scalar(p.Value)
			f.Weight = &w
		}
	}
}

// YAML writes the document as canonical YAML (what `benchy fmt` prints).
func (d *Doc) YAML() string {
	var w writer
	w.line(0, "version", quote(orDefault(d.Version, "1.0"), true))
	w.line(0, "ontology_version", quote(orDefault(d.Onto, "1.0"), true))
	w.open(0, "benchmark")
	w.line(1, "task", quote(d.Task, false))
	w.line(1, "domain", quote(d.Domain, false))
	if d.Task == "translate" {
		w.open(1, "language")
		w.line(2, "source", quote(d.Source, false))
		w.line(2, "target", quote(d.Target, false))
	} else {
		w.line(1, "language", quote(d.Language, false))
	}
	w.open(0, "program")
	w.fields(1, "input", d.Input)
	w.fields(1, "output", d.Output)
	w.open(0, "scoring")
	w.weights(d)
	w.line(1, "aggregator", quote(orDefault(d.Aggregator, "weighted_mean"), false))
	w.open(0, "data")
	w.line(1, "path", quote(d.DataPath, false))
	w.open(0, "ai-system")
	w.line(1, "type", quote(d.SystemType, false))
	if d.SystemType == "model" {
		w.line(1, "provider", quote(d.Provider, false))
		w.line(1, "model", quote(d.Model, false))
		if d.Prompt != "" {
			w.line(1, "prompt", quote(d.Prompt, false))
		}
		if len(d.Params) > 0 {
			w.open(1, "parameters")
			for _, p := range d.Params {
				w.line(2, p.Key, value(p.Value))
			}
		}
	} else {
		w.line(1, "id", quote(d.SystemID, false))
	}
	return w.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

type writer struct{ strings.Builder }

func (w *writer) line(depth int, key, val string) {
	w.WriteString(strings.Repeat("  ", depth))
	w.WriteString(quote(key, false))
	w.WriteString(":")
	if val != "" {
		w.WriteString(" " + val)
	}
	w.WriteString("\n")
}

func (w *writer) open(depth int, key string) { w.line(depth, key, "") }

func (w *writer) fields(depth int, key string, fs []Field) {
	if len(fs) == 0 {
		w.line(depth, key, "{}")
		return
	}
	w.open(depth, key)
	w.fieldList(depth+1, fs)
}

func (w *writer) fieldList(depth int, fs []Field) {
	for _, f := range fs {
		switch f.Type {
		case "object":
			if len(f.Children) == 0 {
				w.line(depth, f.Name, "{}")
				continue
			}
			w.open(depth, f.Name)
			w.fieldList(depth+1, f.Children)
		case "enum":
			ms := make([]string, len(f.Members))
			for i, m := range f.Members {
				ms[i] = quoteFlow(m)
			}
			w.open(depth, f.Name)
			w.line(depth+1, "enum", "["+strings.Join(ms, ", ")+"]")
		default:
			w.line(depth, f.Name, quote(f.Type, false))
		}
	}
}

func (w *writer) weights(d *Doc) {
	var walk func(depth int, fs []Field)
	walk = func(depth int, fs []Field) {
		for _, f := range fs {
			if f.Type == "object" {
				if len(f.Children) == 0 {
					continue
				}
				w.open(depth, f.Name)
				walk(depth+1, f.Children)
				continue
			}
			weight := ""
			if f.Weight != nil {
				weight = *f.Weight
			}
			w.line(depth, f.Name, value(weight)) // an emptied weight is written "" and reported
		}
	}
	if len(d.Leaves()) == 0 {
		w.line(1, "weights", "{}")
		return
	}
	w.open(1, "weights")
	walk(2, d.Output)
}

// quote writes s as a YAML scalar: plain when it is a simple word, double-quoted otherwise
// (always when force). Canonical quoting is left to compiler.Format.
func quote(s string, force bool) string {
	if !force && plainWord(s) {
		return s
	}
	return strconv.Quote(s)
}

// quoteFlow quotes an enum member for a flow list.
func quoteFlow(s string) string { return quote(s, false) }

// plainWord reports whether s is a word YAML reads back as the same string.
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "~", "y", "n", "yes", "no", "on", "off":
		return false
	}
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '-' || r == '.' || r == '/')) {
			return false
		}
	}
	return true
}

// value writes a weight or parameter: numbers and booleans as they are, anything else
// quoted (a weight that is not a number is then reported by the compiler, not hidden).
func value(s string) string {
	s = strings.TrimSpace(s)
	if s == "true" || s == "false" {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && strings.Trim(s, "0123456789.eE+-") == "" {
		return s
	}
	return strconv.Quote(s)
}

// Canonical is the document's YAML after compiler.Format: exactly what `benchy fmt` prints.
func (d *Doc) Canonical() string {
	raw := d.YAML()
	out, err := compiler.Format([]byte(raw))
	if err != nil {
		return raw
	}
	return string(out)
}

// Header is the comment lines that open a YAML text, before its first key (blank lines
// between them included, trailing ones not).
func Header(src string) string {
	var b strings.Builder
	end := 0
	for _, line := range strings.SplitAfter(src, "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		b.WriteString(line)
		if t != "" {
			end = b.Len()
		}
	}
	return b.String()[:end]
}

// WithHeader puts header (comment lines) at the top of a canonical YAML text and formats
// the result, so that what the form writes is still what `benchy fmt` prints.
func WithHeader(canonical, header string) string {
	if header == "" {
		return canonical
	}
	if !strings.HasSuffix(header, "\n") {
		header += "\n"
	}
	out, err := compiler.Format([]byte(header + canonical))
	if err != nil {
		return header + canonical
	}
	return string(out)
}

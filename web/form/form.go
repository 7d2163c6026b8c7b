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

	src string // the YAML text the document was read from: edits are written into it (patch.go)
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

// FromYAML fills a document from YAML text. ok is false when the text does not parse, or
// its comments cannot be kept (the form would drop them: Paused says why); a text that
// parses fills what it can, however far from valid it is.
func FromYAML(src string) (d *Doc, ok bool) {
	// Read as the form writes it back, comments kept: a text whose comments cannot be
	// placed (unplaced_comment) is not the form's to write, or its comments would go.
	root, ds, _ := yamlnode.Parse([]byte(src), yamlnode.Options{Comments: true})
	if root == nil || len(ds) > 0 {
		return nil, false
	}
	d = &Doc{src: src}
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

// Canonical is the document as canonical YAML, written by the compiler's one writer
// (compiler.Write): exactly what `benchy fmt` prints of it. A document read from YAML is
// written as that text with the parts the form changed replaced, so that nothing the form
// cannot show is dropped or reset (an unknown key, a misspelt section, comments); a part it
// cannot edit exactly (Locked) keeps the text's value.
func (d *Doc) Canonical() string {
	if out := d.patched(); out != "" {
		return out
	}
	return string(compiler.Write(d.tree()))
}

// tree is the document as the YAML node tree the writer writes.
func (d *Doc) tree() *yamlnode.Node {
	str, entry, mapping := yamlnode.Str, yamlnode.Entry, yamlnode.Mapping
	lang := str(d.Language)
	if d.Task == "translate" {
		lang = mapping(entry("source", str(d.Source)), entry("target", str(d.Target)))
	}
	sys := mapping(entry("type", str(d.SystemType)))
	if d.SystemType == "model" {
		sys.Pairs = append(sys.Pairs, entry("provider", str(d.Provider)), entry("model", str(d.Model)))
		if d.Prompt != "" {
			sys.Pairs = append(sys.Pairs, entry("prompt", str(d.Prompt)))
		}
		if len(d.Params) > 0 {
			params := mapping()
			for _, p := range d.Params {
				params.Pairs = append(params.Pairs, entry(p.Key, value(p.Value)))
			}
			sys.Pairs = append(sys.Pairs, entry("parameters", params))
		}
	} else {
		sys.Pairs = append(sys.Pairs, entry("id", str(d.SystemID)))
	}
	return mapping(
		entry("version", str(orDefault(d.Version, "1.0"))),
		entry("ontology_version", str(orDefault(d.Onto, "1.0"))),
		entry("benchmark", mapping(entry("task", str(d.Task)), entry("domain", str(d.Domain)), entry("language", lang))),
		entry("program", mapping(entry("input", fieldsNode(d.Input)), entry("output", fieldsNode(d.Output)))),
		entry("scoring", mapping(entry("weights", weightsNode(d.Output)), entry("aggregator", str(orDefault(d.Aggregator, "weighted_mean"))))),
		entry("data", mapping(entry("path", str(d.DataPath)))),
		entry("ai-system", sys),
	)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// fieldsNode is the mapping that declares fields fs.
func fieldsNode(fs []Field) *yamlnode.Node {
	n := yamlnode.Mapping()
	for _, f := range fs {
		var v *yamlnode.Node
		switch f.Type {
		case "object":
			v = fieldsNode(f.Children)
		case "enum":
			members := make([]*yamlnode.Node, len(f.Members))
			for i, m := range f.Members {
				members[i] = yamlnode.Str(m)
			}
			v = yamlnode.Mapping(yamlnode.Entry("enum", yamlnode.List(members...)))
		default:
			v = yamlnode.Str(f.Type)
		}
		n.Pairs = append(n.Pairs, yamlnode.Entry(f.Name, v))
	}
	return n
}

// weightsNode is the weight mapping of output fields fs: each leaf's weight under its name,
// objects nested, an object without fields left out.
func weightsNode(fs []Field) *yamlnode.Node {
	n := yamlnode.Mapping()
	for _, f := range fs {
		switch {
		case f.Type == "object" && len(f.Children) == 0:
		case f.Type == "object":
			n.Pairs = append(n.Pairs, yamlnode.Entry(f.Name, weightsNode(f.Children)))
		default:
			weight := ""
			if f.Weight != nil {
				weight = *f.Weight
			}
			n.Pairs = append(n.Pairs, yamlnode.Entry(f.Name, value(weight))) // an emptied weight is written "" and reported
		}
	}
	return n
}

// value is a weight or parameter as typed: a number or boolean as it is, anything else a
// string (a weight that is not a number is then reported by the compiler, not hidden).
func value(s string) *yamlnode.Node {
	s = strings.TrimSpace(s)
	if s == "true" || s == "false" {
		return yamlnode.Plain(s)
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && strings.Trim(s, "0123456789.eE+-") == "" {
		return yamlnode.Plain(s)
	}
	return yamlnode.Str(s)
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
	if header == "" || strings.HasPrefix(canonical, header) {
		return canonical // a text patched from the source already has it
	}
	if !strings.HasSuffix(header, "\n") {
		header += "\n"
	}
	out, ds := compiler.Format([]byte(header + canonical))
	if len(ds) > 0 {
		return header + canonical
	}
	return string(out)
}

package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
)

// field is a checked program field. A field with bad set was reported; checks that depend
// on it (weights, task rules) skip it rather than pile up consequences.
type field struct {
	name   string
	typ    string // a semantic type name or ir.TypeObject; "" when bad
	bad    bool
	object bool         // written as a nested object (valid or not); otherwise meant as a leaf
	vague  bool         // bad in a way that leaves unclear what it is or what it is called: weights skip it
	fields []*field     // objects: every field declared, bad ones included
	weight float64      // leaves: the weight scoring gives it, once checked
	values []string     // enums
	where  yamlnode.Pos // the field's key
}

// typeAliases maps names authors reach for to the type they mean, for suggestions.
var typeAliases = map[string]string{
	"str": "string", "text": "string", "integer": "int", "number": "float", "double": "float",
	"decimal": "float", "boolean": "bool", "timestamp": "datetime", "picture": "image",
	"photo": "image", "pdf": "document", "file": "document", "sound": "audio", "speech": "audio",
}

// program checks the program grammar (Appendix A.1).
func (c *checker) program(root *yamlnode.Node) {
	prog, pp := c.section(root, "program", diag.InvalidSchema, "input and output")
	if prog == nil {
		return
	}
	keys := []string{"input", "output"}
	c.keys(prog, []string{"program"}, pp.Pos(), keys, keys)
	c.m.input, c.inputOK = c.schema(prog, "input")
	c.m.output, c.outputOK = c.schema(prog, "output")
}

// schema checks program.input or program.output, a non-empty mapping of fields.
func (c *checker) schema(prog *yamlnode.Node, key string) ([]*field, bool) {
	v, p := prog.Get(key)
	if p == nil {
		return nil, false
	}
	return c.fields(v, []string{"program", key})
}

// fields checks a mapping of named fields. ok is false when it or any field under it is bad.
func (c *checker) fields(n *yamlnode.Node, path []string) (out []*field, ok bool) {
	switch {
	case n.Kind == yamlnode.Bad:
		return nil, false
	case n.Kind != yamlnode.Map:
		c.report(diag.InvalidSchema, path, n.Pos(), "", "%s must be a mapping of named fields; found %s", path[len(path)-1], n.Describe())
		return nil, false
	case len(n.Pairs) == 0:
		c.report(diag.InvalidSchema, path, n.Pos(), "", "%s must declare at least one field", path[len(path)-1])
		return nil, false
	}
	ok = true
	for i := range n.Pairs {
		f := c.field(&n.Pairs[i], path)
		out = append(out, f)
		ok = ok && !f.bad
	}
	return out, ok
}

// field checks one field declaration: a type name, an enum, or a nested object.
func (c *checker) field(p *yamlnode.Pair, parent []string) *field {
	v := p.Value
	if p.KeyKind == yamlnode.String && p.Key != "" && v.Kind == yamlnode.String && v.Text != ir.TypeEnum && slices.Contains(ir.Types, v.Text) {
		return &field{name: p.Key, where: p.Pos(), typ: v.Text} // the common case, without a path
	}
	path := join(parent, p.Key)
	f := &field{name: p.Key, where: p.Pos(), bad: true}
	switch {
	case p.KeyKind != yamlnode.String:
		c.report(diag.InvalidSchema, path, p.Pos(), `"`+p.Key+`"`,
			"field name %s is not a string in YAML; quote it to use it as a name", p.Key)
		f.vague = true
		return f
	case p.Key == "":
		c.report(diag.InvalidSchema, path, p.Pos(), "", "field names must not be empty")
		f.vague = true
		return f
	}
	switch v.Kind {
	case yamlnode.Bad:
	case yamlnode.Null:
		c.report(diag.InvalidSchema, path, valueAt(p), "", "field %q has no type: null is not a valid field value", p.Key)
	case yamlnode.String:
		c.typeName(f, v, path)
	case yamlnode.Seq:
		c.report(diag.InvalidSchema, path, v.Pos(), enumHint(v),
			"field %q is a list: lists are not supported as field types (the program model has fixed named fields); a closed set of labels is an enum", p.Key)
	case yamlnode.Map:
		if _, ep := v.Get("enum"); ep != nil {
			c.enum(f, v, path)
			f.vague = f.bad && len(v.Pairs) > 1 // an enum, or an object with a field named enum?
		} else {
			sub, ok := c.fields(v, path)
			f.object, f.fields, f.vague = true, sub, len(sub) == 0
			if ok {
				f.typ, f.bad = ir.TypeObject, false
			}
		}
	default:
		c.report(diag.InvalidSchema, path, v.Pos(), "", "the type of field %q must be a type name such as string; found %s", p.Key, v.Describe())
	}
	return f
}

// valueAt is where a pair's value is, or its key when the value is empty.
func valueAt(p *yamlnode.Pair) yamlnode.Pos {
	if p.Value.Line == 0 {
		return p.Pos()
	}
	return p.Value.Pos()
}

func (c *checker) typeName(f *field, v *yamlnode.Node, path []string) {
	name := v.Text
	switch {
	case name == ir.TypeEnum:
		c.report(diag.InvalidSchema, path, v.Pos(), "", "an enum lists its members: write %s: {enum: [a, b]}", f.name)
	case slices.Contains(ir.Types, name):
		f.typ, f.bad = name, false
	case name == ir.TypeObject:
		c.report(diag.InvalidSchema, path, v.Pos(), "", "a nested object is written as a mapping of its fields, not as the type %q", name)
	default:
		hint := typeAliases[strings.ToLower(name)]
		if hint == "" {
			hint = c.closest(name, ir.Types)
		}
		c.report(diag.InvalidSchema, path, v.Pos(), hint, "unknown type %q; the types are %s", name, strings.Join(ir.Types, ", "))
	}
}

// enum checks enum: [members], alone in its mapping, members distinct non-empty strings,
// at most maxEnumMembers of them.
func (c *checker) enum(f *field, v *yamlnode.Node, path []string) {
	ok := true
	for i := range v.Pairs {
		if p := &v.Pairs[i]; p.Key != "enum" {
			c.report(diag.InvalidSchema, join(path, p.Key), p.Pos(), "", "nothing may stand beside enum in an enum declaration")
			ok = false
		}
	}
	list, _ := v.Get("enum")
	path = join(path, "enum")
	switch {
	case list.Kind == yamlnode.Bad:
		return
	case list.Kind != yamlnode.Seq:
		c.report(diag.InvalidSchema, path, list.Pos(), "", "enum must be a list of members, like enum: [a, b]; found %s", list.Describe())
		return
	case len(list.Items) == 0:
		c.report(diag.InvalidSchema, path, list.Pos(), "", "enum must have at least one member")
		return
	}
	var values []string
	seen := make(map[string]bool, len(list.Items)) // a set: 50,000 members cost 5 s by a scan
	for _, m := range list.Items {
		switch {
		case m.Kind == yamlnode.Bad:
			ok = false
		case m.Kind == yamlnode.Map || m.Kind == yamlnode.Seq:
			c.report(diag.InvalidSchema, path, m.Pos(), "", "enum members are strings; found %s", m.Describe())
			ok = false
		case !m.IsString():
			c.report(diag.InvalidSchema, path, m.Pos(), fmt.Sprintf("%q", m.Text), "enum members are strings; %s is %s here, so quote it", m.Text, m.Describe())
			ok = false
		case m.Text == "":
			c.report(diag.InvalidSchema, path, m.Pos(), "", "enum members must not be empty")
			ok = false
		case seen[m.Text]:
			c.report(diag.InvalidSchema, path, m.Pos(), "", "enum member %q is listed twice", m.Text)
			ok = false
		default:
			seen[m.Text] = true
			values = append(values, m.Text)
		}
	}
	if len(list.Items) > maxEnumMembers {
		c.report(diag.TooLarge, path, list.Pos(), "", "enum has %d members; Benchy accepts at most %d", len(list.Items), maxEnumMembers)
		ok = false
	}
	if ok {
		f.typ, f.values, f.bad = ir.TypeEnum, values, false
	}
}

// enumHint suggests the enum spelling for a list of labels; a list of type names (a list
// type, which the language does not have) gets none.
func enumHint(v *yamlnode.Node) string {
	var names []string
	for _, m := range v.Items {
		if !m.IsString() || slices.Contains(ir.Types, m.Text) {
			return ""
		}
		names = append(names, m.Text)
	}
	if len(names) == 0 {
		return ""
	}
	return "{enum: [" + strings.Join(names, ", ") + "]}"
}

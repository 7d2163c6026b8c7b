package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// field is a checked program field. A field with bad set was reported; checks that depend
// on it (weights, task rules) skip it rather than pile up consequences.
type field struct {
	name   string
	typ    string // a semantic type name or ir.TypeObject; "" when bad
	bad    bool
	object bool     // written as a nested object (valid or not); otherwise meant as a leaf
	vague  bool     // bad in a way that leaves unclear what it is or what it is called: weights skip it
	fields []*field // objects: every field declared, bad ones included
	weight float64  // leaves: the weight scoring gives it, once checked
	values []string // enums
	where  at       // the field's key
}

// typeAliases maps names authors reach for to the type they mean, for suggestions.
var typeAliases = map[string]string{
	"str": "string", "text": "string", "integer": "int", "number": "float", "double": "float",
	"decimal": "float", "boolean": "bool", "timestamp": "datetime", "picture": "image",
	"photo": "image", "pdf": "document", "file": "document", "sound": "audio", "speech": "audio",
}

// program checks the program grammar (Appendix A.1).
func (c *checker) program(root *node) {
	prog, pp := c.section(root, "program", diag.InvalidSchema, "input and output")
	if prog == nil {
		return
	}
	keys := []string{"input", "output"}
	c.keys(prog, []string{"program"}, pp.at(), keys, keys)
	c.m.input, c.inputOK = c.schema(prog, "input")
	c.m.output, c.outputOK = c.schema(prog, "output")
}

// schema checks program.input or program.output, a non-empty mapping of fields.
func (c *checker) schema(prog *node, key string) ([]*field, bool) {
	v, p := prog.get(key)
	if p == nil {
		return nil, false
	}
	return c.fields(v, []string{"program", key})
}

// fields checks a mapping of named fields. ok is false when it or any field under it is bad.
func (c *checker) fields(n *node, path []string) (out []*field, ok bool) {
	switch {
	case n.kind == kindBad:
		return nil, false
	case n.kind != kindMap:
		c.report(diag.InvalidSchema, path, n.at(), "", "%s must be a mapping of named fields; found %s", path[len(path)-1], n.describe())
		return nil, false
	case len(n.pairs) == 0:
		c.report(diag.InvalidSchema, path, n.at(), "", "%s must declare at least one field", path[len(path)-1])
		return nil, false
	}
	ok = true
	for i := range n.pairs {
		f := c.field(&n.pairs[i], path)
		out = append(out, f)
		ok = ok && !f.bad
	}
	return out, ok
}

// field checks one field declaration: a type name, an enum, or a nested object.
func (c *checker) field(p *pair, parent []string) *field {
	v := p.value
	if p.keyKind == kindString && p.key != "" && v.kind == kindString && v.text != ir.TypeEnum && slices.Contains(ir.Types, v.text) {
		return &field{name: p.key, where: p.at(), typ: v.text} // the common case, without a path
	}
	path := join(parent, p.key)
	f := &field{name: p.key, where: p.at(), bad: true}
	switch {
	case p.keyKind != kindString:
		c.report(diag.InvalidSchema, path, p.at(), `"`+p.key+`"`,
			"field name %s is not a string in YAML; quote it to use it as a name", p.key)
		f.vague = true
		return f
	case p.key == "":
		c.report(diag.InvalidSchema, path, p.at(), "", "field names must not be empty")
		f.vague = true
		return f
	}
	switch v.kind {
	case kindBad:
	case kindNull:
		c.report(diag.InvalidSchema, path, valueAt(p), "", "field %q has no type: null is not a valid field value", p.key)
	case kindString:
		c.typeName(f, v, path)
	case kindSeq:
		c.report(diag.InvalidSchema, path, v.at(), enumHint(v),
			"field %q is a list: lists are not supported as field types (the program model has fixed named fields); a closed set of labels is an enum", p.key)
	case kindMap:
		if _, ep := v.get("enum"); ep != nil {
			c.enum(f, v, path)
			f.vague = f.bad && len(v.pairs) > 1 // an enum, or an object with a field named enum?
		} else {
			sub, ok := c.fields(v, path)
			f.object, f.fields, f.vague = true, sub, len(sub) == 0
			if ok {
				f.typ, f.bad = ir.TypeObject, false
			}
		}
	default:
		c.report(diag.InvalidSchema, path, v.at(), "", "the type of field %q must be a type name such as string; found %s", p.key, v.describe())
	}
	return f
}

// valueAt is where a pair's value is, or its key when the value is empty.
func valueAt(p *pair) at {
	if p.value.line == 0 {
		return p.at()
	}
	return p.value.at()
}

func (c *checker) typeName(f *field, v *node, path []string) {
	name := v.text
	switch {
	case name == ir.TypeEnum:
		c.report(diag.InvalidSchema, path, v.at(), "", "an enum lists its members: write %s: {enum: [a, b]}", f.name)
	case slices.Contains(ir.Types, name):
		f.typ, f.bad = name, false
	case name == ir.TypeObject:
		c.report(diag.InvalidSchema, path, v.at(), "", "a nested object is written as a mapping of its fields, not as the type %q", name)
	default:
		hint := typeAliases[strings.ToLower(name)]
		if hint == "" {
			hint = c.closest(name, ir.Types)
		}
		c.report(diag.InvalidSchema, path, v.at(), hint, "unknown type %q; the types are %s", name, strings.Join(ir.Types, ", "))
	}
}

// enum checks enum: [members], alone in its mapping, members distinct non-empty strings.
func (c *checker) enum(f *field, v *node, path []string) {
	ok := true
	for i := range v.pairs {
		if p := &v.pairs[i]; p.key != "enum" {
			c.report(diag.InvalidSchema, join(path, p.key), p.at(), "", "nothing may stand beside enum in an enum declaration")
			ok = false
		}
	}
	list, _ := v.get("enum")
	path = join(path, "enum")
	switch {
	case list.kind == kindBad:
		return
	case list.kind != kindSeq:
		c.report(diag.InvalidSchema, path, list.at(), "", "enum must be a list of members, like enum: [a, b]; found %s", list.describe())
		return
	case len(list.items) == 0:
		c.report(diag.InvalidSchema, path, list.at(), "", "enum must have at least one member")
		return
	}
	var values []string
	seen := make(map[string]bool, len(list.items)) // a set: 50,000 members cost 5 s by a scan
	for _, m := range list.items {
		switch {
		case m.kind == kindBad:
			ok = false
		case m.kind == kindMap || m.kind == kindSeq:
			c.report(diag.InvalidSchema, path, m.at(), "", "enum members are strings; found %s", m.describe())
			ok = false
		case !m.isString():
			c.report(diag.InvalidSchema, path, m.at(), fmt.Sprintf("%q", m.text), "enum members are strings; %s is %s here, so quote it", m.text, m.describe())
			ok = false
		case m.text == "":
			c.report(diag.InvalidSchema, path, m.at(), "", "enum members must not be empty")
			ok = false
		case seen[m.text]:
			c.report(diag.InvalidSchema, path, m.at(), "", "enum member %q is listed twice", m.text)
			ok = false
		default:
			seen[m.text] = true
			values = append(values, m.text)
		}
	}
	if ok {
		f.typ, f.values, f.bad = ir.TypeEnum, values, false
	}
}

// enumHint suggests the enum spelling for a list of labels; a list of type names (a list
// type, which the language does not have) gets none.
func enumHint(v *node) string {
	var names []string
	for _, m := range v.items {
		if !m.isString() || slices.Contains(ir.Types, m.text) {
			return ""
		}
		names = append(names, m.text)
	}
	if len(names) == 0 {
		return ""
	}
	return "{enum: [" + strings.Join(names, ", ") + "]}"
}

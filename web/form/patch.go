package form

import (
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// parts are the places of a benchmark the form edits, each written back on its own: an edit
// replaces the parts it changed in the text it was read from and leaves every other byte's
// meaning alone, so that what the form cannot show (an unknown key, a misspelt section, a
// comment) is never rewritten from the form's defaults.
var parts = [][]string{
	{"version"}, {"ontology_version"},
	{"benchmark", "task"}, {"benchmark", "domain"}, {"benchmark", "language"},
	{"program", "input"}, {"program", "output"},
	{"scoring", "weights"}, {"scoring", "aggregator"},
	{"data", "path"},
	{"ai-system", "type"}, {"ai-system", "id"}, {"ai-system", "provider"}, {"ai-system", "model"},
	{"ai-system", "prompt"}, {"ai-system", "parameters"},
}

// Lock is a part of the text the form cannot edit exactly while the YAML has a problem
// there: an edit to it is not written, and Reason says why.
type Lock struct {
	Part   string // the part's path, dotted: "scoring.weights"
	Reason string
}

// Locked lists the parts of the document's text that the form leaves alone, each with the
// reason; nil for a document not read from YAML, or one whose every part the form shows
// exactly.
func (d *Doc) Locked() []Lock {
	src, orig := d.source()
	if src == nil {
		return nil
	}
	have := orig.tree()
	var out []Lock
	for _, p := range parts {
		if reason := lockReason(src, have, p); reason != "" {
			out = append(out, Lock{Part: strings.Join(p, "."), Reason: reason})
		}
	}
	return out
}

// source is the tree of the text the document was read from (comments kept) and the
// document that text gives, weights synced as the editor syncs them before writing; nil
// when the document was not read from YAML.
func (d *Doc) source() (*yamlnode.Node, *Doc) {
	if d.src == "" {
		return nil, nil
	}
	root, ds, _ := yamlnode.Parse([]byte(d.src), yamlnode.Options{Comments: true})
	orig, ok := FromYAML(d.src)
	if root == nil || len(ds) > 0 || !ok || root.Kind != yamlnode.Map {
		return nil, nil
	}
	orig.SyncWeights()
	return root, orig
}

// patched is the source text with the parts the form changed replaced, or "" when the
// document was not read from YAML.
func (d *Doc) patched() string {
	src, orig := d.source()
	if src == nil {
		return ""
	}
	was, now := orig.tree(), d.tree()
	for _, p := range parts {
		a, b := at(was, p), at(now, p)
		if same(a, b) || lockReason(src, was, p) != "" {
			continue
		}
		put(src, p, merge(at(src, p), a, b))
	}
	return string(compiler.Write(src))
}

// merge is now, the form's value of a part, made of the text's own nodes (src, which the
// form read as was) wherever the value did not change: an entry edited changes alone, and
// every other keeps its comments and its value as the text had it (0x1 is written as the
// number it is, 1, as benchy fmt writes it; it became the string "0x1"). A renamed entry
// keeps its comments, a scalar edited its line comment, a list's members theirs.
func merge(src, was, now *yamlnode.Node) *yamlnode.Node {
	switch {
	case src == nil || was == nil || now == nil:
		return now
	case same(was, now):
		return src
	case src.Kind == yamlnode.Map && was.Kind == yamlnode.Map && now.Kind == yamlnode.Map:
		// A new node rather than a copy of src: its lookup index would be of src's order.
		out := &yamlnode.Node{Kind: yamlnode.Map, Line: src.Line, Col: src.Col, Flow: src.Flow, Comment: src.Comment, CommentAt: src.CommentAt}
		out.Pairs = make([]yamlnode.Pair, 0, len(now.Pairs))
		for i, np := range now.Pairs {
			sv, sp := src.Get(np.Key)
			wv, _ := was.Get(np.Key)
			if sp == nil && i < len(was.Pairs) && i < len(src.Pairs) {
				// Not in the text: a rename keeps the place and the comments of the key it
				// replaced, when that key is gone from the form's value.
				old := was.Pairs[i].Key
				if gone, _ := now.Get(old); gone == nil {
					if v, p := src.Get(old); p != nil {
						sv, sp, wv = v, p, was.Pairs[i].Value
					}
				}
			}
			if sp == nil {
				out.Pairs = append(out.Pairs, np)
				continue
			}
			pair := *sp
			if pair.Key != np.Key {
				pair.Key, pair.KeyKind = np.Key, np.KeyKind
			}
			pair.Value = merge(sv, wv, np.Value)
			out.Pairs = append(out.Pairs, pair)
		}
		return out
	case src.Kind == yamlnode.Seq && now.Kind == yamlnode.Seq:
		// A list edited (an enum's members): each member still there keeps its node, with
		// its comment; the list keeps its style.
		out := &yamlnode.Node{Kind: yamlnode.Seq, Line: src.Line, Col: src.Col, Flow: src.Flow, Comment: src.Comment, CommentAt: src.CommentAt}
		used := make([]bool, len(src.Items))
		for _, it := range now.Items {
			kept := it
			for k, old := range src.Items {
				if !used[k] && same(old, it) {
					used[k], kept = true, old
					break
				}
			}
			out.Items = append(out.Items, kept)
		}
		return out
	case isScalar(src) && isScalar(now) && src.Comment != "":
		out := *now
		out.Comment = src.Comment
		return &out
	}
	return now
}

func isScalar(n *yamlnode.Node) bool { return n.Kind != yamlnode.Map && n.Kind != yamlnode.Seq }

// lockReason says why part p of the source cannot be edited exactly, or "" when it can: the
// form shows it as it is, or it is missing from a section (the file itself, for a section
// missing) that holds nothing the form does not know (a key there may be this one, or its
// section, misspelt: scorng: for scoring:).
func lockReason(src, have *yamlnode.Node, p []string) string {
	parent := src
	for i, k := range p {
		v, _ := parent.Get(k)
		switch {
		case v == nil:
			return missingReason(parent, p[:i], k)
		case i == len(p)-1:
			if covered(v, at(have, p)) {
				return ""
			}
			return strings.Join(p, ".") + " holds what the form cannot show exactly; edit it in the YAML"
		case v.Kind != yamlnode.Map:
			return strings.Join(p[:i+1], ".") + " is not a mapping in the YAML"
		}
		parent = v
	}
	return ""
}

// missingReason is why key, missing from the section at path where, is locked: the section
// has keys the form does not know, one of which may be it misspelt; "" when it has none.
func missingReason(section *yamlnode.Node, where []string, key string) string {
	var unknown []string
	for _, pair := range section.Pairs {
		if !known(where, pair.Key) {
			unknown = append(unknown, pair.Key)
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	name := strings.Join(where, ".")
	if name == "" {
		name = "the file"
	}
	return name + " has the unknown key " + strings.Join(unknown, ", ") + " in place of " + key + "; fix it in the YAML"
}

// covered reports whether the form shows all of text node n as it is: the same value, or
// for a mapping every entry of n the same in the form's (which may have more: the weight of
// a leaf the text has none for, which the form shows as 1 and writes only with an edit).
func covered(n, shown *yamlnode.Node) bool {
	if n == nil || shown == nil || n.Kind != yamlnode.Map || shown.Kind != yamlnode.Map {
		return same(n, shown)
	}
	for _, pair := range n.Pairs {
		v, _ := shown.Get(pair.Key)
		if v == nil || !covered(pair.Value, v) {
			return false
		}
	}
	return true
}

// known reports whether key belongs in the section at path parent.
func known(parent []string, key string) bool {
	return slices.ContainsFunc(parts, func(p []string) bool {
		if len(p) > len(parent) && slices.Equal(p[:len(parent)], parent) && p[len(parent)] == key {
			return true
		}
		return false
	})
}

// at is the node at path p in tree n, or nil.
func at(n *yamlnode.Node, p []string) *yamlnode.Node {
	for _, k := range p {
		n, _ = n.Get(k)
		if n == nil {
			return nil
		}
	}
	return n
}

// put sets the node at path p in tree n to v, making the sections on the way; a nil v
// removes the entry.
func put(n *yamlnode.Node, p []string, v *yamlnode.Node) {
	for _, k := range p[:len(p)-1] {
		next, _ := n.Get(k)
		if next == nil {
			if v == nil {
				return
			}
			next = yamlnode.Mapping()
			n.Pairs = append(n.Pairs, yamlnode.Entry(k, next))
		}
		n = next
	}
	key := p[len(p)-1]
	i := slices.IndexFunc(n.Pairs, func(pair yamlnode.Pair) bool { return pair.Key == key })
	switch {
	case i < 0 && v != nil:
		n.Pairs = append(n.Pairs, yamlnode.Entry(key, v))
	case i >= 0 && v == nil:
		n.Pairs = slices.Delete(slices.Clone(n.Pairs), i, i+1)
	case i >= 0:
		n.Pairs[i].Value = v
	}
}

// same reports whether two trees hold the same values: scalars by their text, collections
// entry by entry in order.
func same(a, b *yamlnode.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	aScalar, bScalar := a.Kind != yamlnode.Map && a.Kind != yamlnode.Seq, b.Kind != yamlnode.Map && b.Kind != yamlnode.Seq
	switch {
	case aScalar && bScalar:
		return scalar(a) == scalar(b) // null and "" alike: a user's value replaces either
	case a.Kind != b.Kind:
		return false
	case a.Kind == yamlnode.Seq:
		return slices.EqualFunc(a.Items, b.Items, same)
	}
	return slices.EqualFunc(a.Pairs, b.Pairs, func(x, y yamlnode.Pair) bool { return x.Key == y.Key && same(x.Value, y.Value) })
}

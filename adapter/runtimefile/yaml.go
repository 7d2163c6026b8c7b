package runtimefile

import (
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// The runtime file's side of the YAML: the front end (yamlnode) has reported syntax,
// duplicate keys, tags, merge keys and anchors; what is left is to say what a value must be.

// mapping returns n's entries. An empty value is an empty mapping. When n is not a mapping
// it reports want (unless the front end has reported n) and returns false. A key that is
// not a string scalar is taken as written (1, true), except null, which names nothing.
func (p *parser) mapping(n *yamlnode.Node, path []string, want string) ([]yamlnode.Pair, bool) {
	switch n.Kind {
	case yamlnode.Null:
		return nil, true
	case yamlnode.Bad:
		return nil, false
	case yamlnode.Map:
	default:
		p.report(n.Pos(), path, want)
		return nil, false
	}
	out := make([]yamlnode.Pair, 0, len(n.Pairs))
	for _, e := range n.Pairs {
		if e.KeyKind == yamlnode.Null {
			p.report(e.Pos(), path, "a key must be a plain or quoted string")
			continue
		}
		out = append(out, e)
	}
	return out, true
}

// unknown reports a key the runtime file does not define, with the nearest allowed one.
func (p *parser) unknown(e yamlnode.Pair, path, allowed []string, msg string) {
	p.add(p.diag(e.Pos(), append(path[:len(path):len(path)], e.Key), msg), suggest.Closest(e.Key, allowed))
}

func (p *parser) report(at yamlnode.Pos, path []string, msg string) {
	p.add(p.diag(at, path, msg), "")
}

func (p *parser) add(d diag.Diagnostic, suggestion string) {
	if len(p.diags) >= yamlnode.MaxCollected {
		p.dropped++
		return
	}
	d.Suggestion = suggestion
	p.diags = append(p.diags, d)
}

// count is how many problems have been reported so far, written down or not.
func (p *parser) count() int { return len(p.diags) + p.dropped }

func (p *parser) diag(at yamlnode.Pos, path []string, msg string) diag.Diagnostic {
	if at.Line < 1 {
		at = yamlnode.Pos{Line: 1, Col: 1}
	}
	if path == nil {
		path = []string{}
	}
	return diag.Diagnostic{Phase: diag.PhaseValidate, Code: diag.InvalidRuntime, Path: path,
		Message: msg, Line: at.Line, Column: at.Col}
}

// scalarText is a scalar's text: a string's value, a number or boolean as written. Nulls,
// collections and what the front end refused are not text.
func scalarText(n *yamlnode.Node) (string, bool) {
	switch n.Kind {
	case yamlnode.String, yamlnode.Int, yamlnode.Float, yamlnode.Bool:
		return n.Text, true
	}
	return "", false
}

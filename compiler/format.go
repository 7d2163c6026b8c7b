package compiler

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"

	"github.com/benchy-eval/benchy/ir"
)

// Canonical key order of each section; keys not listed keep their source order after these.
var keyOrder = map[string][]string{
	"":                   rootKeys,
	"benchmark":          {"task", "domain", "language"},
	"benchmark.language": {"source", "target"},
	"program":            {"input", "output"},
	"scoring":            {"weights", "aggregator"},
	"data":               {"path"},
	"ai-system":          {"type", "id", "provider", "model", "prompt", "parameters"},
}

// Format returns the canonical spelling of a Benchy YAML file: block style, two-space
// indentation, the specification's key order, fields in declaration order, weights in the
// order of the output fields, enums as flow lists, strings quoted only where YAML needs it.
// Comments are kept. Formatting needs only well-formed YAML, not a valid benchmark, and never
// changes meaning: a valid file compiles to the same IR before and after. It fails with the
// parse diagnostics, or when a comment sits where the canonical layout has no place for it.
func Format(src []byte) ([]byte, error) {
	root, ds, dropped := parseFullCounted(src, true)
	if len(ds) > 0 {
		if _, plain := parseFull(src, false); root == nil && len(plain) == 0 {
			return nil, fmt.Errorf("fmt: the YAML parser cannot keep this file's comments (%s); move comments out of flow collections", ds[0].Message)
		}
		return nil, limit(ds.Sort(), dropped)
	}
	f := &formatter{root: root}
	f.commentLines(root.lead, 0)
	if root.kind == kindMap && len(root.pairs) > 0 {
		// Comments above the first key head the file, wherever that key is sorted to.
		f.commentLines(root.pairs[0].head, 0)
		root.pairs[0].head = nil
	}
	switch {
	case root.kind == kindMap && len(root.pairs) > 0:
		f.mapping(root, nil, 0)
	case root.kind == kindNull && root.comment == "":
		// an empty document stays empty
	default:
		f.scalarLine(root)
	}
	f.commentLines(root.tail, 0)
	if want := countComments(bytes.TrimPrefix(src, bom)); f.comments != want {
		return nil, fmt.Errorf("fmt: %d of %d comments have no place in the canonical layout "+
			"(beside ---, inside a flow collection, between list items or in a multi-line value); put them on their own line above a key", want-f.comments, want)
	}
	return f.buf.Bytes(), nil
}

func countComments(src []byte) int {
	n := 0
	for _, tk := range lexer.Tokenize(string(src)) {
		if tk.Type == token.CommentType {
			n++
		}
	}
	return n
}

type formatter struct {
	root     *node
	buf      bytes.Buffer
	comments int
}

func (f *formatter) indent(depth int) {
	f.buf.WriteString(strings.Repeat("  ", depth))
}

func (f *formatter) commentLines(lines []string, depth int) {
	for _, l := range lines {
		f.indent(depth)
		f.buf.WriteString("#" + l + "\n")
		f.comments++
	}
}

func (f *formatter) lineComment(c string) {
	if c != "" {
		f.buf.WriteString(" #" + c)
		f.comments += strings.Count(c, "\n") + 1
	}
}

// mapping writes the entries of a block mapping at depth.
func (f *formatter) mapping(n *node, path []string, depth int) {
	for _, p := range f.ordered(n, path) {
		f.commentLines(p.head, depth)
		f.indent(depth)
		f.buf.WriteString(formatKey(&p))
		f.buf.WriteByte(':')
		v := p.value
		sub := join(path, p.key)
		switch {
		case v.kind == kindMap && len(v.pairs) > 0:
			f.lineComment(v.comment)
			f.buf.WriteByte('\n')
			f.mapping(v, sub, depth+1)
		case v.kind == kindSeq && !flowable(v):
			f.lineComment(v.comment)
			f.buf.WriteByte('\n')
			for _, item := range v.items {
				f.indent(depth + 1)
				// Collections inside a sequence are never valid Benchy; flow style keeps
				// them readable and unchanged in meaning.
				f.buf.WriteString("- " + flowValue(item))
				f.lineComment(item.comment)
				f.buf.WriteByte('\n')
			}
		default:
			f.buf.WriteString(" " + flowValue(v))
			f.lineComment(v.comment)
			f.buf.WriteByte('\n')
		}
		f.commentLines(p.foot, depth)
	}
}

func (f *formatter) scalarLine(n *node) {
	f.buf.WriteString(flowValue(n))
	f.lineComment(n.comment)
	f.buf.WriteByte('\n')
}

// flowable reports whether a sequence can be written on one line: no nested collections
// and no comments on its items.
func flowable(n *node) bool {
	for _, it := range n.items {
		if it.kind == kindMap || it.kind == kindSeq || it.comment != "" {
			return false
		}
	}
	return true
}

// flowValue writes a value on one line.
func flowValue(n *node) string {
	switch n.kind {
	case kindMap:
		parts := make([]string, len(n.pairs))
		for i, p := range n.pairs {
			parts[i] = formatKey(&p) + ": " + flowValue(p.value)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case kindSeq:
		parts := make([]string, len(n.items))
		for i, it := range n.items {
			parts[i] = flowValue(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case kindNull:
		return "null"
	case kindBool:
		return strings.ToLower(n.text)
	case kindInt:
		if n.exact() {
			return strconv.FormatFloat(n.num, 'f', -1, 64)
		}
		return n.text
	case kindFloat:
		return formatFloat(n)
	case kindString:
		return quote(n.text)
	}
	return "null"
}

func formatFloat(n *node) string {
	switch {
	case n.overflows():
		return n.text // 1e400 is not .inf
	case math.IsNaN(n.num):
		return ".nan"
	case math.IsInf(n.num, 1):
		return ".inf"
	case math.IsInf(n.num, -1):
		return "-.inf"
	case !n.exact():
		return n.text // 1e-400 underflows to 0, but is not 0
	}
	s := string(ir.AppendNumber(nil, n.num))
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func formatKey(p *pair) string {
	if p.keyKind != kindString {
		return p.key // 1, true, null: written as they were, so their meaning is kept
	}
	return quote(p.key)
}

// ordered returns a mapping's pairs in canonical order.
func (f *formatter) ordered(n *node, path []string) []pair {
	key := strings.Join(path, ".")
	order, ok := keyOrder[key]
	switch {
	case ok:
	case key == "ai-system.parameters":
		order = make([]string, len(n.pairs))
		for i, p := range n.pairs {
			order[i] = p.key
		}
		slices.Sort(order)
	case len(path) >= 2 && path[0] == "scoring" && path[1] == "weights":
		order = f.outputNames(path[2:])
	default:
		return n.pairs // fields, enum declarations and unknown sections keep their order
	}
	ranks := make(map[string]int, len(order))
	for i, k := range order {
		if _, dup := ranks[k]; !dup {
			ranks[k] = i
		}
	}
	rank := func(p pair) int {
		if i, ok := ranks[p.key]; ok {
			return i
		}
		return len(order)
	}
	out := slices.Clone(n.pairs)
	slices.SortStableFunc(out, func(a, b pair) int { return rank(a) - rank(b) })
	return out
}

// outputNames lists the output field names at sub, in declaration order, to order weights.
func (f *formatter) outputNames(sub []string) []string {
	prog, _ := f.root.get("program")
	n, _ := prog.get("output")
	for _, k := range sub {
		n, _ = n.get(k)
	}
	if n == nil || n.kind != kindMap {
		return nil
	}
	names := make([]string, len(n.pairs))
	for i, p := range n.pairs {
		names[i] = p.key
	}
	return names
}

package compiler

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/internal/yamlnode"
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

// Write writes a benchmark's node tree as canonical Benchy YAML: the one YAML writer, behind
// Format (`benchy fmt`), VerifyIR (an IR written back as YAML) and the web form (a form
// written as YAML). Format describes the layout; comments on the nodes are written where
// they were. The tree need not be a valid benchmark, and is not changed.
func Write(root *yamlnode.Node) []byte {
	out, _ := write(root)
	return out
}

// write is Write, also counting the comments written.
func write(root *yamlnode.Node) ([]byte, int) {
	f := &formatter{root: root}
	f.commentLines(root.Lead, 0)
	switch {
	case root.Kind == yamlnode.Map && len(root.Pairs) > 0:
		// Comments above the first key head the file, wherever that key is sorted to.
		f.commentLines(root.Pairs[0].Head, 0)
		top := *root
		top.Pairs = slices.Clone(root.Pairs)
		top.Pairs[0].Head = nil
		f.mapping(&top, nil, 0)
	case root.Kind == yamlnode.Null && root.Comment == "":
		// an empty document stays empty
	default:
		f.scalarLine(root)
	}
	f.commentLines(root.Tail, 0)
	return f.buf.Bytes(), f.comments
}

type formatter struct {
	root     *yamlnode.Node
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
func (f *formatter) mapping(n *yamlnode.Node, path []string, depth int) {
	for _, p := range f.ordered(n, path) {
		f.commentLines(p.Head, depth)
		f.indent(depth)
		f.buf.WriteString(formatKey(&p))
		f.buf.WriteByte(':')
		v := p.Value
		sub := join(path, p.Key)
		switch {
		case v.Kind == yamlnode.Map && len(v.Pairs) > 0:
			f.lineComment(v.Comment)
			f.buf.WriteByte('\n')
			f.mapping(v, sub, depth+1)
		case v.Kind == yamlnode.Seq && !flowable(v):
			f.lineComment(v.Comment)
			f.buf.WriteByte('\n')
			for _, item := range v.Items {
				f.indent(depth + 1)
				// Collections inside a sequence are never valid Benchy; flow style keeps
				// them readable and unchanged in meaning.
				f.buf.WriteString("- " + flowValue(item))
				f.lineComment(item.Comment)
				f.buf.WriteByte('\n')
			}
		default:
			f.buf.WriteString(" " + flowValue(v))
			f.lineComment(v.Comment)
			f.buf.WriteByte('\n')
		}
		f.commentLines(p.Foot, depth)
	}
}

func (f *formatter) scalarLine(n *yamlnode.Node) {
	f.buf.WriteString(flowValue(n))
	f.lineComment(n.Comment)
	f.buf.WriteByte('\n')
}

// flowable reports whether a sequence can be written on one line: no nested collections
// and no comments on its items.
func flowable(n *yamlnode.Node) bool {
	for _, it := range n.Items {
		if it.Kind == yamlnode.Map || it.Kind == yamlnode.Seq || it.Comment != "" {
			return false
		}
	}
	return true
}

// flowValue writes a value on one line.
func flowValue(n *yamlnode.Node) string {
	switch n.Kind {
	case yamlnode.Map:
		parts := make([]string, len(n.Pairs))
		for i, p := range n.Pairs {
			parts[i] = formatKey(&p) + ": " + flowValue(p.Value)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case yamlnode.Seq:
		parts := make([]string, len(n.Items))
		for i, it := range n.Items {
			parts[i] = flowValue(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case yamlnode.Null:
		return "null"
	case yamlnode.Bool:
		return strings.ToLower(n.Text)
	case yamlnode.Int:
		if n.Exact() {
			return strconv.FormatFloat(n.Num, 'f', -1, 64)
		}
		return n.Text
	case yamlnode.Float:
		return formatFloat(n)
	case yamlnode.String:
		return quote(n.Text)
	}
	return "null"
}

func formatFloat(n *yamlnode.Node) string {
	switch {
	case n.Overflows():
		return n.Text // 1e400 is not .inf
	case math.IsNaN(n.Num):
		return ".nan"
	case math.IsInf(n.Num, 1):
		return ".inf"
	case math.IsInf(n.Num, -1):
		return "-.inf"
	case !n.Exact():
		return n.Text // 1e-400 underflows to 0, but is not 0
	}
	s := string(ir.AppendNumber(nil, n.Num))
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func formatKey(p *yamlnode.Pair) string {
	if p.KeyKind != yamlnode.String {
		return p.Key // 1, true, null: written as they were, so their meaning is kept
	}
	return quote(p.Key)
}

// ordered returns a mapping's pairs in canonical order.
func (f *formatter) ordered(n *yamlnode.Node, path []string) []yamlnode.Pair {
	key := strings.Join(path, ".")
	order, ok := keyOrder[key]
	switch {
	case ok:
	case key == "ai-system.parameters":
		order = make([]string, len(n.Pairs))
		for i, p := range n.Pairs {
			order[i] = p.Key
		}
		slices.Sort(order)
	case len(path) >= 2 && path[0] == "scoring" && path[1] == "weights":
		order = f.outputNames(path[2:])
	default:
		return n.Pairs // fields, enum declarations and unknown sections keep their order
	}
	ranks := make(map[string]int, len(order))
	for i, k := range order {
		if _, dup := ranks[k]; !dup {
			ranks[k] = i
		}
	}
	rank := func(p yamlnode.Pair) int {
		if i, ok := ranks[p.Key]; ok {
			return i
		}
		return len(order)
	}
	out := slices.Clone(n.Pairs)
	slices.SortStableFunc(out, func(a, b yamlnode.Pair) int { return rank(a) - rank(b) })
	return out
}

// outputNames lists the output field names at sub, in declaration order, to order weights.
func (f *formatter) outputNames(sub []string) []string {
	prog, _ := f.root.Get("program")
	n, _ := prog.Get("output")
	for _, k := range sub {
		n, _ = n.Get(k)
	}
	if n == nil || n.Kind != yamlnode.Map {
		return nil
	}
	names := make([]string, len(n.Pairs))
	for i, p := range n.Pairs {
		names[i] = p.Key
	}
	return names
}

package compiler

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/benchy-eval/benchy/diag"
)

// parse is the first stage: YAML bytes to a node tree. Duplicate keys and the constructs
// Benchy forbids are all reported, not just the first, except what lex refuses at its
// first occurrence (anchors, aliases, nesting too deep, a text too large). When the
// structure is still known (a duplicate key, a tag) it returns the tree with its
// diagnostics, keeping the first occurrence of a duplicated key, so validation can report
// the independent problems too; after a syntax error it returns no tree.
func parse(src []byte) (root *node, ds diag.List) {
	root, ds, _ = parseCounted(src)
	return root, ds
}

// parseCounted is parse, also counting the diagnostics past maxCollected that were not
// written down.
func parseCounted(src []byte) (root *node, ds diag.List, dropped int) {
	l, ds := lex(bytes.TrimPrefix(src, bom))
	if l == nil {
		return nil, ds, 0
	}
	if root, ds, dropped, ok := parseFast(l); ok {
		return root, ds, dropped
	}
	return l.parseFull(false)
}

// bom is the UTF-8 byte order mark, which YAML allows at the start of a stream.
var bom = []byte("\ufeff")

// parseFull parses with goccy's full parser, keeping comments when fmt needs them. (Only
// then: goccy's comment mode rejects a few valid texts, such as a comment line indented less
// than the empty value above it.)
func parseFull(src []byte, comments bool) (root *node, ds diag.List) {
	root, ds, _ = parseFullCounted(src, comments)
	return root, ds
}

func parseFullCounted(src []byte, comments bool) (root *node, ds diag.List, dropped int) {
	l, ds := lex(bytes.TrimPrefix(src, bom))
	if l == nil {
		return nil, ds, 0
	}
	return l.parseFull(comments)
}

func (l *lexed) parseFull(comments bool) (root *node, ds diag.List, dropped int) {
	p := &parsing{lines: l.lines}
	if d := l.tooLarge(); d != nil {
		return nil, diag.List{*d}, 0
	}
	file, err := parseYAML(l.tokens, comments)
	if err != nil {
		line, col, msg := p.syntaxError(err)
		return nil, diag.List{parseDiag(diag.InvalidYAML, nil, line, col, msg)}, 0
	}
	var body ast.Node
	var lead, tail []string
	docs := 0
	for _, doc := range file.Docs {
		if _, ok := doc.Body.(*ast.DirectiveNode); ok {
			p.report(diag.InvalidYAML, nil, doc.Body.GetToken(), "directives (%YAML, %TAG) are not allowed")
			continue
		}
		if doc.Start == nil && isEmpty(doc.Body) {
			// Only comments, outside the document (before "---" or after "..."): the
			// parser makes a document of them; they are not one.
			if g, ok := doc.Body.(*ast.CommentGroupNode); ok && docs == 0 {
				lead = append(lead, commentLines(g)...)
			} else if ok {
				tail = append(tail, commentLines(g)...)
			}
			continue
		}
		docs++
		if docs > 1 {
			tk := doc.Start
			if tk == nil {
				tk = doc.Body.GetToken()
			}
			p.report(diag.InvalidYAML, nil, tk, "a benchmark file holds exactly one YAML document")
			continue
		}
		body = doc.Body
	}
	if isEmpty(body) {
		if g, ok := body.(*ast.CommentGroupNode); ok {
			lead = append(lead, commentLines(g)...)
		}
		root = &node{kind: kindNull, line: 1, col: 1}
	} else {
		root = p.convert(body, []string{})
	}
	if root.line == 0 {
		root.line, root.col = 1, 1
	}
	root.lead, root.tail = lead, tail
	return root, p.diags, p.dropped
}

// tooLarge refuses a text whose block mappings would cost goccy's parser too much.
func (l *lexed) tooLarge() *diag.Diagnostic {
	if l.mapWork <= maxMapWork {
		return nil
	}
	why := ""
	if l.stuck != nil {
		why = fmt.Sprintf(" for line %d (outside the plain block and flow style its fast reader takes)", l.stuck.Position.Line)
	}
	line, col := l.lines.pos(l.bigMap)
	d := parseDiag(diag.TooLarge, nil, line, col, fmt.Sprintf(
		"this mapping has %d keys: too many for Benchy's general YAML reader, which this file needs%s and whose cost grows with the square of a mapping's size; it takes mappings of up to about %d keys (fewer when several are large)",
		l.bigKeys, why, isqrt(maxMapWork)))
	return &d
}

// parseYAML runs goccy's parser, turning a panic inside it into an error so that no input
// can crash the compiler.
func parseYAML(toks token.Tokens, comments bool) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("the YAML parser failed on this input: %v", r)
		}
	}()
	var mode parser.Mode
	if comments {
		mode = parser.ParseComments
	}
	return parser.Parse(toks, mode, parser.AllowDuplicateMapKey())
}

// syntaxError extracts a position and a one-line message from a parser error.
func (p *parsing) syntaxError(err error) (line, col int, msg string) {
	var te interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if errors.As(err, &te) {
		line, col = p.pos(te.GetToken())
		return line, col, "YAML syntax error: " + te.GetMessage()
	}
	return 1, 1, firstLine(err.Error())
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func isEmpty(n ast.Node) bool {
	if n == nil {
		return true
	}
	_, isComment := n.(*ast.CommentGroupNode)
	return isComment
}

func (p *parsing) pos(tk *token.Token) (line, col int) { return p.lines.pos(tk) }

func parseDiag(code diag.Code, path []string, line, col int, msg string) diag.Diagnostic {
	if path == nil {
		path = []string{}
	}
	return diag.Diagnostic{Phase: diag.PhaseParse, Code: code, Path: path, Message: msg, Line: line, Column: col}
}

// parsing carries the diagnostics of one parse.
type parsing struct {
	diags   diag.List
	dropped int // diagnostics past maxCollected, not written down
	lines   *lineTable
	merged  bool // the last key converted was dropped: a merge key or an explicit key
}

func (p *parsing) report(code diag.Code, path []string, tk *token.Token, msg string) {
	if len(p.diags) >= maxCollected {
		p.dropped++
		return
	}
	line, col := p.pos(tk)
	p.diags = append(p.diags, parseDiag(code, path, line, col, msg))
}

// convert turns a goccy node into a node, reporting what Benchy forbids.
func (p *parsing) convert(n ast.Node, path []string) *node {
	switch x := n.(type) {
	case nil:
		return &node{kind: kindNull, line: 1, col: 1}
	case *ast.TagNode:
		p.report(diag.InvalidYAML, path, x.Start, fmt.Sprintf("tags such as %s are not allowed; Benchy gives every value its meaning from its place", x.Start.Value))
		return &node{kind: kindBad} // a tag changes what its value means: nothing to check
	case *ast.AnchorNode:
		p.report(diag.InvalidYAML, path, x.Start, "anchors (&name) are not allowed; write each value where it is used")
		return p.convert(x.Value, path)
	case *ast.AliasNode:
		p.report(diag.InvalidYAML, path, x.Start, "aliases (*name) are not allowed; write each value where it is used")
		return &node{kind: kindBad}
	case *ast.MappingNode:
		return p.mapping(x, x.Values, path)
	case *ast.MappingValueNode:
		return p.mapping(x, []*ast.MappingValueNode{x}, path)
	case *ast.SequenceNode:
		out := &node{kind: kindSeq, flow: x.IsFlowStyle, comment: commentText(x.GetComment())}
		out.line, out.col = p.pos(x.Start)
		for _, v := range x.Values {
			item := p.convert(v, path)
			if item.line == 0 {
				item.line, item.col = out.line, out.col
			}
			out.items = append(out.items, item)
		}
		return out
	case *ast.LiteralNode:
		line, col := p.pos(x.Start)
		return &node{kind: kindString, line: line, col: col, text: x.Value.Value, quoted: true, comment: commentText(x.GetComment())}
	case ast.ScalarNode:
		return p.scalar(n)
	}
	p.report(diag.InvalidYAML, path, n.GetToken(), "unexpected YAML construct "+n.Type().String())
	return &node{kind: kindBad}
}

// scalar resolves a scalar by its token: quoted text is a string, plain text follows the
// YAML 1.2 core schema.
func (p *parsing) scalar(n ast.Node) *node {
	tk := n.GetToken()
	out := &node{comment: commentText(n.GetComment()), commentAt: commentLine(n.GetComment())}
	out.line, out.col = p.pos(tk)
	if tk == nil {
		out.kind = kindNull
		return out
	}
	switch tk.Type {
	case token.SingleQuoteType, token.DoubleQuoteType:
		out.kind, out.text, out.quoted = kindString, tk.Value, true
		return out
	case token.ImplicitNullType:
		// An empty value has no place of its own (the parser puts it past the end of the
		// line); its key's or sequence's position is given to it by the caller.
		out.kind, out.line, out.col = kindNull, 0, 0
		return out
	}
	text := tk.Value
	if s, ok := n.(*ast.StringNode); ok {
		text = s.Value
	}
	out.kind, out.num = resolvePlain(text)
	out.text = text
	return out
}

// mapping converts mapping entries, reporting forbidden keys and duplicates.
func (p *parsing) mapping(n ast.Node, values []*ast.MappingValueNode, path []string) *node {
	out := &node{kind: kindMap}
	if m, ok := n.(*ast.MappingNode); ok {
		out.flow, out.comment = m.IsFlowStyle, commentText(m.GetComment())
		out.line, out.col = p.pos(m.Start)
	}
	if len(values) > 0 && !out.flow {
		out.line, out.col = p.pos(values[0].Key.GetToken())
	}
	for _, mv := range values {
		p.merged = false
		key, ok := p.key(mv.Key, path)
		if !ok {
			out.partial = out.partial || p.merged
			continue
		}
		keyPath := append(path[:len(path):len(path)], key.text)
		line, col := key.line, key.col
		if _, prev := out.get(key.text); prev != nil {
			if len(p.diags) >= maxCollected {
				p.dropped++
			} else {
				p.diags = append(p.diags, parseDiag(diag.DuplicateKey, keyPath, line, col,
					fmt.Sprintf("duplicate key %q: it is already defined at line %d", clip(key.text), prev.line)))
			}
			continue
		}
		pr := pair{key: key.text, keyKind: key.kind, line: line, col: col, value: p.convert(mv.Value, keyPath)}
		if pr.value.line == 0 {
			pr.value.line, pr.value.col = line, col
		}
		pr.head = commentLines(mv.GetComment())
		if kc := commentText(mv.Key.GetComment()); kc != "" && pr.value.comment == "" {
			pr.value.comment = kc
		}
		pr.foot = commentLines(mv.FootComment)
		out.pairs = append(out.pairs, pr)
	}
	if out.flow {
		reattachComments(out.pairs)
	}
	return out
}

// reattachComments fixes where the parser put comments written inside a flow mapping: it
// ties "# c" in "{a: 1, # c\n b: 2}" to b's value. The comment goes back to the entry on its
// line, or above the entry it precedes.
func reattachComments(pairs []pair) {
	for i := range pairs {
		v := pairs[i].value
		if v.comment == "" || v.commentAt == 0 || v.commentAt >= v.line {
			continue
		}
		if i > 0 && pairs[i-1].value.comment == "" && pairs[i-1].value.line == v.commentAt {
			pairs[i-1].value.comment, pairs[i-1].value.commentAt = v.comment, v.commentAt
		} else {
			pairs[i].head = append(pairs[i].head, v.comment)
		}
		v.comment, v.commentAt = "", 0
	}
}

// key converts a mapping key, which must be a plain or quoted scalar.
func (p *parsing) key(k ast.MapKeyNode, path []string) (*node, bool) {
	switch x := k.(type) {
	case *ast.MergeKeyNode:
		p.report(diag.InvalidYAML, path, x.GetToken(), "merge keys (<<) are not allowed; write every key where it belongs")
		p.merged = true
		return nil, false
	case *ast.MappingKeyNode:
		p.report(diag.InvalidYAML, path, x.GetToken(), "explicit keys (? key) are not allowed; write key: value")
		p.merged = true
		return nil, false
	case *ast.TagNode, *ast.AnchorNode, *ast.AliasNode:
		p.convert(x, path) // reports the construct
		return nil, false
	case ast.ScalarNode:
		kn := p.scalar(x)
		if kn.kind != kindString {
			// A key such as 1, true or null is not a string in YAML; keep its text so the
			// checks can say so at the right place.
			kn.text = strings.TrimSpace(x.GetToken().Value)
		}
		return kn, true
	}
	p.report(diag.InvalidYAML, path, k.GetToken(), "a mapping key must be a plain or quoted string")
	return nil, false
}

// commentText joins a comment group into one line without the leading '#'.
func commentText(g *ast.CommentGroupNode) string {
	return strings.Join(commentLines(g), " ")
}

func commentLine(g *ast.CommentGroupNode) int {
	if g == nil || len(g.Comments) == 0 || g.Comments[0].Token == nil || g.Comments[0].Token.Position == nil {
		return 0
	}
	return g.Comments[0].Token.Position.Line
}

func commentLines(g *ast.CommentGroupNode) []string {
	if g == nil {
		return nil
	}
	var out []string
	for _, c := range g.Comments {
		if c != nil && c.Token != nil {
			out = append(out, c.Token.Value)
		}
	}
	return out
}

// isqrt is the integer square root of n > 0.
func isqrt(n int) int {
	r := 1
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

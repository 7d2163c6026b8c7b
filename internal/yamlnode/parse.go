package yamlnode

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

// benchmarkDoc is how messages name a file when Options.Doc does not.
const benchmarkDoc = "benchmark file"

// Options say how to read a text.
type Options struct {
	// Comments keeps the comments on the nodes (Lead, Tail, Head, Foot, Comment), for
	// writing the text back. Only goccy's full parser keeps them, and only then is it asked
	// to: its comment mode rejects a few valid texts, such as a comment line indented less
	// than the empty value above it.
	Comments bool
	// Full reads with goccy's full parser even where the fast path answers: the tests and
	// benchmarks that hold the two together use it.
	Full bool
	// Doc names what the file is in messages ("a runtime file holds exactly one YAML
	// document"); "benchmark file" when empty.
	Doc string
}

// Parse reads YAML bytes into a node tree. Duplicate keys and the constructs Benchy forbids
// (tags, merge keys, explicit keys, directives, several documents) are all reported, not
// just the first, except what is refused on the bytes and tokens at its first occurrence
// (anchors, aliases, nesting too deep, a text too large, invalid UTF-8, characters YAML
// excludes). When the structure is still known (a duplicate key, a tag) it returns the tree
// with its diagnostics, keeping the first occurrence of a duplicated key, so that the caller
// can report the independent problems too; after a syntax error or a refusal it returns no
// tree. Diagnostics are in phase parse, with the codes invalid_yaml, duplicate_key,
// too_large and too_deep; dropped counts those past MaxCollected, not written down.
func Parse(src []byte, opt Options) (root *Node, ds diag.List, dropped int) {
	if opt.Doc == "" {
		opt.Doc = benchmarkDoc
	}
	l, ds := lex(bytes.TrimPrefix(src, bom), opt.Doc)
	if l == nil {
		return nil, ds, 0
	}
	if !opt.Comments && !opt.Full {
		if root, ds, dropped, ok := parseFast(l); ok {
			return root, ds, dropped
		}
	}
	return l.parseFull(opt.Comments)
}

// bom is the UTF-8 byte order mark, which YAML allows at the start of a stream.
var bom = []byte("\ufeff")

func (l *lexed) parseFull(comments bool) (root *Node, ds diag.List, dropped int) {
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
			p.report(diag.InvalidYAML, nil, tk, "a "+l.doc+" holds exactly one YAML document")
			continue
		}
		body = doc.Body
	}
	if isEmpty(body) {
		if g, ok := body.(*ast.CommentGroupNode); ok {
			lead = append(lead, commentLines(g)...)
		}
		root = &Node{Kind: Null, Line: 1, Col: 1}
	} else {
		root = p.convert(body, []string{})
	}
	if root.Line == 0 {
		root.Line, root.Col = 1, 1
	}
	root.Lead, root.Tail = lead, tail
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
// can crash its caller.
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
	dropped int // diagnostics past MaxCollected, not written down
	lines   *lineTable
	merged  bool // the last key converted was dropped: a merge key or an explicit key
}

func (p *parsing) report(code diag.Code, path []string, tk *token.Token, msg string) {
	if len(p.diags) >= MaxCollected {
		p.dropped++
		return
	}
	line, col := p.pos(tk)
	p.diags = append(p.diags, parseDiag(code, path, line, col, msg))
}

// convert turns a goccy node into a node, reporting what Benchy forbids.
func (p *parsing) convert(n ast.Node, path []string) *Node {
	switch x := n.(type) {
	case nil:
		return &Node{Kind: Null, Line: 1, Col: 1}
	case *ast.TagNode:
		p.report(diag.InvalidYAML, path, x.Start, fmt.Sprintf("tags such as %s are not allowed; Benchy gives every value its meaning from its place", x.Start.Value))
		return &Node{Kind: Bad} // a tag changes what its value means: nothing to check
	case *ast.AnchorNode:
		p.report(diag.InvalidYAML, path, x.Start, "anchors (&name) are not allowed; write each value where it is used")
		return p.convert(x.Value, path)
	case *ast.AliasNode:
		p.report(diag.InvalidYAML, path, x.Start, "aliases (*name) are not allowed; write each value where it is used")
		return &Node{Kind: Bad}
	case *ast.MappingNode:
		return p.mapping(x, x.Values, path)
	case *ast.MappingValueNode:
		return p.mapping(x, []*ast.MappingValueNode{x}, path)
	case *ast.SequenceNode:
		out := &Node{Kind: Seq, Flow: x.IsFlowStyle, Comment: commentText(x.GetComment())}
		out.Line, out.Col = p.pos(x.Start)
		for _, v := range x.Values {
			item := p.convert(v, path)
			if item.Line == 0 {
				item.Line, item.Col = out.Line, out.Col
			}
			out.Items = append(out.Items, item)
		}
		return out
	case *ast.LiteralNode:
		line, col := p.pos(x.Start)
		return &Node{Kind: String, Line: line, Col: col, Text: x.Value.Value, Quoted: true, Comment: commentText(x.GetComment())}
	case ast.ScalarNode:
		return p.scalar(n)
	}
	p.report(diag.InvalidYAML, path, n.GetToken(), "unexpected YAML construct "+n.Type().String())
	return &Node{Kind: Bad}
}

// scalar resolves a scalar by its token: quoted text is a string, plain text follows the
// YAML 1.2 core schema.
func (p *parsing) scalar(n ast.Node) *Node {
	tk := n.GetToken()
	out := &Node{Comment: commentText(n.GetComment()), CommentAt: commentLine(n.GetComment())}
	out.Line, out.Col = p.pos(tk)
	if tk == nil {
		out.Kind = Null
		return out
	}
	switch tk.Type {
	case token.SingleQuoteType, token.DoubleQuoteType:
		out.Kind, out.Text, out.Quoted = String, tk.Value, true
		return out
	case token.ImplicitNullType:
		// An empty value has no place of its own (the parser puts it past the end of the
		// line); its key's or sequence's position is given to it by the caller.
		out.Kind, out.Line, out.Col = Null, 0, 0
		return out
	}
	text := tk.Value
	if s, ok := n.(*ast.StringNode); ok {
		text = s.Value
	}
	out.Kind, out.Num = Resolve(text)
	out.Text = text
	return out
}

// mapping converts mapping entries, reporting forbidden keys and duplicates.
func (p *parsing) mapping(n ast.Node, values []*ast.MappingValueNode, path []string) *Node {
	out := &Node{Kind: Map}
	if m, ok := n.(*ast.MappingNode); ok {
		out.Flow, out.Comment = m.IsFlowStyle, commentText(m.GetComment())
		out.Line, out.Col = p.pos(m.Start)
	}
	if len(values) > 0 && !out.Flow {
		out.Line, out.Col = p.pos(values[0].Key.GetToken())
	}
	for _, mv := range values {
		p.merged = false
		key, ok := p.key(mv.Key, path)
		if !ok {
			out.Partial = out.Partial || p.merged
			continue
		}
		keyPath := append(path[:len(path):len(path)], key.Text)
		line, col := key.Line, key.Col
		if _, prev := out.Get(key.Text); prev != nil {
			if len(p.diags) >= MaxCollected {
				p.dropped++
			} else {
				p.diags = append(p.diags, parseDiag(diag.DuplicateKey, keyPath, line, col,
					fmt.Sprintf("duplicate key %q: it is already defined at line %d", Clip(key.Text), prev.Line)))
			}
			continue
		}
		pr := Pair{Key: key.Text, KeyKind: key.Kind, Line: line, Col: col, Value: p.convert(mv.Value, keyPath)}
		if pr.Value.Line == 0 {
			pr.Value.Line, pr.Value.Col = line, col
		}
		pr.Head = commentLines(mv.GetComment())
		if kc := commentText(mv.Key.GetComment()); kc != "" && pr.Value.Comment == "" {
			pr.Value.Comment = kc
		}
		pr.Foot = commentLines(mv.FootComment)
		out.Pairs = append(out.Pairs, pr)
	}
	if out.Flow {
		reattachComments(out.Pairs)
	}
	return out
}

// reattachComments fixes where the parser put comments written inside a flow mapping: it
// ties "# c" in "{a: 1, # c\n b: 2}" to b's value. The comment goes back to the entry on its
// line, or above the entry it precedes.
func reattachComments(pairs []Pair) {
	for i := range pairs {
		v := pairs[i].Value
		if v.Comment == "" || v.CommentAt == 0 || v.CommentAt >= v.Line {
			continue
		}
		if i > 0 && pairs[i-1].Value.Comment == "" && pairs[i-1].Value.Line == v.CommentAt {
			pairs[i-1].Value.Comment, pairs[i-1].Value.CommentAt = v.Comment, v.CommentAt
		} else {
			pairs[i].Head = append(pairs[i].Head, v.Comment)
		}
		v.Comment, v.CommentAt = "", 0
	}
}

// key converts a mapping key, which must be a plain or quoted scalar.
func (p *parsing) key(k ast.MapKeyNode, path []string) (*Node, bool) {
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
		if kn.Kind != String {
			// A key such as 1, true or null is not a string in YAML; keep its text so the
			// checks can say so at the right place.
			kn.Text = strings.TrimSpace(x.GetToken().Value)
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

package compiler

import (
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"
)

// parseFast builds the node tree straight from the YAML lexer's tokens for the plain subset
// of YAML that benchmark files are written in: block and flow mappings, block and flow
// sequences, plain and quoted scalars, comments (skipped: only fmt needs them). On anything
// else it gives up, and parse runs goccy's full parser instead, which also writes every
// diagnostic. It exists for speed: goccy's parser costs three times its lexer. A differential
// test and a fuzz target hold it to the full parser's trees wherever it answers.
func parseFast(src []byte) (root *node, ok bool) {
	if !utf8.Valid(src) {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			root, ok = nil, false
		}
	}()
	all := lexer.Tokenize(string(src))
	toks := make([]*token.Token, 0, len(all))
	depth, header := 0, 0 // flow nesting; the line of a leading "---"
	for i, tk := range all {
		if tk.Position != nil && tk.Position.Line == header {
			return nil, false // content beside "---"
		}
		switch tk.Type {
		case token.MappingStartType, token.SequenceStartType:
			depth++
		case token.MappingEndType, token.SequenceEndType:
			depth--
		}
		switch {
		case tk.Type == token.CommentType && depth > 0:
			return nil, false // the full parser rejects some comments inside flow collections
		case tk.Type == token.CommentType:
		case tk.Type == token.DocumentHeaderType && len(toks) == 0 && header == 0 && tk.Position.Column == 1:
			header = tk.Position.Line
		case tk.Type == token.DocumentEndType && i == len(all)-1:
		default:
			if tk.Position == nil {
				return nil, false
			}
			toks = append(toks, tk)
		}
	}
	f := &fastParser{toks: toks, lines: newLineTable(src)}
	if len(toks) == 0 {
		return &node{kind: kindNull, line: 1, col: 1}, true
	}
	// A benchmark is a mapping; any other root is an error the full parser words best.
	switch first := toks[0]; {
	case f.isKey(0):
		root, ok = f.blockMap(first.Position.Column)
	case first.Type == token.MappingStartType:
		root, ok = f.flowMap(0)
	}
	if !ok || f.i != len(toks) {
		return nil, false
	}
	return root, true
}

type fastParser struct {
	toks  []*token.Token
	i     int
	lines *lineTable
}

func (f *fastParser) peek(k int) *token.Token {
	if f.i+k < len(f.toks) {
		return f.toks[f.i+k]
	}
	return nil
}

// isKey reports whether the token at offset k starts a block or flow mapping entry: a
// scalar followed on the same line by ':'.
func (f *fastParser) isKey(k int) bool {
	t, colon := f.peek(k), f.peek(k+1)
	return t != nil && colon != nil && isScalarToken(t) && colon.Type == token.MappingValueType &&
		colon.Position.Line == t.Position.Line
}

func isScalarToken(t *token.Token) bool {
	switch t.Type {
	case token.StringType, token.SingleQuoteType, token.DoubleQuoteType, token.NullType,
		token.IntegerType, token.BinaryIntegerType, token.OctetIntegerType, token.HexIntegerType,
		token.FloatType, token.BoolType, token.InfinityType, token.NanType:
		return true
	}
	return false
}

// scalarNode resolves a scalar token as the full parser does.
func (f *fastParser) scalarNode(t *token.Token) *node {
	n := &node{text: t.Value}
	n.line, n.col = f.lines.pos(t)
	if t.Type == token.SingleQuoteType || t.Type == token.DoubleQuoteType {
		n.kind, n.quoted = kindString, true
		return n
	}
	n.kind, n.num = resolvePlain(t.Value)
	return n
}

// keyNode is a mapping key: any scalar, keeping the text of non-string keys.
func (f *fastParser) keyNode(t *token.Token) *node {
	n := f.scalarNode(t)
	if n.kind != kindString {
		n.text = strings.TrimSpace(t.Value)
	}
	return n
}

// blockMap parses a block mapping whose keys sit at column col.
func (f *fastParser) blockMap(col int) (*node, bool) {
	n := &node{kind: kindMap}
	n.line, n.col = f.lines.pos(f.peek(0))
	for {
		t := f.peek(0)
		if t == nil || t.Position.Column < col {
			return n, true
		}
		if t.Position.Column > col || !f.isKey(0) {
			return nil, false
		}
		key := f.keyNode(t)
		f.i += 2
		if _, dup := n.get(key.text); dup != nil {
			return nil, false // the full parser reports it
		}
		v, ok := f.entryValue(t.Position.Line, col)
		if !ok {
			return nil, false
		}
		if v.line == 0 {
			v.line, v.col = key.line, key.col
		}
		n.pairs = append(n.pairs, pair{key: key.text, keyKind: key.kind, line: key.line, col: key.col, value: v})
	}
}

// entryValue parses the value of a block mapping entry whose key is at keyLine, keyCol.
func (f *fastParser) entryValue(keyLine, keyCol int) (*node, bool) {
	t := f.peek(0)
	switch {
	case t == nil:
		return &node{kind: kindNull}, true
	case t.Position.Line == keyLine:
		return f.inlineLast(keyCol)
	case t.Type == token.SequenceEntryType && t.Position.Column >= keyCol:
		return f.blockSeq(t.Position.Column)
	case t.Position.Column <= keyCol:
		return &node{kind: kindNull}, true // an empty value
	case f.isKey(0):
		return f.blockMap(t.Position.Column)
	}
	return f.inlineLast(keyCol)
}

// inlineLast parses a scalar or flow collection that must end its line.
func (f *fastParser) inlineLast(blockCol int) (*node, bool) {
	v, ok := f.inline(blockCol)
	if !ok {
		return nil, false
	}
	if next := f.peek(0); next != nil && next.Position.Line == f.toks[f.i-1].Position.Line {
		return nil, false // more on the same line: not the subset
	}
	return v, true
}

// inline parses a scalar or a flow collection. Continuation lines of a flow collection must
// be indented past blockCol.
func (f *fastParser) inline(blockCol int) (*node, bool) {
	t := f.peek(0)
	if t == nil {
		return nil, false
	}
	switch {
	case t.Type == token.MappingStartType:
		return f.flowMap(blockCol)
	case t.Type == token.SequenceStartType:
		return f.flowSeq(blockCol)
	case isScalarToken(t) && !f.isKey(0):
		f.i++
		return f.scalarNode(t), true
	}
	return nil, false
}

// next consumes a token inside a flow collection, checking its indentation.
func (f *fastParser) next(blockCol, startLine int) (*token.Token, bool) {
	t := f.peek(0)
	if t == nil || (t.Position.Line != startLine && t.Position.Column <= blockCol) {
		return nil, false
	}
	return t, true
}

func (f *fastParser) flowMap(blockCol int) (*node, bool) {
	open := f.peek(0)
	f.i++
	n := &node{kind: kindMap, flow: true}
	n.line, n.col = f.lines.pos(open)
	for {
		t, ok := f.next(blockCol, open.Position.Line)
		if !ok {
			return nil, false
		}
		if t.Type == token.MappingEndType {
			f.i++
			return n, true
		}
		if !f.isKey(0) {
			return nil, false
		}
		key := f.keyNode(t)
		f.i += 2
		if _, dup := n.get(key.text); dup != nil {
			return nil, false
		}
		if v, ok := f.next(blockCol, open.Position.Line); !ok || v.Type == token.CollectEntryType || v.Type == token.MappingEndType {
			return nil, false // an empty value: left to the full parser
		}
		v, ok := f.inline(blockCol)
		if !ok {
			return nil, false
		}
		n.pairs = append(n.pairs, pair{key: key.text, keyKind: key.kind, line: key.line, col: key.col, value: v})
		if !f.flowSeparator(token.MappingEndType, blockCol, open.Position.Line) {
			return nil, false
		}
	}
}

func (f *fastParser) flowSeq(blockCol int) (*node, bool) {
	open := f.peek(0)
	f.i++
	n := &node{kind: kindSeq, flow: true}
	n.line, n.col = f.lines.pos(open)
	for {
		t, ok := f.next(blockCol, open.Position.Line)
		if !ok {
			return nil, false
		}
		if t.Type == token.SequenceEndType {
			f.i++
			return n, true
		}
		v, ok := f.inline(blockCol)
		if !ok {
			return nil, false
		}
		n.items = append(n.items, v)
		if !f.flowSeparator(token.SequenceEndType, blockCol, open.Position.Line) {
			return nil, false
		}
	}
}

// flowSeparator consumes the ',' after a flow entry, or checks that end follows.
func (f *fastParser) flowSeparator(end token.Type, blockCol, startLine int) bool {
	t, ok := f.next(blockCol, startLine)
	if !ok {
		return false
	}
	if t.Type == token.CollectEntryType {
		f.i++
		after, ok := f.next(blockCol, startLine)
		return ok && after.Type != token.CollectEntryType
	}
	return t.Type == end
}

// blockSeq parses a block sequence whose '-' entries sit at column col; each entry holds a
// scalar or flow collection on its own line.
func (f *fastParser) blockSeq(col int) (*node, bool) {
	n := &node{kind: kindSeq}
	n.line, n.col = f.lines.pos(f.peek(0))
	for {
		t := f.peek(0)
		if t == nil || t.Position.Column < col || (t.Position.Column == col && t.Type != token.SequenceEntryType) {
			return n, true
		}
		if t.Position.Column > col || t.Type != token.SequenceEntryType {
			return nil, false
		}
		f.i++
		item := f.peek(0)
		if item == nil || item.Position.Line != t.Position.Line {
			return nil, false // an empty or nested entry: left to the full parser
		}
		v, ok := f.inlineLast(col)
		if !ok {
			return nil, false
		}
		n.items = append(n.items, v)
	}
}

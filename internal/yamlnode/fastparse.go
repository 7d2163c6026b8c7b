package yamlnode

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/token"

	"github.com/benchy-eval/benchy/diag"
)

// parseFast builds the node tree straight from the YAML lexer's tokens for the plain subset
// of YAML that benchmark files are written in: block and flow mappings, block and flow
// sequences, plain and quoted scalars, comments (skipped: only fmt needs them). It reports
// duplicate keys as the full parser does, keeping the first. On anything else it gives up
// (ok is false, l.stuck is where), and parse runs goccy's full parser instead, which also
// writes every other diagnostic. It exists for speed: goccy's parser costs three times its
// lexer, and the square of the keys of a block mapping (parseMap recurses per key). It is a
// second implementation and earns its place by issue 12's target of compiling the paper's
// invoice example in 100 µs or less: measured (GOMAXPROCS=1, BenchmarkCompileInvoiceWith,
// median of 5) 79 µs and 488 allocations with it (90 µs on a busier machine, where goccy's
// parser alone took 196 µs and 1,156 allocations; ir.Marshal by json v2 in both; 60 µs
// against 113 µs with the former hand-written IR writer); 1,000 generated fields compile in
// 6.6 ms with it and 12.4 ms without
// (BenchmarkCompileFields' target: 10 ms). A differential test and a fuzz target hold it to
// the full parser's trees and diagnostics wherever it answers.
func parseFast(l *lexed) (root *Node, ds diag.List, dropped int, ok bool) {
	f := &fastParser{lines: l.lines}
	defer func() {
		if recover() != nil {
			root, ds, dropped, ok = nil, nil, 0, false
		}
		if !ok {
			l.stuck = f.peek(0)
			if l.stuck == nil && len(f.toks) > 0 {
				l.stuck = f.toks[len(f.toks)-1]
			}
		}
	}()
	all := l.tokens
	toks := make([]*token.Token, 0, len(all))
	depth, header := 0, 0 // flow nesting; the line of a leading "---"
	for i, tk := range all {
		if tk.Position != nil && tk.Position.Line == header {
			f.toks = append(toks, tk)
			f.i = len(toks)
			return nil, nil, 0, false // content beside "---"
		}
		switch tk.Type {
		case token.MappingStartType, token.SequenceStartType:
			depth++
		case token.MappingEndType, token.SequenceEndType:
			depth--
		}
		switch {
		case tk.Type == token.CommentType && depth > 0:
			f.toks = append(toks, tk)
			f.i = len(toks)
			return nil, nil, 0, false // the full parser rejects some comments inside flow collections
		case tk.Type == token.CommentType:
		case tk.Type == token.DocumentHeaderType && len(toks) == 0 && header == 0 && tk.Position.Column == 1:
			header = tk.Position.Line
		case tk.Type == token.DocumentEndType && i == len(all)-1:
		default:
			if tk.Position == nil {
				return nil, nil, 0, false
			}
			toks = append(toks, tk)
		}
	}
	f.toks = toks
	if len(toks) == 0 {
		return &Node{Kind: Null, Line: 1, Col: 1}, nil, 0, true
	}
	// A benchmark is a mapping; any other root is an error the full parser words best.
	switch first := toks[0]; {
	case f.isKey(0):
		root, ok = f.blockMap(first.Position.Column)
	case first.Type == token.MappingStartType:
		root, ok = f.flowMap(0)
	}
	if !ok || f.i != len(toks) {
		return nil, nil, 0, false
	}
	return root, f.diags, f.dropped, true
}

type fastParser struct {
	toks    []*token.Token
	i       int
	lines   *lineTable
	path    []string // the keys from the root to the mapping being read
	diags   diag.List
	dropped int // diagnostics past MaxCollected, not written down
}

// mark is where the diagnostics stand before a value is read.
func (f *fastParser) mark() [2]int { return [2]int{len(f.diags), f.dropped} }

// duplicate reports a key already in n, as the full parser does, dropping what was reported
// inside its value since mark: the full parser does not read the value of a duplicate.
func (f *fastParser) duplicate(n *Node, key Node, mark [2]int) {
	f.diags, f.dropped = f.diags[:mark[0]], mark[1]
	if len(f.diags) >= MaxCollected {
		f.dropped++
		return
	}
	_, prev := n.Get(key.Text)
	path := append(f.path[:len(f.path):len(f.path)], key.Text)
	f.diags = append(f.diags, parseDiag(diag.DuplicateKey, path, key.Line, key.Col,
		fmt.Sprintf("duplicate key %q: it is already defined at line %d", Clip(key.Text), prev.Line)))
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

// scalar resolves a scalar token as the full parser does.
func (f *fastParser) scalar(t *token.Token) Node {
	n := Node{Text: t.Value}
	n.Line, n.Col = f.lines.pos(t)
	if t.Type == token.SingleQuoteType || t.Type == token.DoubleQuoteType {
		n.Kind, n.Quoted = String, true
		return n
	}
	n.Kind, n.Num = Resolve(t.Value)
	return n
}

func (f *fastParser) scalarNode(t *token.Token) *Node {
	n := f.scalar(t)
	return &n
}

// key is a mapping key: any scalar, keeping the text of non-string keys. Only its text,
// kind and place are kept, so it is not allocated.
func (f *fastParser) key(t *token.Token) Node {
	n := f.scalar(t)
	if n.Kind != String {
		n.Text = strings.TrimSpace(t.Value)
	}
	return n
}

// blockMap parses a block mapping whose keys sit at column col.
func (f *fastParser) blockMap(col int) (*Node, bool) {
	n := &Node{Kind: Map}
	n.Line, n.Col = f.lines.pos(f.peek(0))
	for {
		t := f.peek(0)
		if t == nil || t.Position.Column < col {
			return n, true
		}
		if t.Position.Column > col || !f.isKey(0) {
			return nil, false
		}
		key := f.key(t)
		f.i += 2
		_, dup := n.Get(key.Text)
		f.path = append(f.path, key.Text)
		mark := f.mark()
		v, ok := f.entryValue(t.Position.Line, col)
		f.path = f.path[:len(f.path)-1]
		if !ok {
			return nil, false
		}
		if dup != nil {
			f.duplicate(n, key, mark)
			continue
		}
		if v.Line == 0 {
			v.Line, v.Col = key.Line, key.Col
		}
		n.Pairs = append(n.Pairs, Pair{Key: key.Text, KeyKind: key.Kind, Line: key.Line, Col: key.Col, Value: v})
	}
}

// entryValue parses the value of a block mapping entry whose key is at keyLine, keyCol.
func (f *fastParser) entryValue(keyLine, keyCol int) (*Node, bool) {
	t := f.peek(0)
	switch {
	case t == nil:
		return &Node{Kind: Null}, true
	case t.Position.Line == keyLine:
		return f.inlineLast(keyCol)
	case t.Type == token.SequenceEntryType && t.Position.Column >= keyCol:
		return f.blockSeq(t.Position.Column)
	case t.Position.Column <= keyCol:
		return &Node{Kind: Null}, true // an empty value
	case f.isKey(0):
		return f.blockMap(t.Position.Column)
	}
	return f.inlineLast(keyCol)
}

// inlineLast parses a scalar or flow collection that must end its line.
func (f *fastParser) inlineLast(blockCol int) (*Node, bool) {
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
func (f *fastParser) inline(blockCol int) (*Node, bool) {
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

func (f *fastParser) flowMap(blockCol int) (*Node, bool) {
	open := f.peek(0)
	f.i++
	n := &Node{Kind: Map, Flow: true}
	n.Line, n.Col = f.lines.pos(open)
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
		key := f.key(t)
		f.i += 2
		if v, ok := f.next(blockCol, open.Position.Line); !ok || v.Type == token.CollectEntryType || v.Type == token.MappingEndType {
			return nil, false // an empty value: left to the full parser
		}
		_, dup := n.Get(key.Text)
		f.path = append(f.path, key.Text)
		mark := f.mark()
		v, ok := f.inline(blockCol)
		f.path = f.path[:len(f.path)-1]
		if !ok {
			return nil, false
		}
		if dup != nil {
			f.duplicate(n, key, mark)
		} else {
			n.Pairs = append(n.Pairs, Pair{Key: key.Text, KeyKind: key.Kind, Line: key.Line, Col: key.Col, Value: v})
		}
		if !f.flowSeparator(token.MappingEndType, blockCol, open.Position.Line) {
			return nil, false
		}
	}
}

func (f *fastParser) flowSeq(blockCol int) (*Node, bool) {
	open := f.peek(0)
	f.i++
	n := &Node{Kind: Seq, Flow: true}
	n.Line, n.Col = f.lines.pos(open)
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
		n.Items = append(n.Items, v)
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
func (f *fastParser) blockSeq(col int) (*Node, bool) {
	n := &Node{Kind: Seq}
	n.Line, n.Col = f.lines.pos(f.peek(0))
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
		n.Items = append(n.Items, v)
	}
}

package yamlnode

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/token"

	"github.com/benchy-eval/benchy/diag"
)

// lexed is a text read into tokens, with what the parsers need to know about its shape.
type lexed struct {
	src    []byte
	lines  *lineTable
	doc    string // what the file is, in messages (Options.Doc)
	tokens token.Tokens
	// mapWork is Σ k² over the block mappings (k keys each), what goccy's parser spends on
	// them; bigMap is the first key of the largest, of bigKeys keys.
	mapWork, bigKeys int
	bigMap           *token.Token
	// stuck is where the fast parser gave up, when it did.
	stuck  *token.Token
	cursor struct{ line, col, off int } // see raw
}

// lex reads src (without its byte order mark) into tokens and refuses, at its first
// occurrence and before any parser runs, what Benchy never reads: a text too large, not
// UTF-8 or with a character YAML excludes (guard), nesting deeper than MaxDepth, an anchor
// or alias, an escape that names no character. The tokens serve both parsers, so a text is
// lexed once.
func lex(src []byte, doc string) (*lexed, diag.List) {
	l := &lexed{src: src, lines: newLineTable(src), doc: doc}
	d, cut := guard(src, true, doc)
	if d != nil {
		return nil, diag.List{*d}
	}
	if cut > 0 {
		// The bytes suggest a problem at cut: when the prefix is short, the lexer confirms
		// it there without reading the rest.
		if cut <= len(src)/2 {
			if prefix, err := tokenize(src[:cut]); err == nil {
				if d := l.inspect(prefix); d != nil {
					return nil, diag.List{*d}
				}
			}
		}
		if d, _ := guard(src, false, doc); d != nil {
			return nil, diag.List{*d}
		}
	}
	toks, err := tokenize(src)
	if err != nil {
		return nil, diag.List{parseDiag(diag.InvalidYAML, nil, 1, 1, err.Error())}
	}
	l.tokens = toks
	if d := l.inspect(toks); d != nil {
		return nil, diag.List{*d}
	}
	return l, nil
}

// tokenize runs goccy's lexer, turning a panic inside it into an error.
func tokenize(src []byte) (toks token.Tokens, err error) {
	defer func() {
		if r := recover(); r != nil {
			toks, err = nil, fmt.Errorf("the YAML lexer failed on this input: %v", r)
		}
	}()
	return lexer.Tokenize(string(src)), nil
}

// level is one open collection while inspecting tokens.
type level struct {
	flow, seq bool
	col       int    // block collections: the column of their entries
	key       string // mappings: the key whose value follows
	keyed     bool
	keys      int          // block mappings: keys so far
	first     *token.Token // block mappings: the first key
}

// inspect walks the tokens once, following the nesting of block and flow collections, and
// reports the first anchor, alias, collection nested too deep, or escape naming no
// character. It measures the block mappings for the full parser. It stops at a token the
// lexer could not read: the parser reports that one.
func (l *lexed) inspect(toks token.Tokens) *diag.Diagnostic {
	var stack []level
	docs := 0
	l.mapWork, l.bigKeys, l.bigMap = 0, 0, nil
	l.cursor.line = 0
	inFlow := func() bool { return len(stack) > 0 && stack[len(stack)-1].flow }
	problem := func(tk *token.Token, path []string, code diag.Code, msg string) *diag.Diagnostic {
		line, col := l.lines.pos(tk)
		d := parseDiag(code, path, line, col, msg)
		return &d
	}
	deep := func(tk *token.Token) *diag.Diagnostic {
		if len(stack) <= MaxDepth {
			return nil
		}
		return problem(tk, keyPath(stack, len(stack)), diag.TooDeep, fmt.Sprintf(
			"collections nest more than %d deep here; Benchy accepts at most %d (benchmarks nest under 10)", MaxDepth, MaxDepth))
	}
	// block opens or continues the block collection of an entry (a key when !seq, a '-'
	// when seq) at column col.
	block := func(tk *token.Token, col int, seq bool) *diag.Diagnostic {
		n := len(stack)
		for n > 0 && !stack[n-1].flow && (stack[n-1].col > col || !seq && stack[n-1].col == col && stack[n-1].seq) {
			n--
		}
		stack = stack[:n]
		if n > 0 && !stack[n-1].flow && stack[n-1].col == col && stack[n-1].seq == seq {
			return nil
		}
		stack = append(stack, level{col: col, seq: seq, first: tk})
		return deep(tk)
	}
	for i, tk := range toks {
		if tk.Position == nil {
			continue
		}
		switch tk.Type {
		case token.InvalidType:
			return nil
		case token.CommentType:
			continue
		case token.DocumentHeaderType, token.DocumentEndType:
			stack = stack[:0]
			if docs++; docs > maxDocuments {
				return problem(tk, []string{}, diag.InvalidYAML, fmt.Sprintf(
					"a %s holds exactly one YAML document; this one has more than %d document markers (--- or ...)", l.doc, maxDocuments))
			}
			continue
		case token.AnchorType, token.AliasType:
			what := "anchors (&name) are not allowed; write each value where it is used"
			if tk.Type == token.AliasType {
				what = "aliases (*name) are not allowed; write each value where it is used"
			}
			n := len(stack)
			if next := nextValue(toks, i+1); next >= 0 && isKeyAt(toks, next) && !inFlow() {
				n = keyLevel(stack, l.column(toks[next]))
			}
			return problem(tk, keyPath(stack, n), diag.InvalidYAML, what)
		case token.MappingStartType, token.SequenceStartType:
			stack = append(stack, level{flow: true, seq: tk.Type == token.SequenceStartType})
			if d := deep(tk); d != nil {
				return d
			}
			continue
		case token.MappingEndType, token.SequenceEndType:
			for n := len(stack) - 1; n >= 0; n-- {
				if stack[n].flow {
					stack = stack[:n]
					break
				}
			}
			continue
		case token.CollectEntryType:
			if inFlow() {
				stack[len(stack)-1].keyed = false
			}
			continue
		case token.SequenceEntryType, token.MappingKeyType:
			if !inFlow() {
				if d := block(tk, l.column(tk), tk.Type == token.SequenceEntryType); d != nil {
					return d
				}
			}
			continue
		case token.DoubleQuoteType:
			if strings.ContainsRune(tk.Value, utf8.RuneError) {
				if esc := badEscape(l.raw(tk)); esc != "" {
					return problem(tk, keyPath(stack, len(stack)), diag.InvalidYAML, fmt.Sprintf(
						"the escape %s names no Unicode character (a lone UTF-16 surrogate or a code point beyond U+10FFFF)", esc))
				}
			}
		}
		if !isKeyAt(toks, i) {
			continue
		}
		if !inFlow() {
			if d := block(tk, l.column(tk), false); d != nil {
				return d
			}
			top := &stack[len(stack)-1]
			top.keys++
			l.mapWork += 2*top.keys - 1
			if top.keys > l.bigKeys {
				l.bigKeys, l.bigMap = top.keys, top.first
			}
		}
		if top := &stack[len(stack)-1]; !(top.flow && top.seq) {
			top.key, top.keyed = tk.Value, true
		}
	}
	return nil
}

// raw is the source text from token tk on (goccy's Origin does not keep escapes as
// written). Tokens are asked for in order, so a cursor makes all of them cost one pass.
func (l *lexed) raw(tk *token.Token) []byte {
	line, col := l.lines.pos(tk)
	if line > len(l.lines.starts) {
		return nil
	}
	if c := &l.cursor; c.line != line || c.col > col {
		c.line, c.col, c.off = line, 1, l.lines.starts[line-1]
	}
	c := &l.cursor
	for ; c.col < col && c.off < len(l.src); c.col++ {
		_, n := utf8.DecodeRune(l.src[c.off:])
		c.off += n
	}
	return l.src[c.off:]
}

// column is a token's column, corrected for tabs.
func (l *lexed) column(tk *token.Token) int {
	_, col := l.lines.pos(tk)
	return col
}

// isKeyAt reports whether token i is a mapping key: a scalar followed by ':'.
func isKeyAt(toks token.Tokens, i int) bool {
	if i+1 >= len(toks) || !isScalarToken(toks[i]) && toks[i].Type != token.MergeKeyType {
		return false
	}
	next := toks[i+1]
	return next.Type == token.MappingValueType
}

// nextValue skips anchors, aliases and tags from token i, returning the index of the next
// other token, or -1.
func nextValue(toks token.Tokens, i int) int {
	for ; i < len(toks); i++ {
		switch toks[i].Type {
		case token.AnchorType, token.AliasType, token.TagType, token.CommentType:
		default:
			return i
		}
	}
	return -1
}

// keyLevel is how many levels of stack stay open below a block key at column col: the key
// joins the mapping at its column, or opens one.
func keyLevel(stack []level, col int) int {
	n := len(stack)
	for n > 0 && !stack[n-1].flow && (stack[n-1].col > col || stack[n-1].col == col && stack[n-1].seq) {
		n--
	}
	if n > 0 && !stack[n-1].flow && stack[n-1].col == col {
		return n - 1 // the key's own mapping, whose path ends above it
	}
	return n
}

// keyPath is the path of keys to a place inside the first n levels of stack.
func keyPath(stack []level, n int) []string {
	path := []string{}
	for _, lv := range stack[:n] {
		if lv.keyed && !(lv.flow && lv.seq) {
			path = append(path, lv.key)
		}
	}
	return path
}

// badEscape returns the first \u or \U escape of a double-quoted scalar's source that names
// no character: goccy's lexer turns those into U+FFFD, which would silently change the text.
// origin starts at the opening quote.
func badEscape(origin []byte) string {
	for i := 1; i < len(origin)-1; i++ {
		if origin[i] == '"' {
			return ""
		}
		if origin[i] != '\\' {
			continue
		}
		n := 0
		switch origin[i+1] {
		case 'u':
			n = 4
		case 'U':
			n = 8
		default:
			i++ // any other escape, \\ included
			continue
		}
		if i+2+n > len(origin) {
			return ""
		}
		v, err := strconv.ParseUint(string(origin[i+2:i+2+n]), 16, 32)
		if err != nil {
			continue
		}
		switch {
		case v >= 0xd800 && v <= 0xdbff && n == 4 && bytes.HasPrefix(origin[i+6:], []byte(`\u`)):
			i += 6 + 5 // a surrogate pair, which the lexer joins (or refuses)
		case v >= 0xd800 && v <= 0xdfff || v > utf8.MaxRune:
			return string(origin[i : i+2+n])
		default:
			i += 1 + n
		}
	}
	return ""
}

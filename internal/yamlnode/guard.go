package yamlnode

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
)

// guard is the first look at a text, on its bytes, before the YAML lexer, which cannot stop
// early and costs hundreds of bytes per token. In one pass without allocation it refuses
// for certain a text over MaxSize, one that is not UTF-8, one with a character YAML
// excludes (YAML 1.2 §5.1), and one with more tokens than maxTokens (an estimate that never
// falls short by much: every token starts a word or is punctuation). When detect is set
// it also looks for the first place a text nests deeper than MaxDepth or has an anchor
// or alias: a guess from the bytes, which guard returns as cut, the length of a prefix
// that the lexer can confirm cheaply. A wrong guess costs one look at the prefix; a missed
// one is found later on the tokens. Either way the YAML parser never builds it.
func guard(src []byte, detect bool, doc string) (problem *diag.Diagnostic, cut int) {
	if len(src) > MaxSize {
		d := TooLarge(int64(len(src)), MaxSize, doc)
		return &d, 0
	}
	g := bytesGuard{src: src, detect: detect, line: 1, col: 1, sep: true, lineStart: true, scalarAbove: -1}
	g.indents = g.stack[:0]
	if d := g.run(); d != nil {
		return d, 0
	}
	return nil, g.cut
}

func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// bytesGuard is guard's state. The structure it tracks (quotes, comments, block scalars,
// indentation, flow brackets) is approximate: it only chooses where to look.
type bytesGuard struct {
	src       []byte
	i         int
	line, col int // of src[i]; col counts code points
	tokens    int
	sep       bool // the previous byte separates words (or there is none)
	detect    bool
	cut       int

	lineStart   bool  // no content seen on this line yet
	entry       int   // the column where this line's innermost entry starts
	quote       byte  // inside a quoted scalar
	escaped     bool  // after a backslash in a double-quoted scalar
	comment     bool  // inside a comment
	flow        int   // open flow brackets
	scalarAbove int   // lines indented past this column are block scalar content; -1 when none
	indents     []int // columns of the open block collections
	stack       [MaxDepth + 1]int
}

// plainByte marks the printable ASCII bytes that mean nothing to the guard but part of a
// word: most of a text, which step takes in a few instructions.
var plainByte = func() (t [utf8.RuneSelf]bool) {
	for c := byte('!'); c < 0x7f; c++ {
		t[c] = !strings.ContainsRune(`,[]{}:"'&*|>%#-\`, rune(c))
	}
	return t
}()

// run reads the text to its end, a refusal or a cut. Spaces and word characters, most of
// a text, take a few instructions; step takes the rest.
func (g *bytesGuard) run() *diag.Diagnostic {
	for g.i < len(g.src) && g.cut == 0 {
		c := g.src[g.i]
		switch {
		case c == ' ' && !g.escaped:
			g.sep = true
		case c < utf8.RuneSelf && plainByte[c] && !g.lineStart && !g.escaped:
			if g.sep {
				g.tokens++
				g.sep = false
			}
		default:
			if d := g.step(); d != nil {
				return d
			}
			continue
		}
		g.i++
		g.col++
		if g.tokens > maxTokens {
			return g.count()
		}
	}
	return nil
}

// NotUTF8 is the message of the invalid_yaml diagnostic of a text that is not UTF-8, at its
// first bad byte: what a caller that must tell it from other invalid_yaml (the server, which
// will not hand such a text out) compares.
const NotUTF8 = "the file is not valid UTF-8"

func (g *bytesGuard) step() *diag.Diagnostic {
	c := g.src[g.i]
	if c >= utf8.RuneSelf {
		r, n := utf8.DecodeRune(g.src[g.i:])
		if r == utf8.RuneError && n == 1 {
			d := parseDiag(diag.InvalidYAML, nil, g.line, g.col, NotUTF8)
			return &d
		}
		if !printable(r) {
			return g.forbidden(r)
		}
		if g.sep {
			g.tokens++
		}
		g.sep = false
		if g.detect {
			g.structure('a', false) // any character that is not punctuation
		}
		g.i += n
		g.col++
		return g.count()
	}
	if !printable(rune(c)) {
		return g.forbidden(rune(c))
	}
	blank := c == ' ' || c == '\t' || c == '\n' || c == '\r'
	switch c {
	case ',', '[', ']', '{', '}', ':', '"', '\'':
		g.tokens++
		g.sep = true
	case '&', '*', '|', '>', '%':
		if g.sep {
			g.tokens += 2 // two tokens: an anchor or alias and its name, a block scalar and its text, a directive and its name
		}
		g.sep = false
	default:
		if !blank && g.sep {
			g.tokens++
		}
		g.sep = blank
	}
	if g.detect {
		g.structure(c, blank)
	}
	g.i++
	switch {
	case c == '\n':
		g.line, g.col, g.lineStart, g.comment = g.line+1, 1, true, false
	case c == '\r' && (g.i == len(g.src) || g.src[g.i] != '\n'):
		g.line, g.col, g.lineStart, g.comment = g.line+1, 1, true, false
	case c != '\r':
		g.col++
	}
	return g.count()
}

func (g *bytesGuard) count() *diag.Diagnostic {
	if g.tokens <= maxTokens {
		return nil
	}
	d := parseDiag(diag.TooLarge, nil, g.line, max(g.col-1, 1), fmt.Sprintf(
		"the file has more than %d YAML tokens (keys, values, punctuation and comments) by here; Benchy reads at most %d (a benchmark of 10,000 fields has about 64,000)",
		maxTokens, maxTokens))
	return &d
}

func (g *bytesGuard) forbidden(r rune) *diag.Diagnostic {
	msg := fmt.Sprintf("the character U+%04X is not allowed in YAML (YAML 1.2 §5.1 excludes control characters and U+FFFE, U+FFFF)", r)
	if r < 0x20 || r >= 0x7f && r < 0xa0 {
		msg = fmt.Sprintf("the control character U+%04X is not allowed in YAML (YAML 1.2 §5.1); inside a double-quoted string write it as the escape \\x%02x", r, r)
	}
	d := parseDiag(diag.InvalidYAML, nil, g.line, g.col, msg)
	return &d
}

// printable is YAML 1.2's c-printable: tab, line feed, carriage return, the printable ASCII
// range, NEL, and Unicode from U+00A0 except surrogates (which UTF-8 cannot hold), U+FFFE
// and U+FFFF.
func printable(r rune) bool {
	switch {
	case r < 0x20:
		return r == '\t' || r == '\n' || r == '\r'
	case r < 0x7f:
		return true
	case r < 0xa0:
		return r == 0x85
	}
	return r != 0xfffe && r != 0xffff
}

// structure follows quotes, comments, block scalars, indentation and flow brackets well
// enough to find deep nesting and anchors in the usual spellings.
func (g *bytesGuard) structure(c byte, blank bool) {
	next := byte(' ')
	if g.i+1 < len(g.src) {
		next = g.src[g.i+1]
	}
	if g.quote != 0 && !blank {
		g.lineStart = false
	}
	switch {
	case g.comment:
		return
	case g.quote == '"':
		switch {
		case g.escaped:
			g.escaped = false
		case c == '\\':
			g.escaped = true
		case c == '"':
			g.quote = 0
		}
		return
	case g.quote == '\'':
		switch {
		case g.escaped:
			g.escaped = false
		case c == '\'' && next == '\'':
			g.escaped = true // '' is a quote inside the scalar
		case c == '\'':
			g.quote = 0
		}
		return
	}
	if g.lineStart {
		if blank {
			return
		}
		if g.scalarAbove >= 0 && g.col-1 > g.scalarAbove {
			g.comment = true // block scalar content: skip the line
			return
		}
		g.scalarAbove = -1
		if g.flow == 0 && c != '#' {
			g.content(g.col - 1)
		}
	}
	start := g.i == 0 || isSpace(g.src[g.i-1]) || g.flow > 0 && isFlowStart(g.src[g.i-1])
	switch {
	case c == '#' && start:
		g.comment = true
	case (c == '"' || c == '\'') && start:
		g.quote = c
	case c == '[' || c == '{':
		g.flow++
		g.nested(g.i + 1)
	case c == ']' || c == '}':
		g.flow = max(g.flow-1, 0)
	case c == '-' && start && isSpace(next) && g.flow == 0:
		// "- - x": each entry after the first on a line opens a sequence inside the last
		g.entry = g.col - 1
		if len(g.indents) == 0 || g.col-1 > g.indents[len(g.indents)-1] {
			g.push(g.col-1, g.i+1)
		}
	case (c == '|' || c == '>') && start && g.flow == 0:
		g.scalarAbove = g.entry
	case (c == '&' || c == '*') && start && !isSpace(next):
		end := g.i + 1
		for end < len(g.src) && !isSpace(g.src[end]) && !isFlowStart(g.src[end]) && g.src[end] != ']' && g.src[end] != '}' {
			end++
		}
		g.cut = end
	}
}

// content notes the first character of a block line at column indent (0-based).
func (g *bytesGuard) content(indent int) {
	g.lineStart = false
	for len(g.indents) > 0 && g.indents[len(g.indents)-1] > indent {
		g.indents = g.indents[:len(g.indents)-1]
	}
	g.entry = indent
	if len(g.indents) == 0 || g.indents[len(g.indents)-1] < indent {
		end := g.i
		for end < len(g.src) && g.src[end] != '\n' && g.src[end] != '\r' {
			end++
		}
		g.push(indent, end)
	}
}

// push opens a block collection at column col; nesting too deep makes end a cut.
func (g *bytesGuard) push(col, end int) {
	if len(g.indents) == MaxDepth+1 {
		g.cut = end
		return
	}
	g.indents = append(g.indents, col)
	g.nested(end)
}

// nested checks the depth after an opening, cutting at end when it is too deep.
func (g *bytesGuard) nested(end int) {
	if len(g.indents)+g.flow > MaxDepth && g.cut == 0 {
		g.cut = end
	}
}

func isSpace(c byte) bool     { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isFlowStart(c byte) bool { return c == '[' || c == '{' || c == ',' }

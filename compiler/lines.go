package compiler

import (
	"bytes"
	"unicode/utf8"

	"github.com/goccy/go-yaml/token"
)

// lineTable corrects the YAML lexer's columns on lines with tabs: after the first visible
// character of a line the lexer counts a tab as no column at all, so "domain:\tx" puts x at
// column 8 instead of 9. Columns on other lines are taken as they are.
type lineTable struct {
	src    []byte
	starts []int // the byte offset at which each line starts
}

func newLineTable(src []byte) *lineTable {
	t := &lineTable{src: src, starts: []int{0}}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			t.starts = append(t.starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// pos returns a token's 1-based line and column (in code points), or 1:1 when the lexer gave
// no position.
func (t *lineTable) pos(tk *token.Token) (line, col int) {
	if tk == nil || tk.Position == nil || tk.Position.Line < 1 {
		return 1, 1
	}
	return tk.Position.Line, t.column(tk.Position.Line, max(tk.Position.Column, 1))
}

// column maps the lexer's column on line to the real one: leading whitespace counts as the
// lexer counts it, later tabs do not.
func (t *lineTable) column(line, col int) int {
	if t == nil || line > len(t.starts) {
		return col
	}
	end := len(t.src)
	if line < len(t.starts) {
		end = t.starts[line]
	}
	text := t.src[t.starts[line-1]:end]
	if bytes.IndexByte(text, '\t') < 0 {
		return col
	}
	seen, real, leading := 0, 1, true
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		leading = leading && (r == ' ' || r == '\t')
		if r != '\t' || leading {
			if seen == col-1 {
				return real
			}
			seen++
		}
		real++
		text = text[size:]
	}
	return col
}

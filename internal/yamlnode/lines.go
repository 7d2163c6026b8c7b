package yamlnode

import (
	"unicode/utf8"

	"github.com/goccy/go-yaml/token"
)

// lineTable corrects the YAML lexer's columns on lines with tabs: after the first visible
// character of a line the lexer counts a tab as no column at all, so "domain:\tx" puts x at
// column 8 instead of 9. Columns on other lines are taken as they are.
type lineTable struct {
	src    []byte
	starts []int  // the byte offset at which each line starts
	tabbed []bool // whether each line holds a tab: found once, not per token of a long line
	memo   columnMemo
}

func newLineTable(src []byte) *lineTable {
	t := &lineTable{src: src, starts: []int{0}, tabbed: []bool{false}}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			t.starts, t.tabbed = append(t.starts, i+1), append(t.tabbed, false)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			t.starts, t.tabbed = append(t.starts, i+1), append(t.tabbed, false)
		case '\t':
			t.tabbed[len(t.tabbed)-1] = true
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
	if !t.tabbed[line-1] {
		return col
	}
	// Tokens come in order: go on from the last column asked on this line, so that the
	// columns of a long line cost its length once, not once per token.
	m := &t.memo
	if m.line != line || m.seen > col-1 {
		*m = columnMemo{line: line, off: t.starts[line-1], real: 1, leading: true}
	}
	for m.off < end {
		r, size := utf8.DecodeRune(t.src[m.off:end])
		leading := m.leading && (r == ' ' || r == '\t')
		if r != '\t' || leading {
			if m.seen == col-1 {
				return m.real
			}
			m.seen++
		}
		m.leading = leading
		m.real++
		m.off += size
	}
	return col
}

// columnMemo is where column stopped: on line, at byte off, after seen lexer columns, at
// real column real.
type columnMemo struct {
	line, off, seen, real int
	leading               bool
}

package yamlnode

import (
	"bytes"

	"github.com/goccy/go-yaml/token"
)

// Comment is one comment of a text, as the YAML lexer reads it: its text after the '#',
// and where the '#' is (1-based, the column in code points).
type Comment struct {
	Text         string
	Line, Column int
}

// Comments lists the comments src holds, in order, by the YAML lexer: a writer that keeps
// comments checks that it kept them all, and names the first it could not place. It is
// nil when the lexer cannot read src.
func Comments(src []byte) []Comment {
	src = bytes.TrimPrefix(src, bom)
	toks, err := tokenize(src)
	if err != nil {
		return nil
	}
	var lines *lineTable
	var out []Comment
	for _, tk := range toks {
		if tk.Type != token.CommentType {
			continue
		}
		if lines == nil {
			lines = newLineTable(src)
		}
		line, col := lines.pos(tk)
		out = append(out, Comment{Text: tk.Value, Line: line, Column: col})
	}
	return out
}

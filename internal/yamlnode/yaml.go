package yamlnode

import (
	"bytes"

	"github.com/goccy/go-yaml/ast"

	"github.com/benchy-eval/benchy/diag"
)

// ReadYAML reads a YAML file that is not a benchmark (the runtime file) through the
// compiler's front end, so that every YAML Benchy reads has the same bounds: it refuses, at
// the first occurrence and before goccy's parser builds anything, a text over MaxSize, not
// UTF-8 or with a character YAML excludes, with more than 100,000 tokens, nesting more than
// 64 deep, an anchor or alias, an escape naming no character, more than 16 documents, or
// block mappings too large for the parser. Otherwise it returns goccy's AST (duplicate keys
// allowed through, for the caller to report) or the syntax error. The one diagnostic is
// in the compiler's codes; the caller words it in its own.
func ReadYAML(src []byte) (*ast.File, *diag.Diagnostic) {
	l, ds := lex(bytes.TrimPrefix(src, bom), "runtime file")
	if l == nil {
		return nil, &ds[0]
	}
	if d := l.tooLarge(); d != nil {
		return nil, d
	}
	file, err := parseYAML(l.tokens, false)
	if err != nil {
		line, col, msg := (&parsing{lines: l.lines}).syntaxError(err)
		d := parseDiag(diag.InvalidYAML, nil, line, col, msg)
		return nil, &d
	}
	return file, nil
}

package adapter

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// The YAML side of the runtime parser: mappings read in document order with their
// duplicates reported, the constructs a runtime file does without, and positions.

// entry is one key of a mapping, with its value.
type entry struct {
	key     string
	keyNode ast.Node
	value   ast.Node // nil for an empty value
}

// mapping returns n's entries, reporting duplicate keys (dropped) and keys that are not
// scalars. An empty value is an empty mapping. When n is not a mapping it reports want and
// returns false.
func (p *runtimeParser) mapping(n ast.Node, path []string, want string) ([]entry, bool) {
	if !p.plain(n, path) {
		return nil, false
	}
	var values []*ast.MappingValueNode
	switch x := n.(type) {
	case nil, *ast.NullNode:
		return nil, true
	case *ast.MappingNode:
		values = x.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{x}
	default:
		p.report(n, path, want)
		return nil, false
	}
	out := make([]entry, 0, len(values))
	seen := map[string]bool{}
	for _, mv := range values {
		if !p.plain(mv.Key, path) {
			continue
		}
		key, ok := scalarText(mv.Key)
		if !ok {
			p.report(mv.Key, path, "a key must be a plain or quoted string")
			continue
		}
		if seen[key] {
			p.report(mv.Key, append(path[:len(path):len(path)], key), fmt.Sprintf("duplicate key %q", key))
			continue
		}
		seen[key] = true
		value := mv.Value
		if _, isNull := value.(*ast.NullNode); isNull {
			value = nil
		}
		out = append(out, entry{key: key, keyNode: mv.Key, value: value})
	}
	return out, true
}

// plain reports the YAML constructs a runtime file does without, which would make a value
// mean something other than what is written where it stands.
func (p *runtimeParser) plain(n ast.Node, path []string) bool {
	switch n.(type) {
	case *ast.AnchorNode, *ast.AliasNode:
		p.report(n, path, "anchors (&name) and aliases (*name) are not supported in a runtime file; write each value where it is used")
	case *ast.TagNode:
		p.report(n, path, "tags such as !!str are not supported in a runtime file")
	case *ast.MergeKeyNode:
		p.report(n, path, "merge keys (<<) are not supported in a runtime file")
	case *ast.MappingKeyNode:
		p.report(n, path, "explicit keys (? key) are not supported in a runtime file; write key: value")
	default:
		return true
	}
	return false
}

// unknown reports a key the runtime file does not define, with the nearest allowed one.
func (p *runtimeParser) unknown(e entry, path, allowed []string, msg string) {
	d := p.diag(e.keyNode, append(path[:len(path):len(path)], e.key), msg)
	d.Suggestion = suggest.Closest(e.key, allowed)
	p.diags = append(p.diags, d)
}

func (p *runtimeParser) report(n ast.Node, path []string, msg string) {
	p.diags = append(p.diags, p.diag(n, path, msg))
}

func (p *runtimeParser) diag(n ast.Node, path []string, msg string) diag.Diagnostic {
	line, col := 1, 1
	if n != nil {
		line, col = tokenPos(n.GetToken())
	}
	if path == nil {
		path = []string{}
	}
	return diag.Diagnostic{Phase: diag.PhaseValidate, Code: diag.InvalidRuntime, Path: path,
		Message: msg, Line: line, Column: col}
}

// scalarText is a scalar's text: a string's value, a number or boolean as written.
// Anchors, aliases, tags, nulls and collections are not text.
func scalarText(n ast.Node) (string, bool) {
	switch x := n.(type) {
	case *ast.StringNode:
		return x.Value, true
	case *ast.LiteralNode:
		return x.Value.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return x.GetToken().Value, true
	}
	return "", false
}

func isEmpty(n ast.Node) bool {
	if n == nil {
		return true
	}
	_, comment := n.(*ast.CommentGroupNode)
	return comment
}

func tokenPos(tk *token.Token) (line, col int) {
	if tk == nil || tk.Position == nil || tk.Position.Line < 1 {
		return 1, 1
	}
	return tk.Position.Line, max(tk.Position.Column, 1)
}

// parseYAML reads the runtime file through the compiler's YAML front end (yamlnode.ReadYAML),
// which bounds every YAML Benchy reads alike: a text over 1 MiB or 100,000 tokens, nesting
// more than 64 deep, an anchor or alias, a character YAML excludes or invalid UTF-8 is
// refused at its first occurrence, before goccy's parser (quadratic in nesting and in the
// keys of a block mapping) builds anything. Duplicate keys are allowed through so that
// they are reported with the other problems. The refusal is a yamlError: its position and
// message, as the parser's syntax errors carry them.
func parseYAML(src []byte) (*ast.File, error) {
	file, d := yamlnode.ReadYAML(src)
	if d != nil {
		return nil, yamlError{d}
	}
	return file, nil
}

// yamlError is a refusal of the YAML front end, shaped like goccy's syntax errors.
type yamlError struct{ d *diag.Diagnostic }

func (e yamlError) Error() string { return e.d.String() }

func (e yamlError) GetToken() *token.Token {
	return &token.Token{Position: &token.Position{Line: e.d.Line, Column: e.d.Column}}
}

func (e yamlError) GetMessage() string {
	msg := strings.TrimPrefix(e.d.Message, "YAML syntax error: ")
	if strings.HasPrefix(msg, "anchors (&name)") || strings.HasPrefix(msg, "aliases (*name)") {
		msg = "anchors (&name) and aliases (*name) are not supported in a runtime file; write each value where it is used"
	}
	return msg
}

package compiler

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// kind is what a node is after parsing.
type kind int

const (
	kindBad    kind = iota // already reported by the parser; checks skip it silently
	kindMap                // a mapping, keys in source order
	kindSeq                // a sequence
	kindNull               // null, ~ or nothing
	kindBool               // true / false
	kindInt                // a YAML 1.2 core-schema integer
	kindFloat              // a YAML 1.2 core-schema float, including .inf and .nan
	kindString             // any other scalar, quoted or plain
)

// node is a YAML value with its position. Scalars keep their source text so diagnostics and
// the formatter can show what the author wrote.
type node struct {
	kind      kind
	line, col int
	pairs     []pair  // kindMap
	items     []*node // kindSeq
	text      string  // scalars: the decoded string, or the literal text of other scalars
	num       float64 // kindInt, kindFloat
	quoted    bool    // kindString written quoted or as a block scalar
	flow      bool    // kindMap, kindSeq written in flow style
	comment   string  // a trailing line comment, without '#'
	commentAt int     // the line of comment
}

// pair is one mapping entry. Keys are strings after parsing; head holds the comment lines
// written above the key.
type pair struct {
	key       string
	keyKind   kind // kindString unless the key was written as 1, true, null, ...
	line, col int
	value     *node
	head      []string // comment lines above the key
	foot      []string // comment lines after the entry
}

// get returns the value of key in a mapping node, or nil.
func (n *node) get(key string) (*node, *pair) {
	if n == nil || n.kind != kindMap {
		return nil, nil
	}
	for i := range n.pairs {
		if n.pairs[i].key == key {
			return n.pairs[i].value, &n.pairs[i]
		}
	}
	return nil, nil
}

// describe names the kind of n for messages.
func (n *node) describe() string {
	if n == nil {
		return "nothing"
	}
	switch n.kind {
	case kindMap:
		return "a mapping"
	case kindSeq:
		return "a list"
	case kindNull:
		return "null"
	case kindBool:
		return "the boolean " + n.text
	case kindInt, kindFloat:
		return "the number " + n.text
	case kindString:
		return strconv.Quote(clip(n.text))
	}
	return "an invalid value"
}

// isString reports whether n is a string scalar.
func (n *node) isString() bool { return n != nil && n.kind == kindString }

// isNumber reports whether n is a numeric scalar.
func (n *node) isNumber() bool { return n != nil && (n.kind == kindInt || n.kind == kindFloat) }

// YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution), applied to the
// source text of plain scalars so that Benchy's meaning of a scalar does not depend on the
// YAML library's choices (goccy reads 010 as 8 and 1e3 as a string; the core schema says 10
// and 1000).
var (
	reInt10 = regexp.MustCompile(`^[-+]?[0-9]+$`)
	reInt8  = regexp.MustCompile(`^0o[0-7]+$`)
	reInt16 = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	reFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	reInf   = regexp.MustCompile(`^[-+]?\.(inf|Inf|INF)$`)
	reNaN   = regexp.MustCompile(`^\.(nan|NaN|NAN)$`)
)

// resolvePlain types a plain (unquoted) scalar by the YAML 1.2 core schema.
func resolvePlain(s string) (kind, float64) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return kindNull, 0
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return kindBool, 0
	}
	switch {
	case reInt10.MatchString(s):
		return kindInt, parseNumber(s)
	case reInt8.MatchString(s):
		v, _ := strconv.ParseUint(s[2:], 8, 64)
		return kindInt, float64(v)
	case reInt16.MatchString(s):
		v, _ := strconv.ParseUint(s[2:], 16, 64)
		return kindInt, float64(v)
	case reFloat.MatchString(s):
		return kindFloat, parseNumber(s)
	case reInf.MatchString(s):
		if strings.HasPrefix(s, "-") {
			return kindFloat, math.Inf(-1)
		}
		return kindFloat, math.Inf(1)
	case reNaN.MatchString(s):
		return kindFloat, math.NaN()
	}
	return kindString, 0
}

// parseNumber reads a decimal YAML number; overflow gives ±Inf, which checks then reject.
func parseNumber(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && f == 0 {
		return math.NaN()
	}
	return f
}

// maxExactInt is the largest integer every JSON reader holds exactly (2^53).
const maxExactInt = 1 << 53

// exact reports whether a numeric node's value survives JSON unchanged: finite, and for an
// integer no larger in magnitude than 2^53.
func (n *node) exact() bool {
	if math.IsInf(n.num, 0) || math.IsNaN(n.num) {
		return false
	}
	return n.kind != kindInt || math.Abs(n.num) <= maxExactInt
}

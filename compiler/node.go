package compiler

import (
	"math"
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
	pairs     []pair         // kindMap
	items     []*node        // kindSeq
	text      string         // scalars: the decoded string, or the literal text of other scalars
	num       float64        // kindInt, kindFloat
	quoted    bool           // kindString written quoted or as a block scalar
	flow      bool           // kindMap, kindSeq written in flow style
	index     map[string]int // kindMap: key -> pair, built on first lookup in a large mapping
	partial   bool           // kindMap: a merge or explicit key was dropped, so keys may be missing
	lead      []string       // the root only: comment lines before the document
	tail      []string       // the root only: comment lines after it
	comment   string         // a trailing line comment, without '#'
	commentAt int            // the line of comment
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
	if len(n.pairs) <= 8 {
		for i := range n.pairs {
			if n.pairs[i].key == key {
				return n.pairs[i].value, &n.pairs[i]
			}
		}
		return nil, nil
	}
	if n.index == nil {
		n.index = make(map[string]int, len(n.pairs))
	}
	// Pairs are only ever appended, and keys are unique (the parser drops duplicates), so
	// the index catches up with the pairs added since the last lookup.
	for i := len(n.index); i < len(n.pairs); i++ {
		n.index[n.pairs[i].key] = i
	}
	if i, ok := n.index[key]; ok {
		return n.pairs[i].value, &n.pairs[i]
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

// resolvePlain types a plain (unquoted) scalar by the YAML 1.2 core schema
// (https://yaml.org/spec/1.2.2/#1032-tag-resolution), from its source text, so that Benchy's
// meaning of a scalar does not depend on the YAML library's choices (goccy reads 010 as 8 and
// 1e3 as a string; the core schema says 10 and 1000).
func resolvePlain(s string) (kind, float64) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return kindNull, 0
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return kindBool, 0
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return kindFloat, math.Inf(1)
	case "-.inf", "-.Inf", "-.INF":
		return kindFloat, math.Inf(-1)
	case ".nan", ".NaN", ".NAN":
		return kindFloat, math.NaN()
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x') {
		base := 8
		if s[1] == 'x' {
			base = 16
		}
		if v, err := strconv.ParseUint(s[2:], base, 64); err == nil || isRangeErr(err) {
			if err != nil {
				return kindInt, digitsValue(s[2:], float64(base)) // beyond 64 bits: not exact, maybe finite
			}
			return kindInt, float64(v)
		}
		return kindString, 0
	}
	switch numberShape(s) {
	case shapeInt:
		return kindInt, parseNumber(s)
	case shapeFloat:
		return kindFloat, parseNumber(s)
	}
	return kindString, 0
}

// digitsValue is the value of valid octal or hexadecimal digits as a double, +Inf when
// too large for one.
func digitsValue(digits string, base float64) float64 {
	v := 0.0
	for _, c := range digits {
		d, _ := strconv.ParseUint(string(c), int(base), 8)
		v = v*base + float64(d)
	}
	return v
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

type shape int

const (
	shapeNone  shape = iota
	shapeInt         // [-+]?[0-9]+
	shapeFloat       // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
)

// numberShape matches the core schema's decimal integer and float patterns.
func numberShape(s string) shape {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	intDigits := digits()
	if i == len(s) {
		if intDigits > 0 {
			return shapeInt
		}
		return shapeNone
	}
	fracDigits := 0
	if s[i] == '.' {
		i++
		fracDigits = digits()
		if intDigits == 0 && fracDigits == 0 {
			return shapeNone
		}
	} else if intDigits == 0 {
		return shapeNone
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return shapeNone
		}
	}
	if i != len(s) {
		return shapeNone
	}
	return shapeFloat
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

// exact reports whether a numeric node's value survives JSON unchanged: a finite float that
// did not underflow to zero, or an integer no larger in magnitude than 2^53. The integer test
// reads the source text, since 2^53+1 already rounded to 2^53 on the way in.
func (n *node) exact() bool {
	if math.IsInf(n.num, 0) || math.IsNaN(n.num) {
		return false
	}
	if n.kind == kindFloat {
		return n.num != 0 || !strings.ContainsAny(mantissa(n.text), "123456789")
	}
	text, base := strings.TrimPrefix(n.text, "+"), 10
	switch {
	case strings.HasPrefix(text, "0o"):
		text, base = text[2:], 8
	case strings.HasPrefix(text, "0x"):
		text, base = text[2:], 16
	}
	v, err := strconv.ParseInt(text, base, 64)
	return err == nil && v >= -maxExactInt && v <= maxExactInt
}

// overflows reports whether a numeric node is a finite number written too large for a
// double (1e400, an integer of 310 digits, 0x followed by 17 digits), as opposed to .inf.
func (n *node) overflows() bool {
	return n.isNumber() && math.IsInf(n.num, 0) && !strings.Contains(strings.ToLower(n.text), "inf")
}

// mantissa is a float's text without its exponent.
func mantissa(s string) string {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		return s[:i]
	}
	return s
}

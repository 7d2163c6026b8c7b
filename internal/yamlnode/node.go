package yamlnode

import (
	"math"
	"strconv"
	"strings"
)

// Kind is what a node is after parsing.
type Kind int

const (
	Bad    Kind = iota // already reported by the parser; checks skip it silently
	Map                // a mapping, keys in source order
	Seq                // a sequence
	Null               // null, ~ or nothing
	Bool               // true / false
	Int                // a YAML 1.2 core-schema integer
	Float              // a YAML 1.2 core-schema float, including .inf and .nan
	String             // any other scalar, quoted or plain
)

// Node is a YAML value with its position. Scalars keep their source text so diagnostics and
// the formatter can show what the author wrote.
type Node struct {
	Kind      Kind
	Line, Col int
	Pairs     []Pair         // Map
	Items     []*Node        // Seq
	Text      string         // scalars: the decoded string, or the literal text of other scalars
	Num       float64        // Int, Float
	Quoted    bool           // String written quoted or as a block scalar
	Flow      bool           // Map, Seq written in flow style
	index     map[string]int // Map: key -> pair, built on first lookup in a large mapping
	Partial   bool           // Map: a merge or explicit key was dropped, so keys may be missing
	Lead      []string       // the root only: comment lines before the document
	Tail      []string       // the root only: comment lines after it
	Comment   string         // a trailing line comment, without '#'
	CommentAt int            // the line of comment
}

// Pair is one mapping entry. Keys are strings after parsing; head holds the comment lines
// written above the key.
type Pair struct {
	Key       string
	KeyKind   Kind // String unless the key was written as 1, true, null, ...
	Line, Col int
	Value     *Node
	Head      []string // comment lines above the key
	Foot      []string // comment lines after the entry
}

// Pos is a place in the source: 1-based line and column, the column in code points.
type Pos struct{ Line, Col int }

// Pos is where n starts.
func (n *Node) Pos() Pos { return Pos{n.Line, n.Col} }

// Pos is where p's key starts.
func (p *Pair) Pos() Pos { return Pos{p.Line, p.Col} }

// Get returns the value of key in a mapping node, or nil.
func (n *Node) Get(key string) (*Node, *Pair) {
	if n == nil || n.Kind != Map {
		return nil, nil
	}
	if len(n.Pairs) <= 8 {
		for i := range n.Pairs {
			if n.Pairs[i].Key == key {
				return n.Pairs[i].Value, &n.Pairs[i]
			}
		}
		return nil, nil
	}
	if n.index == nil {
		n.index = make(map[string]int, len(n.Pairs))
	}
	// Pairs are only ever appended, and keys are unique (the parser drops duplicates), so
	// the index catches up with the pairs added since the last lookup.
	for i := len(n.index); i < len(n.Pairs); i++ {
		n.index[n.Pairs[i].Key] = i
	}
	if i, ok := n.index[key]; ok {
		return n.Pairs[i].Value, &n.Pairs[i]
	}
	return nil, nil
}

// Describe names the kind of n for messages.
func (n *Node) Describe() string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case Map:
		return "a mapping"
	case Seq:
		return "a list"
	case Null:
		return "null"
	case Bool:
		return "the boolean " + n.Text
	case Int, Float:
		return "the number " + n.Text
	case String:
		return strconv.Quote(Clip(n.Text))
	}
	return "an invalid value"
}

// IsString reports whether n is a string scalar.
func (n *Node) IsString() bool { return n != nil && n.Kind == String }

// IsNumber reports whether n is a numeric scalar.
func (n *Node) IsNumber() bool { return n != nil && (n.Kind == Int || n.Kind == Float) }

// Resolve types a plain (unquoted) scalar by the YAML 1.2 core schema
// (https://yaml.org/spec/1.2.2/#1032-tag-resolution), from its source text, so that Benchy's
// meaning of a scalar does not depend on the YAML library's choices (goccy reads 010 as 8 and
// 1e3 as a string; the core schema says 10 and 1000).
func Resolve(s string) (Kind, float64) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return Null, 0
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return Bool, 0
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return Float, math.Inf(1)
	case "-.inf", "-.Inf", "-.INF":
		return Float, math.Inf(-1)
	case ".nan", ".NaN", ".NAN":
		return Float, math.NaN()
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x') {
		base := 8
		if s[1] == 'x' {
			base = 16
		}
		if v, err := strconv.ParseUint(s[2:], base, 64); err == nil || isRangeErr(err) {
			if err != nil {
				return Int, digitsValue(s[2:], float64(base)) // beyond 64 bits: not exact, maybe finite
			}
			return Int, float64(v)
		}
		return String, 0
	}
	switch numberShape(s) {
	case shapeInt:
		return Int, parseNumber(s)
	case shapeFloat:
		return Float, parseNumber(s)
	}
	return String, 0
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

// Exact reports whether a numeric node's value survives JSON unchanged: a finite float that
// did not underflow to zero, or an integer no larger in magnitude than 2^53. The integer test
// reads the source text, since 2^53+1 already rounded to 2^53 on the way in.
func (n *Node) Exact() bool {
	if math.IsInf(n.Num, 0) || math.IsNaN(n.Num) {
		return false
	}
	if n.Kind == Float {
		return n.Num != 0 || !strings.ContainsAny(mantissa(n.Text), "123456789")
	}
	text, base := strings.TrimPrefix(n.Text, "+"), 10
	switch {
	case strings.HasPrefix(text, "0o"):
		text, base = text[2:], 8
	case strings.HasPrefix(text, "0x"):
		text, base = text[2:], 16
	}
	v, err := strconv.ParseInt(text, base, 64)
	return err == nil && v >= -maxExactInt && v <= maxExactInt
}

// Overflows reports whether a numeric node is a finite number written too large for a
// double (1e400, an integer of 310 digits, 0x followed by 17 digits), as opposed to .inf.
func (n *Node) Overflows() bool {
	return n.IsNumber() && math.IsInf(n.Num, 0) && !strings.Contains(strings.ToLower(n.Text), "inf")
}

// mantissa is a float's text without its exponent.
func mantissa(s string) string {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		return s[:i]
	}
	return s
}

// Clip shortens a long value quoted in a message: a 10 kB domain name makes no better
// diagnostic than its first 100 characters.
func Clip(s string) string {
	const limit, keep = 200, 100
	if len(s) <= limit {
		return s
	}
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	return string(r[:keep]) + "…"
}

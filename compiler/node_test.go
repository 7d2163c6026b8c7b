package compiler

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

// The core schema's patterns, as the specification writes them: resolvePlain must agree.
var (
	reInt10 = regexp.MustCompile(`^[-+]?[0-9]+$`)
	reInt8  = regexp.MustCompile(`^0o[0-7]+$`)
	reInt16 = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	reFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	reInf   = regexp.MustCompile(`^[-+]?\.(inf|Inf|INF)$`)
	reNaN   = regexp.MustCompile(`^\.(nan|NaN|NAN)$`)
	reNull  = regexp.MustCompile(`^(null|Null|NULL|~|)$`)
	reBool  = regexp.MustCompile(`^(true|True|TRUE|false|False|FALSE)$`)
)

func specKind(s string) kind {
	switch {
	case reNull.MatchString(s):
		return kindNull
	case reBool.MatchString(s):
		return kindBool
	case reInt10.MatchString(s), reInt8.MatchString(s), reInt16.MatchString(s):
		return kindInt
	case reFloat.MatchString(s), reInf.MatchString(s), reNaN.MatchString(s):
		return kindFloat
	}
	return kindString
}

func TestResolvePlain(t *testing.T) {
	tests := []struct {
		in   string
		kind kind
		num  float64
	}{
		{"", kindNull, 0}, {"~", kindNull, 0}, {"NULL", kindNull, 0}, {"nULL", kindString, 0},
		{"true", kindBool, 0}, {"False", kindBool, 0}, {"yes", kindString, 0}, {"on", kindString, 0},
		{"010", kindInt, 10}, {"-7", kindInt, -7}, {"+3", kindInt, 3}, {"0o17", kindInt, 15}, {"0x1F", kindInt, 31},
		{"0b101", kindString, 0}, {"1_000", kindString, 0}, {"0o8", kindString, 0}, {"0x", kindString, 0},
		{"1e3", kindFloat, 1000}, {"1.", kindFloat, 1}, {".5", kindFloat, 0.5}, {"-1.5e-3", kindFloat, -0.0015},
		{"1.0", kindFloat, 1}, {"1e", kindString, 0}, {".", kindString, 0}, {"+", kindString, 0}, {"-.", kindString, 0},
		{".e3", kindString, 0}, {"1.2.3", kindString, 0}, {"1e+", kindString, 0},
		{".inf", kindFloat, math.Inf(1)}, {"-.Inf", kindFloat, math.Inf(-1)}, {"+.INF", kindFloat, math.Inf(1)},
		{"1e400", kindFloat, math.Inf(1)}, {"0x" + "1FFFFFFFFFFFFFFFFF", kindInt, 0x1FFFFFFFFFFFFFFFFF}, // beyond 64 bits: finite, not exact
		{"0x1" + strings.Repeat("0", 300), kindInt, math.Inf(1)},
	}
	for _, tt := range tests {
		k, num := resolvePlain(tt.in)
		if k != tt.kind || (k == kindInt || k == kindFloat) && num != tt.num {
			t.Errorf("resolvePlain(%q) = %v %v, want %v %v", tt.in, k, num, tt.kind, tt.num)
		}
		if want := specKind(tt.in); k != want {
			t.Errorf("resolvePlain(%q) kind %v, the spec's patterns say %v", tt.in, k, want)
		}
	}
	if k, n := resolvePlain(".NaN"); k != kindFloat || !math.IsNaN(n) {
		t.Errorf(".NaN = %v %v", k, n)
	}
}

// FuzzResolvePlain checks resolvePlain against the specification's regular expressions.
func FuzzResolvePlain(f *testing.F) {
	for _, s := range []string{"1", "1.5e3", "0x1f", "0o7", ".inf", "~", "true", "abc", "-.5", "+1e-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := func() kind { k, _ := resolvePlain(s); return k }(), specKind(s); got != want {
			t.Fatalf("resolvePlain(%q) = %v, the spec's patterns say %v", s, got, want)
		}
	})
}

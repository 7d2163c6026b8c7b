package yamlnode

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

func specKind(s string) Kind {
	switch {
	case reNull.MatchString(s):
		return Null
	case reBool.MatchString(s):
		return Bool
	case reInt10.MatchString(s), reInt8.MatchString(s), reInt16.MatchString(s):
		return Int
	case reFloat.MatchString(s), reInf.MatchString(s), reNaN.MatchString(s):
		return Float
	}
	return String
}

func TestResolvePlain(t *testing.T) {
	tests := []struct {
		in   string
		kind Kind
		num  float64
	}{
		{"", Null, 0}, {"~", Null, 0}, {"NULL", Null, 0}, {"nULL", String, 0},
		{"true", Bool, 0}, {"False", Bool, 0}, {"yes", String, 0}, {"on", String, 0},
		{"010", Int, 10}, {"-7", Int, -7}, {"+3", Int, 3}, {"0o17", Int, 15}, {"0x1F", Int, 31},
		{"0b101", String, 0}, {"1_000", String, 0}, {"0o8", String, 0}, {"0x", String, 0},
		{"1e3", Float, 1000}, {"1.", Float, 1}, {".5", Float, 0.5}, {"-1.5e-3", Float, -0.0015},
		{"1.0", Float, 1}, {"1e", String, 0}, {".", String, 0}, {"+", String, 0}, {"-.", String, 0},
		{".e3", String, 0}, {"1.2.3", String, 0}, {"1e+", String, 0},
		{".inf", Float, math.Inf(1)}, {"-.Inf", Float, math.Inf(-1)}, {"+.INF", Float, math.Inf(1)},
		{"1e400", Float, math.Inf(1)}, {"0x" + "1FFFFFFFFFFFFFFFFF", Int, 0x1FFFFFFFFFFFFFFFFF}, // beyond 64 bits: finite, not exact
		{"0x1" + strings.Repeat("0", 300), Int, math.Inf(1)},
	}
	for _, tt := range tests {
		k, num := Resolve(tt.in)
		if k != tt.kind || (k == Int || k == Float) && num != tt.num {
			t.Errorf("resolvePlain(%q) = %v %v, want %v %v", tt.in, k, num, tt.kind, tt.num)
		}
		if want := specKind(tt.in); k != want {
			t.Errorf("resolvePlain(%q) kind %v, the spec's patterns say %v", tt.in, k, want)
		}
	}
	if k, n := Resolve(".NaN"); k != Float || !math.IsNaN(n) {
		t.Errorf(".NaN = %v %v", k, n)
	}
}

// FuzzResolvePlain checks resolvePlain against the specification's regular expressions.
func FuzzResolvePlain(f *testing.F) {
	for _, s := range []string{"1", "1.5e3", "0x1f", "0o7", ".inf", "~", "true", "abc", "-.5", "+1e-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := func() Kind { k, _ := Resolve(s); return k }(), specKind(s); got != want {
			t.Fatalf("resolvePlain(%q) = %v, the spec's patterns say %v", s, got, want)
		}
	})
}

package ir

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"
)

// RFC 8785 §3.2.2.3 and Appendix B: numbers as ECMAScript's Number.prototype.toString.
func TestAppendNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1.5, "-1.5"},
		{0.1, "0.1"},
		{1.0 / 3, "0.3333333333333333"},
		{100, "100"},
		{1e20, "100000000000000000000"},
		{1e21, "1e+21"},
		{-1e21, "-1e+21"},
		{1e30, "1e+30"},
		{0.000001, "0.000001"},
		{1e-7, "1e-7"},
		{-1e-7, "-1e-7"},
		{1.5e-10, "1.5e-10"},
		{123456789012345680000, "123456789012345680000"},
		{9007199254740991, "9007199254740991"},
		{-9007199254740991, "-9007199254740991"},
		{333333333.33333329, "333333333.3333333"},
		{5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{-1.7976931348623157e308, "-1.7976931348623157e+308"},
	}
	for _, tt := range tests {
		if got := string(AppendNumber(nil, tt.in)); got != tt.want {
			t.Errorf("AppendNumber(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// It appends rather than overwrites.
	if got := string(AppendNumber([]byte("x="), 1e-7)); got != "x=1e-7" {
		t.Errorf("AppendNumber(\"x=\", 1e-7) = %q, want %q", got, "x=1e-7")
	}
}

// Numbers written in JSON text reach the same canonical form whatever their spelling.
func TestCanonicalizeNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"0.0", "0"},
		{"1E21", "1e+21"},
		{"1e-7", "1e-7"},
		{"0.000001", "0.000001"},
		{"4.50", "4.5"},
		{"2e-3", "0.002"},
		{"1E30", "1e+30"},
		{"0.000000000000000000000000001", "1e-27"},
		{"123456789012345678901", "123456789012345680000"},
		{"9007199254740993", "9007199254740992"},
		{"5e-324", "5e-324"},
		{"1.7976931348623157e308", "1.7976931348623157e+308"},
	}
	for _, tt := range tests {
		got, err := Canonicalize([]byte(tt.in))
		if err != nil {
			t.Errorf("Canonicalize(%s): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("Canonicalize(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// RFC 8785 §3.2.2.2: only '"', '\\' and control characters are escaped; \b \f \n \r \t use
// their short forms, the rest \u00xx in lower case; everything else is literal UTF-8.
func TestCanonicalizeStrings(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"control char", `"\u0001"`, `"\u0001"`},
		{"control char lower-case hex", `"\u001F"`, `"\u001f"`},
		{"nul", `"\u0000"`, `"\u0000"`},
		{"short escapes", `"\u0008\u000c\u000a\u000d\u0009"`, `"\b\f\n\r\t"`},
		{"quote and backslash", `"\u0022\u005c"`, `"\"\\"`},
		{"solidus unescaped", `"\/"`, `"/"`},
		{"html characters literal", `"\u003c\u003e\u0026"`, `"<>&"`},
		{"line separators literal", `"\u2028\u2029"`, "\"\u2028\u2029\""},
		{"DEL literal", `"\u007f"`, "\"\x7f\""},
		{"non-ASCII literal", `"\u00f6\u20ac"`, `"ö€"`},
		{"surrogate pair literal", `"\ud83d\ude00"`, `"😀"`},
		{"literal UTF-8 kept", `"añ€😀"`, `"añ€😀"`},
	}
	for _, tt := range tests {
		got, err := Canonicalize([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: Canonicalize(%s): %v", tt.name, tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s: Canonicalize(%s) = %s, want %s", tt.name, tt.in, got, tt.want)
		}
	}
}

// RFC 8785 §3.2.3: members are sorted by the UTF-16 code units of their names, not by
// UTF-8 bytes or code points (U+1F600 is D83D DE00, which sorts before U+FB33).
func TestCanonicalizeKeyOrder(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			"RFC 8785 sorting example",
			`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`,
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"דּ\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
		{"prefix first", `{"ab":1,"a":2,"b":3}`, `{"a":2,"ab":1,"b":3}`},
		{"upper before lower", `{"b":1,"B":2,"a":3}`, `{"B":2,"a":3,"b":1}`},
		{"nested objects sorted", `{"z":{"y":1,"x":[{"d":1,"c":2}]},"a":null}`, `{"a":null,"z":{"x":[{"c":2,"d":1}],"y":1}}`},
		{"arrays keep order", `[3,1,2]`, `[3,1,2]`},
	}
	for _, tt := range tests {
		got, err := Canonicalize([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// RFC 8785 §3.2.4 (the whole-document example) plus whitespace and literals.
func TestCanonicalizeDocument(t *testing.T) {
	in := `{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`
	want := `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`
	got, err := Canonicalize([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestCanonicalizeIdempotent(t *testing.T) {
	inputs := []string{
		`{"b": [1.0, 2e0, {"d": "\u00e9", "c": null}], "a": true}`,
		`{"\u20ac":1,"\r":2,"\ufb33":3,"1":4,"\ud83d\ude00":5,"\u0080":6,"\u00f6":7}`,
		`[1e21, 1e-7, -0, 0.1, "\u001f<>&"]`,
		`"x"`,
		`{}`,
	}
	for _, in := range inputs {
		once, err := Canonicalize([]byte(in))
		if err != nil {
			t.Errorf("Canonicalize(%s): %v", in, err)
			continue
		}
		twice, err := Canonicalize(once)
		if err != nil {
			t.Errorf("Canonicalize(%s): %v", once, err)
			continue
		}
		if !bytes.Equal(once, twice) {
			t.Errorf("not idempotent on %s:\n once %s\ntwice %s", in, once, twice)
		}
	}
	// Differently spelled, equal meaning: equal bytes.
	a, _ := Canonicalize([]byte(`{"a": 1.0, "b": [true]}`))
	b, _ := Canonicalize([]byte("{\"b\":[ true ],\n\"a\":1}"))
	if !bytes.Equal(a, b) {
		t.Errorf("equal documents differ: %s vs %s", a, b)
	}
}

func TestCanonicalizeRejects(t *testing.T) {
	tests := []struct{ name, in string }{
		{"trailing value", `{"a":1} {"b":2}`},
		{"trailing scalar", `1 2`},
		{"trailing close brace", `{"a":1}}`},
		{"trailing close bracket", `[1]]`},
		{"trailing garbage", `{"a":1} x`},
		{"number beyond float64", `1e400`},
		{"negative number beyond float64", `-1e400`},
		{"nested number beyond float64", `{"a":[1e400]}`},
		{"empty input", ``},
		{"syntax error", `{"a":}`},
	}
	for _, tt := range tests {
		if got, err := Canonicalize([]byte(tt.in)); err == nil {
			t.Errorf("%s: Canonicalize(%s) = %s, want error", tt.name, tt.in, got)
		}
	}
}

func TestHash(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"{}", "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"},
	}
	for _, tt := range tests {
		if got := Hash([]byte(tt.in)); got != tt.want {
			t.Errorf("Hash(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	format := regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	for _, in := range []string{`{"a":1}`, strings.Repeat("x", 1000)} {
		if h := Hash([]byte(in)); !format.MatchString(h) {
			t.Errorf("Hash(%q) = %q, not sha256:<64 lower-case hex>", in, h)
		}
	}
}

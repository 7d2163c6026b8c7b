package compiler

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

func minimal(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("testdata/compile/ok_model_minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// TestHardeningControlCharacters (issue 11, finding 7): a character outside YAML 1.2's
// c-printable (§5.1) anywhere in the file, in a plain, quoted or block scalar, a key or a
// comment, is refused as invalid_yaml at its line and column and never reaches the IR;
// so is invalid UTF-8. Before, raw control characters in quoted strings and enum members
// reached the IR. What c-printable allows stays allowed: tab, NEL, U+00A0 and beyond, a
// byte order mark (at the start, or inside as U+FEFF).
func TestHardeningControlCharacters(t *testing.T) {
	base := minimal(t)
	var refused []rune
	for r := rune(0); r < 0x20; r++ {
		if r != '\t' && r != '\n' && r != '\r' {
			refused = append(refused, r)
		}
	}
	refused = append(refused, 0x7f)
	for r := rune(0x80); r < 0xa0; r++ {
		if r != 0x85 {
			refused = append(refused, r)
		}
	}
	refused = append(refused, 0xfffe, 0xffff)
	// Each place puts the character at line 21 (ai-system.model), or line 6 for the key.
	places := []struct {
		name       string
		old, new   string
		line, col  int
		enumMember bool
	}{
		{"plain", "model: llama3", "model: lla%cma3", 21, 13, false},
		{"double-quoted", "model: llama3", `model: "lla%cma3"`, 21, 14, false},
		{"single-quoted", "model: llama3", "model: 'lla%cma3'", 21, 14, false},
		{"comment", "model: llama3", "model: llama3 # a%cb", 21, 20, false},
		{"block scalar", "model: llama3", "model: |\n    lla%cma3", 22, 8, false},
		{"key", "  language: fr", "  lang%cuage: fr", 6, 7, false},
		{"enum member", "    person: string", `    person: {enum: ["a%cb"]}`, 11, 23, true},
	}
	for _, r := range refused {
		for _, p := range places {
			src := strings.Replace(base, p.old, fmt.Sprintf(p.new, r), 1)
			b, ds := Compile([]byte(src))
			if b != nil || len(ds) != 1 || ds[0].Code != diag.InvalidYAML || ds[0].Line != p.line || ds[0].Column != p.col {
				t.Errorf("U+%04X in a %s: %v, want one invalid_yaml at %d:%d", r, p.name, ds, p.line, p.col)
			}
		}
	}
	for _, bad := range []string{"\xff", "\xc3", "\xed\xa0\x80" /* a surrogate in UTF-8 */, "\xf4\x90\x80\x80" /* beyond U+10FFFF */} {
		src := strings.Replace(base, "model: llama3", `model: "ll`+bad+`"`, 1)
		if _, ds := Compile([]byte(src)); len(ds) != 1 || ds[0].Code != diag.InvalidYAML || ds[0].Line != 21 || ds[0].Column != 13 {
			t.Errorf("invalid UTF-8 %q: %v, want one invalid_yaml at 21:13", bad, ds)
		}
	}
	allowed := map[string]string{
		"tab in a quoted string": `model: "lla` + "\t" + `ma3"`,
		"NEL":                    "model: lla\u0085ma3",
		"no-break space":         "model: lla\u00a0ma3",
		"U+FEFF inside":          "model: lla\ufeffma3",
		"U+10FFFF":               "model: lla\U0010ffffma3",
		"escaped controls":       `model: "lla\x01\u0085\x7fma3"`,
	}
	for name, line := range allowed {
		src := strings.Replace(base, "model: llama3", line, 1)
		if _, ds := Compile([]byte(src)); ds.Has(diag.InvalidYAML) {
			t.Errorf("%s: %v", name, ds)
		}
	}
	if _, ds := Compile([]byte("\ufeff" + base)); len(ds) > 0 {
		t.Errorf("a byte order mark at the start: %v", ds)
	}
}

// TestEscapedControlCharactersStayValidJSON: escapes such as "\x01" are YAML (§5.7) and stay
// allowed where the language allows the text (an enum member); the IR is valid JSON that
// reads back as the same text (C0 characters escaped, as JSON requires; DEL, C1 and U+2028
// may stand as they are in JSON).
func TestEscapedControlCharactersStayValidJSON(t *testing.T) {
	src := strings.Replace(minimal(t), "    person: string", `    person: {enum: ["a\x01b", "c\x7f", "\x85d", "e\u2028"]}`, 1)
	canonical, _, ds := CompileCanonical([]byte(src))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	var b ir.Benchmark
	if !json.Valid(canonical) || !utf8.Valid(canonical) || json.Unmarshal(canonical, &b) != nil {
		t.Fatalf("the IR is not valid JSON: %s", canonical)
	}
	want := []string{"a\x01b", "c\x7f", "\u0085d", "e\u2028"}
	if got := b.Program.Output.Fields[0].Values; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("enum members %q, want %q", got, want)
	}
	if strings.ContainsFunc(string(canonical), func(r rune) bool { return r < 0x20 }) {
		t.Errorf("a raw C0 control character in the IR (JSON requires them escaped): %q", canonical)
	}
}

// TestHardeningLoneSurrogateEscape: an escape that names no character (a lone UTF-16
// surrogate, a code point beyond U+10FFFF) is refused where it is written; goccy's lexer
// silently turned it into U+FFFD. A surrogate pair escape is one character.
func TestHardeningLoneSurrogateEscape(t *testing.T) {
	base := minimal(t)
	for _, esc := range []string{`\udc00`, `\uDFFF`, `\U0000D800`, `\U00110000`} {
		src := strings.Replace(base, "model: llama3", `model: "ll`+esc+`"`, 1)
		if _, ds := Compile([]byte(src)); len(ds) != 1 || ds[0].Code != diag.InvalidYAML || ds[0].Line != 21 || !strings.Contains(ds[0].Message, esc) {
			t.Errorf("%s: %v, want one invalid_yaml at line 21 naming it", esc, ds)
		}
	}
	for esc, want := range map[string]string{`\ud83d\ude00`: "😀", `\uFFFD`: "\ufffd", `\U0001F600`: "😀"} {
		src := strings.Replace(base, "model: llama3", `model: "ll`+esc+`"`, 1)
		b, ds := Compile([]byte(src))
		if len(ds) > 0 || b.AISystem.Model != "ll"+want {
			t.Errorf("%s: %v %v", esc, ds, b)
		}
	}
}

// TestHardeningWeightsOverflowTheirSum (issue 11, finding 7): finite weights whose total
// overflows a double (A.3 allows them) compile; the IR keeps each weight as written and
// computes no total. They were refused ("their total overflows a double").
func TestHardeningWeightsOverflowTheirSum(t *testing.T) {
	src := strings.Replace(strings.Replace(minimal(t), "    person: string\n", "    person: string\n    place: string\n", 1),
		"    person: 1\n", "    person: 1e308\n    place: 1.7976931348623157e308\n", 1)
	canonical, _, ds := CompileCanonical([]byte(src))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	if !strings.Contains(string(canonical), `"weight":1e+308}`) || !strings.Contains(string(canonical), `"weight":1.7976931348623157e+308}`) {
		t.Errorf("the IR does not keep the weights as written: %s", canonical)
	}
	if b, _ := Compile([]byte(src)); VerifyIR(b) != nil {
		t.Errorf("the IR does not verify: %v", VerifyIR(b))
	}
	zero := strings.Replace(src, "1e308", "0", 1)
	zero = strings.Replace(zero, "1.7976931348623157e308", "0.0", 1)
	if _, ds := Compile([]byte(zero)); len(ds) != 1 || ds[0].Code != diag.InvalidWeight {
		t.Errorf("all weights zero: %v", ds)
	}
}

// TestHardeningNumbersBeyond64Bits: weights and parameters written beyond what a double or
// 64 bits hold get a diagnostic that says so (1e400 is finite, not "must be finite"); none
// panics, and fmt keeps them as written.
func TestHardeningNumbersBeyond64Bits(t *testing.T) {
	base := minimal(t)
	big := "1" + strings.Repeat("0", 400)
	cases := map[string]string{
		"1e400":                         "too large for a double",
		"-1e400":                        "too large for a double",
		big:                             "too large for a double",
		"0x" + strings.Repeat("f", 300): "too large for a double",
		"100000000000000000000000":      "cannot be represented exactly",
		"18446744073709551616":          "cannot be represented exactly",
		"0x10000000000000000":           "cannot be represented exactly",
		"0o7777777777777777777777777":   "cannot be represented exactly",
		"1e-400":                        "cannot be represented exactly",
	}
	for text, want := range cases {
		src := strings.Replace(base, "    person: 1\n", "    person: "+text+"\n", 1)
		if _, ds := Compile([]byte(src)); len(ds) != 1 || ds[0].Code != diag.InvalidWeight || !strings.Contains(ds[0].Message, want) {
			t.Errorf("weight %.30s: %v, want invalid_weight saying %q", text, ds, want)
		}
		src = strings.Replace(base, "model: llama3", "model: llama3\n  parameters: {seed: "+text+"}", 1)
		if _, ds := Compile([]byte(src)); len(ds) != 1 || ds[0].Code != diag.InvalidValue {
			t.Errorf("parameter %.30s: %v, want invalid_value", text, ds)
		}
		if out, ds := Format([]byte(src)); len(ds) > 0 || !strings.Contains(string(out), text) {
			t.Errorf("fmt of parameter %.30s: %v\n%s", text, ds, out)
		}
	}
}

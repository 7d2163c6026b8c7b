package compiler

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// quote writes s as a YAML scalar that reads back as the string s under any YAML version:
// plain when that is unambiguous, double-quoted otherwise.
func quote(s string) string {
	if plainSafe(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || r == 0xfeff || r == 0x2028 || r == 0x2029 || !unicode.IsPrint(r) && r > 0x7f:
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// yaml11Words are plain scalars that YAML 1.1 readers take as booleans or null.
var yaml11Words = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true, "~": true,
}

// plainSafe reports whether s can be written unquoted and still read as this string by
// YAML 1.1 and 1.2 readers alike, in block and flow context.
func plainSafe(s string) bool {
	if s == "" || yaml11Words[strings.ToLower(s)] {
		return false
	}
	if k, _ := yamlnode.Resolve(s); k != yamlnode.String {
		return false
	}
	first := []rune(s)[0]
	if !(unicode.IsLetter(first) || first == '_' || first == '.' || first == '/' || unicode.IsDigit(first)) {
		return false
	}
	digitsOnly := true
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_./-+", r)) {
			return false
		}
		if !(unicode.IsDigit(r) || strings.ContainsRune("_.+-", r)) {
			digitsOnly = false
		}
	}
	// 1_000, 0b101, 1.2.3 and friends are numbers or odd to some YAML 1.1 readers.
	return !digitsOnly && !strings.HasPrefix(s, "0b") && !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0o")
}

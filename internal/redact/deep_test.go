package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// esc writes s with every character a \u escape behind n backslashes (1: in a JSON string;
// 2: in a JSON text inside a JSON string, as a model's JSON answer in a reply's content).
func esc(s string, n int) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `%su%04x`, strings.Repeat(`\`, n), r)
	}
	return b.String()
}

// TestDeep: a secret spelt with escapes at any depth, whole or mixed with plain
// characters, is masked, and what is left is still the JSON it was; a text without the
// secret is returned as it is, its escapes untouched.
func TestDeep(t *testing.T) {
	const key = "sk-SECRETKEY123456"
	s := New(key)
	for _, body := range []string{
		`{"content":"` + key + `"}`,
		`{"content":"` + esc(key, 1) + `"}`,
		`{"content":"{\"note\": \"` + esc(key, 2) + `\"}"}`,
		`{"content":"{\"note\": \"` + esc(key, 3) + `\"}"}`,
		`{"content":"{\"note\": \"` + esc(key[:6], 2) + key[6:12] + esc(key[12:], 1) + `\"}"}`,
		`{"a":"x\/` + esc(key, 7) + `"}`,
	} {
		got := s.Deep([]byte(body))
		if bytes.Contains(got, []byte(key)) || !json.Valid(got) || !bytes.Contains(got, []byte(Mask)) {
			t.Errorf("%s -> %s", body, got)
		}
		// Decoded twice, as a replay reads a model's JSON answer, no key comes back.
		var outer map[string]string
		json.Unmarshal(got, &outer)
		for _, v := range outer {
			if strings.Contains(v, key) || strings.Contains(string(PlainJSON([]byte(v))), key) {
				t.Errorf("%s decodes to the key: %q", body, v)
			}
		}
	}
	for _, body := range []string{
		`{"content":"{\"answer\":\"caf\u00e9 \\u0073k\"}"}`,
		`plain \u0073 and \\\\ and \/ end\`,
		`{"x":"\u` + `"}`,
	} {
		if got := s.Deep([]byte(body)); string(got) != body {
			t.Errorf("%s changed to %s", body, got)
		}
	}
}

func FuzzDeep(f *testing.F) {
	f.Add([]byte(`{"content":"{\"note\": \"\\u0073\\u006b-SECRETKEY123456\"}"}`))
	f.Add([]byte(`\\\\u00`))
	s := New("sk-SECRETKEY123456")
	f.Fuzz(func(t *testing.T, b []byte) {
		got := s.Deep(b)
		if bytes.Contains(got, []byte("sk-SECRETKEY123456")) {
			t.Fatalf("the key survives: %q", got)
		}
	})
}

// TestJSONBodyMasksEscapesOfTextBodies: an error body that is no JSON (a proxy's text or
// HTML page quoting the key in \u escapes, once or twice) is masked as a JSON one is: a
// provider's or an http binding's error message keeps no 8 bytes of the key, decoded.
func TestJSONBodyMasksEscapesOfTextBodies(t *testing.T) {
	const key = "sk-stubkey-ABCDEFGHIJKLMNOP"
	s := New(key)
	for _, slashes := range []string{`\`, `\\`} {
		var esc strings.Builder
		for _, c := range key {
			fmt.Fprintf(&esc, `%su%04x`, slashes, c)
		}
		body := "upstream failed for key " + esc.String() + " (502)"
		got := string(s.JSONBody([]byte(body)))
		plain := strings.NewReplacer(`\\`, `\`).Replace(got)
		for range 2 {
			plain = decodeU(plain)
		}
		if strings.Contains(plain, key[:8]) || strings.Contains(plain, key[len(key)-8:]) || !strings.Contains(got, "[redacted]") {
			t.Errorf("a text body with the key in %s-escapes: %q", slashes, got)
		}
	}
}

// decodeU spells out the \uXXXX escapes of s.
func decodeU(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+5 < len(s) && s[i+1] == 'u' {
			var r rune
			if _, err := fmt.Sscanf(s[i+2:i+6], "%04x", &r); err == nil {
				b.WriteRune(r)
				i += 5
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

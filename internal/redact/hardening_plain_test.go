package redact

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestHardeningEscapedSecretsSpeltOut: PlainJSON spells out a JSON text's \u escapes (in
// whole or in part, lower or upper case hex, \/ too) in the text's own order, so that
// JSONBody masks a secret a server echoed escaped, which Bytes on the text as it came does
// not; text that is not JSON, and what follows a JSON value, are masked as they are.
func TestHardeningEscapedSecretsSpeltOut(t *testing.T) {
	const secret = "sk-Zq8vN3kT1bW6/yH0pL4xR9cF2"
	s := New(secret)
	esc := func(every int, upper bool) string {
		var b strings.Builder
		for i, r := range secret {
			switch {
			case r == '/' && every == 2:
				b.WriteString(`\/`)
			case i%every != 0:
				b.WriteRune(r)
			case upper:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		}
		return b.String()
	}
	for _, c := range []struct{ name, body string }{
		{"every character", `{"error":{"message":"Incorrect API key provided: ` + esc(1, false) + `","code":"invalid_api_key"}}`},
		{"upper case hex", `{"error":{"message":"key ` + esc(1, true) + `"}}`},
		{"every other one, and \\/", `{"type":"error","error":{"type":"authentication_error","message":"` + esc(2, false) + `"}}`},
		{"in a key and an array", `{"` + esc(3, true) + `":[1,"` + esc(1, false) + `",null,true]}`},
		{"a top-level string", `"` + esc(1, false) + `"`},
	} {
		if got := string(s.Bytes([]byte(c.body))); !strings.Contains(got, `\u`) {
			t.Fatalf("%s: the body holds no escape: %s", c.name, got)
		}
		got := string(s.JSONBody([]byte(c.body)))
		if l := testkit.Leak(got, secret); l != "" || !strings.Contains(got, Mask) || !json.Valid([]byte(got)) {
			t.Errorf("%s: %s keeps %q of the secret (or is not JSON)", c.name, got, l)
		}
	}
	// The text's order, duplicate keys, numbers and literals are kept.
	in := `{"b": 1.50e3, "a": [true, false, null, "x\u00e9\u2028"], "b": {}, "c": "\"\\\u0001"}`
	if got, want := string(PlainJSON([]byte(in))), `{"b":1.50e3,"a":[true,false,null,"xé\u2028"],"b":{},"c":"\"\\\u0001"}`; got != want {
		t.Errorf("PlainJSON(%s) = %s, want %s", in, got, want)
	}
	// Not JSON: as it is; what follows a value: as it is.
	for in, want := range map[string]string{
		"upstream error " + secret:           "upstream error " + Mask,
		`{"a":"` + esc(1, false) + `"} tail`: `{"a":"` + Mask + `"} tail`,
		`{"a": "unterminated`:                `{"a": "unterminated`,
		"":                                   "",
	} {
		if got := string(s.JSONBody([]byte(in))); got != want {
			t.Errorf("JSONBody(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHardeningURLCredentials: URLSecrets are a URL's password, its user name standing
// alone, and the values of its query parameters named as credentials.
func TestHardeningURLCredentials(t *testing.T) {
	for raw, want := range map[string][]string{
		"http://user:PROVPASS4242@127.0.0.1:1/v1?key=PROVQUERYKEY777&api-version=2024-06-01": {"PROVPASS4242", "PROVQUERYKEY777"},
		"https://ghp_TOKEN1234567@host/v1":                                                   {"ghp_TOKEN1234567"},
		"https://service-account:pw123@host/?access_token=abc&x=1":                           {"pw123", "service-account", "abc"},
		"https://host/v1":  nil,
		"http://host:bad/": nil,
	} {
		got := URLSecrets(raw)
		if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
			t.Errorf("URLSecrets(%q) = %q, want %q", raw, got, want)
		}
	}
}

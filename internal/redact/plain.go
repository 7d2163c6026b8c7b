package redact

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// CredentialName tells a variable or URL query parameter that holds a credential by its
// name: OPENAI_API_KEY, HF_TOKEN, DB_PASSWORD, access_token, sig. It is the rule the
// bindings of a runtime file follow too.
func CredentialName(name string) bool {
	n := strings.ToUpper(name)
	for _, s := range []string{"KEY", "TOKEN", "SECRET", "PASS", "AUTH", "CREDENTIAL", "SIG", "COOKIE", "SESSION"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// URLSecrets are the credentials a URL carries: the password of its user information, its
// user name when it stands alone (https://TOKEN@host) or is at least Gram bytes long, and
// the values of the query parameters whose names CredentialName marks (?key=, ?token=,
// ?api_key=, ?sig=). Other query values (?api-version=2024-06-01) are not secrets: masking
// them would rewrite the answers that happen to hold them. A URL that does not parse
// carries none that can be told.
func URLSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var secrets []string
	if u.User != nil {
		p, ok := u.User.Password()
		if ok {
			secrets = append(secrets, p)
		}
		if name := u.User.Username(); !ok || len(name) >= Gram {
			secrets = append(secrets, name)
		}
	}
	for name, values := range u.Query() {
		if CredentialName(name) {
			secrets = append(secrets, values...)
		}
	}
	return secrets
}

// PlainJSON re-encodes a JSON text with its strings' escapes spelt out (\u0073 is written
// s, \/ is written /), in its own order, duplicate keys and all, so that a secret a server
// echoed escaped, in whole or in part, can be found before the text is cut: redact what it
// returns, then cut. Only what JSON itself requires stays escaped (a quote, a backslash, a
// control character), as in the JSON-escaped forms New masks. A text that does not start
// with a JSON value is returned as is; whatever follows the first value is kept as is.
func PlainJSON(b []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	out := bytes.NewBuffer(make([]byte, 0, len(b)))
	var str bytes.Buffer
	enc := json.NewEncoder(&str)
	enc.SetEscapeHTML(false)
	type level struct {
		object bool
		n      int // the keys and values, or the elements, written so far
	}
	var stack []level
	for {
		t, err := dec.Token()
		if err != nil {
			return b
		}
		if d, ok := t.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteByte(byte(d))
			stack = stack[:len(stack)-1]
		} else {
			if n := len(stack); n > 0 {
				top := &stack[n-1]
				switch {
				case top.object && top.n%2 == 1:
					out.WriteByte(':')
				case top.n > 0:
					out.WriteByte(',')
				}
				top.n++
			}
			switch v := t.(type) {
			case json.Delim:
				out.WriteByte(byte(v))
				stack = append(stack, level{object: v == '{'})
			case string:
				str.Reset()
				enc.Encode(v)
				out.Write(bytes.TrimSuffix(str.Bytes(), []byte("\n")))
			case json.Number:
				out.WriteString(string(v))
			case bool:
				out.WriteString(map[bool]string{true: "true", false: "false"}[v])
			case nil:
				out.WriteString("null")
			}
		}
		if len(stack) == 0 {
			break
		}
	}
	return append(out.Bytes(), b[dec.InputOffset():]...)
}

// JSONBody masks the secrets of a reply body: a JSON body re-encoded first (PlainJSON),
// so that no escape hides a secret, and any other body (an HTML or text error page that
// quotes a key in \u escapes) with its escapes spelt out at any depth (Deep). Cut what it
// returns, never what it is given.
func (s *Secrets) JSONBody(b []byte) []byte {
	if s == nil {
		return b
	}
	return s.Deep(PlainJSON(b))
}

package redact

import "bytes"

// Deep returns b with its secrets masked as written and as spelt with JSON escapes at any
// depth: \u0073 in a JSON string, \\u0073 in a JSON text held in a JSON string (a model's
// JSON answer inside a reply's content), \/ for a slash, mixed with plain characters. A
// reply kept for a replay (the response cache, a batch's replies) is masked so, because the
// run that replays it may have no key to mask what it decodes. Each mask replaces whole
// escapes with plain characters, so the text stays what it was, JSON or not. b itself
// when it holds no secret.
func (s *Secrets) Deep(b []byte) []byte {
	if s == nil {
		return b
	}
	b = s.Bytes(b)
	// Only a \u or a \/ escape spells a character another way (\n, \" and \\ stand for
	// characters no key holds): a reply without one, nearly every reply, costs no second pass.
	if !bytes.Contains(b, []byte(`\u`)) && !bytes.Contains(b, []byte(`\/`)) {
		return b
	}
	// The text with every escape of one character, at any depth, spelt out, and where each
	// of its bytes starts in b.
	dec := make([]byte, 0, len(b))
	from := make([]int, 0, len(b)+1)
	for i := 0; i < len(b); {
		j := i
		for j < len(b) && b[j] == '\\' {
			j++
		}
		if j > i {
			if r, ok := hex4(b, j); ok && r < 0x80 {
				dec, from = append(dec, byte(r)), append(from, i)
				i = j + 5
				continue
			}
			if j < len(b) && b[j] == '/' {
				dec, from = append(dec, '/'), append(from, i)
				i = j + 1
				continue
			}
		}
		dec, from = append(dec, b[i]), append(from, i)
		i++
	}
	from = append(from, len(b))
	found := s.spans(dec)
	if len(found) == 0 {
		return b
	}
	for k := range found {
		found[k] = span{from[found[k].start], from[found[k].end]}
	}
	return apply(b, found)
}

// hex4 reads the u and four hex digits of an escape at b[j:].
func hex4(b []byte, j int) (rune, bool) {
	if j+5 > len(b) || b[j] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[j+1 : j+5] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

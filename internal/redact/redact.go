package redact

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// Mask replaces what is redacted.
const Mask = "[redacted]"

// Gram is the shortest run of a secret's bytes that is masked on its own.
const Gram = 8

// MinSecret is the length below which a value is not treated as a secret.
const MinSecret = 3

// Secrets is a set of secrets to mask. The nil *Secrets masks nothing; its methods are safe
// for concurrent use.
type Secrets struct {
	grams  map[uint64]struct{} // every Gram-byte run of every secret, as a little-endian word
	filter [1024]uint64        // a 65,536-bit filter over grams, so most bytes cost no map lookup
	short  [][]byte            // secrets shorter than Gram, matched whole
}

// New returns the set of the given secrets, with their JSON-escaped and URL-escaped forms,
// or nil when none is at least MinSecret bytes long.
func New(secrets ...string) *Secrets {
	s := &Secrets{grams: map[uint64]struct{}{}}
	for _, secret := range secrets {
		if len(secret) < MinSecret {
			continue
		}
		for _, form := range forms(secret) {
			s.add(form)
		}
	}
	if len(s.grams) == 0 && len(s.short) == 0 {
		return nil
	}
	return s
}

// forms are the ways a secret may be written back: as is, inside a JSON string (with "/"
// escaped or not), and URL-escaped.
func forms(secret string) []string {
	out := []string{secret}
	if b, err := json.Marshal(secret); err == nil { // HTML-escaped, as encoding/json writes
		var e bytes.Buffer
		enc := json.NewEncoder(&e)
		enc.SetEscapeHTML(false)
		enc.Encode(secret)
		esc := bytes.TrimSuffix(e.Bytes(), []byte("\n"))
		plain := string(esc[1 : len(esc)-1])
		out = append(out, string(b[1:len(b)-1]), plain, strings.ReplaceAll(plain, "/", `\/`))
	}
	out = append(out, url.QueryEscape(secret), url.PathEscape(secret))
	slices.Sort(out)
	return slices.Compact(out)
}

func (s *Secrets) add(secret string) {
	if len(secret) < Gram {
		s.short = append(s.short, []byte(secret))
		return
	}
	for i := 0; i+Gram <= len(secret); i++ {
		w := binary.LittleEndian.Uint64([]byte(secret[i : i+Gram]))
		s.grams[w] = struct{}{}
		h := hash(w)
		s.filter[h>>6] |= 1 << (h & 63)
	}
}

func hash(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> 48 }

// Keep is how many trailing bytes a stream must hold back, unwritten, until it knows what
// follows them: a secret may continue in the next piece.
func (s *Secrets) Keep() int {
	if s == nil {
		return 0
	}
	k := Gram - 1
	for _, b := range s.short {
		k = max(k, len(b)-1)
	}
	return k
}

// span is a byte range [start, end) to mask.
type span struct{ start, end int }

// spans finds what to mask in b, in order, merged, widened to whole UTF-8 characters.
func (s *Secrets) spans(b []byte) []span {
	var out []span
	mark := func(start, end int) {
		if n := len(out); n > 0 && start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, end)
			return
		}
		out = append(out, span{start, end})
	}
	if len(s.grams) > 0 {
		var w uint64
		for i, c := range b {
			w = w>>8 | uint64(c)<<56
			if i < Gram-1 {
				continue
			}
			if h := hash(w); s.filter[h>>6]&(1<<(h&63)) == 0 {
				continue
			}
			if _, ok := s.grams[w]; ok {
				mark(i+1-Gram, i+1)
			}
		}
	}
	if len(s.short) > 0 {
		for _, secret := range s.short {
			for at := 0; ; {
				i := bytes.Index(b[at:], secret)
				if i < 0 {
					break
				}
				out = append(out, span{at + i, at + i + len(secret)})
				at += i + 1
			}
		}
		slices.SortFunc(out, func(a, b span) int { return a.start - b.start })
		merged := out[:0]
		for _, sp := range out {
			if n := len(merged); n > 0 && sp.start <= merged[n-1].end {
				merged[n-1].end = max(merged[n-1].end, sp.end)
				continue
			}
			merged = append(merged, sp)
		}
		out = merged
	}
	for i := range out {
		for out[i].start > 0 && !utf8.RuneStart(b[out[i].start]) {
			out[i].start--
		}
		for out[i].end < len(b) && !utf8.RuneStart(b[out[i].end]) {
			out[i].end++
		}
	}
	return out
}

// apply masks the spans of b.
func apply(b []byte, spans []span) []byte {
	out := make([]byte, 0, len(b))
	at := 0
	for _, sp := range spans {
		if sp.start < at {
			sp.start = at
		}
		out = append(append(out, b[at:sp.start]...), Mask...)
		at = sp.end
	}
	return append(out, b[at:]...)
}

// Bytes returns b with its secrets masked: b itself when it holds none.
func (s *Secrets) Bytes(b []byte) []byte {
	if s == nil {
		return b
	}
	sp := s.spans(b)
	if len(sp) == 0 {
		return b
	}
	return apply(b, sp)
}

// String returns t with its secrets masked.
func (s *Secrets) String(t string) string {
	if s == nil {
		return t
	}
	sp := s.spans([]byte(t))
	if len(sp) == 0 {
		return t
	}
	return string(apply([]byte(t), sp))
}

// Value masks the secrets in a decoded JSON value: its strings and its objects' keys. Maps
// and slices are changed in place; the result replaces v.
func (s *Secrets) Value(v any) any {
	if s == nil {
		return v
	}
	switch x := v.(type) {
	case string:
		return s.String(x)
	case []any:
		for i := range x {
			x[i] = s.Value(x[i])
		}
	case map[string]any:
		var renamed []string
		for k, e := range x {
			x[k] = s.Value(e)
			if s.String(k) != k {
				renamed = append(renamed, k)
			}
		}
		for _, k := range renamed {
			e := x[k]
			delete(x, k)
			x[s.String(k)] = e
		}
	}
	return v
}

// Stream masks the secrets of text written in pieces: Write returns what may be written
// now, holding back a tail that a secret may continue from; Flush returns the rest.
type Stream struct {
	s     *Secrets
	carry []byte
}

// Stream returns a stream over these secrets.
func (s *Secrets) Stream() *Stream { return &Stream{s: s} }

// Write takes the next piece and returns the masked text that is safe to write.
func (st *Stream) Write(p []byte) []byte {
	if st.s == nil {
		return p
	}
	buf := append(st.carry, p...)
	sp := st.s.spans(buf)
	cut := max(len(buf)-st.s.Keep(), 0)
	for cut > 0 && cut < len(buf) && !utf8.RuneStart(buf[cut]) {
		cut--
	}
	keep := sp[:0:0]
	for _, x := range sp {
		if x.start >= cut {
			break
		}
		if x.end > cut { // a masked run reaching into the held-back tail: hold it all back
			cut = x.start
			break
		}
		keep = append(keep, x)
	}
	out := apply(buf[:cut], keep)
	st.carry = append(st.carry[:0:0], buf[cut:]...)
	return out
}

// Flush returns the held-back tail, masked.
func (st *Stream) Flush() []byte {
	if st.s == nil {
		return nil
	}
	out := st.s.Bytes(st.carry)
	st.carry = nil
	return out
}

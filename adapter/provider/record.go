package provider

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
)

// The results explorer shows the request each example sent to its model (engine.Answer's
// and engine.Failure's Request): a line "POST /v1/chat/completions", then the JSON body
// indented by two spaces, its keys in the order sent. It is a copy for people, so it
// keeps nothing they must not see and nothing they cannot read: no header (the key goes
// there), the key and the base URL's credentials masked wherever the request holds them
// (a prompt or a parameter may), and each artifact's bytes replaced by a marker such as
// "<image/png, 12345 bytes>". It is built from the body's segments, never from the body as
// sent, and stops at engine.MaxRequest: a request with 32 MiB of artifacts or a long text
// costs 64 KiB here, not another copy of itself.

// requestLine is the first line of a recorded request: the method, and the endpoint's path
// under the provider's base URL, which is named, not quoted ("POST {base_url}/v1/messages"):
// a gateway may take a key in the base URL's path (https://host/KEY/v1) or in a query
// parameter whose name does not say so (Azure Functions' ?code=), which no redaction would
// find. The runtime file says what the base URL is.
func requestLine(endpoint string) string {
	return "POST {base_url}" + endpoint
}

// record is the recorded copy of b, sent to the endpoint line names, with secrets masked.
func (b *requestBody) record(line string, secrets *redact.Secrets) string {
	// Room for the body and some indentation; artifacts count as their encoding here, so
	// a body with any is given the whole limit at once.
	w := &indenter{limit: engine.MaxRequest, out: make([]byte, 0, min(b.size+int64(len(line))+1024, engine.MaxRequest))}
	w.out = append(w.out, line...)
	w.out = append(w.out, '\n')
	for _, s := range b.segs {
		if w.full() {
			break
		}
		if s.art == nil {
			w.write(s.json)
			continue
		}
		w.raw(artifactMarker(s.art))
	}
	text := secrets.Bytes(w.out)
	if !w.full() {
		return string(text)
	}
	// A secret the stop cut in two is masked only where at least redact.Gram of its bytes
	// are left, so the last Keep bytes go too, whatever they are.
	note := fmt.Sprintf("\n… (cut: the body sent was %d bytes)", b.size)
	cut := min(len(text)-secrets.Keep(), engine.MaxRequest-len(note))
	for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return string(text[:max(cut, 0)]) + note
}

// artifactMarker stands for an artifact's bytes in a recorded request.
func artifactMarker(a *artifact) string {
	return "<" + a.part.MIME + ", " + strconv.FormatInt(a.part.Size, 10) + " bytes>"
}

// indenter writes compact JSON, fed in pieces, as encoding/json's Indent with a two-space
// indent would (empty objects and arrays stay {} and []), into at most limit bytes.
type indenter struct {
	out     []byte
	limit   int
	depth   int
	inStr   bool
	escaped bool // the previous byte of the string was a backslash
	opened  bool // the previous byte was { or [: its newline waits for what follows
}

func (w *indenter) full() bool { return len(w.out) >= w.limit }

// raw writes text inside the string being written, as it is: a marker, which holds no
// quote or backslash.
func (w *indenter) raw(text string) {
	w.out = w.put(w.out, []byte(text))
}

// put appends p to out, up to the limit. The indenter's methods append to a local slice
// and store it once: storing w.out at every byte cost a GC write barrier each time
// (BenchmarkOpenAIPath/record: recording a 1 KB request took 8 µs, 3.5 with the slice kept
// local and strings copied whole).
func (w *indenter) put(out, p []byte) []byte {
	if room := w.limit - len(out); len(p) > room {
		p = p[:max(room, 0)]
	}
	return append(out, p...)
}

func (w *indenter) putByte(out []byte, c byte) []byte {
	if len(out) < w.limit {
		out = append(out, c)
	}
	return out
}

// spaces are a newline's indentation, two a level.
var spaces = []byte("                                                                ")

func (w *indenter) newline(out []byte) []byte {
	out = w.putByte(out, '\n')
	for n := 2 * w.depth; n > 0 && len(out) < w.limit; {
		k := min(n, len(spaces))
		out = w.put(out, spaces[:k])
		n -= k
	}
	return out
}

// stringEnd is the offset of p's first quote or backslash, or -1.
func stringEnd(p []byte) int {
	for i, c := range p {
		if c == '"' || c == '\\' {
			return i
		}
	}
	return -1
}

func (w *indenter) write(p []byte) {
	out := w.out
	defer func() { w.out = out }()
	for len(p) > 0 && len(out) < w.limit {
		if w.inStr {
			// Copy the string up to its next quote or backslash at once.
			i := stringEnd(p)
			if w.escaped {
				i = 0
			}
			if i < 0 {
				out = w.put(out, p)
				return
			}
			out = w.put(out, p[:i+1])
			c := p[i]
			p = p[i+1:]
			switch {
			case w.escaped:
				w.escaped = false
			case c == '\\':
				w.escaped = true
			default:
				w.inStr = false
			}
			continue
		}
		c := p[0]
		p = p[1:]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if w.opened {
			w.opened = false
			if c == '}' || c == ']' {
				w.depth--
				out = w.putByte(out, c)
				continue
			}
			out = w.newline(out)
		}
		switch c {
		case '"':
			w.inStr = true
			out = w.putByte(out, c)
		case '{', '[':
			out = w.putByte(out, c)
			w.depth++
			w.opened = true
		case '}', ']':
			w.depth--
			out = w.newline(out)
			out = w.putByte(out, c)
		case ',':
			out = w.putByte(out, c)
			out = w.newline(out)
		case ':':
			out = w.put(out, []byte(": "))
		default:
			out = w.putByte(out, c)
		}
	}
}

package provider

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// A request body is streamed: its JSON is encoded as a whole, with a marker string where
// each artifact goes, and cut at the markers; each artifact is encoded from its file while
// the HTTP client reads the body. A request so holds a few buffers, not its artifacts
// several times over (BenchmarkArtifactMemory: a request with a 32 MiB document peaked
// at 256 MiB when the body was built whole, at 10 MiB streamed, the process's 8.5 MiB
// included). The body's length is known from the files' sizes, so it goes with a
// Content-Length; a file whose size or text changes fails the request instead of sending
// other bytes.

// requestBody is one request's bytes: literal JSON and artifacts, in order.
type requestBody struct {
	segs []segment
	size int64 // the Content-Length: the segments' lengths added up
	// tokens is the body's expected tokens for a tokens-per-minute limit (requestTokens),
	// worked out at its first attempt and kept for its retries; 0 until then.
	tokens int
}

// segment is literal JSON or, when art is set, one artifact inside a JSON string.
type segment struct {
	json []byte
	art  *artifact
}

// artifact is a file's place in a body: prefix (a data: URL's head, as JSON text), then the
// file base64-encoded or, when text is set, as the text of a JSON string.
type artifact struct {
	part   Part
	prefix []byte
	text   bool
	length int64 // of the file's encoding, the prefix excluded
}

func (s segment) len() int64 {
	if s.art == nil {
		return int64(len(s.json))
	}
	return int64(len(s.art.prefix)) + s.art.length
}

// bodyBuilder builds one request body. Each artifact stands in the request's value as a
// marker string, random so that no other string of the request is one.
type bodyBuilder struct {
	marker string
	arts   []*artifact
}

func newBodyBuilder() *bodyBuilder { return &bodyBuilder{} }

// base64 is the JSON string that will carry prefix and then p's file base64-encoded.
func (b *bodyBuilder) base64(prefix string, p Part) string {
	return b.add(&artifact{part: p, prefix: jsonText([]byte(prefix)), length: int64(base64.StdEncoding.EncodedLen(int(p.Size)))})
}

// text is the JSON string that will carry p's file as text. The file is read once here, to
// check that it is UTF-8 and to count its JSON text.
func (b *bodyBuilder) text(p Part) (string, *engine.Failure) {
	f, fail := openPart(p)
	if fail != nil {
		return "", fail
	}
	defer f.Close()
	a := &artifact{part: p, text: true, length: -1}
	e := newEncoder(a, f)
	var n int64
	for {
		chunk, done, fail := e.next()
		if fail != nil {
			return "", fail
		}
		n += int64(len(chunk))
		if done {
			break
		}
	}
	a.length = n
	return b.add(a), nil
}

func (b *bodyBuilder) add(a *artifact) string {
	if b.marker == "" {
		b.marker = "benchy-artifact-" + rand.Text()
	}
	b.arts = append(b.arts, a)
	return b.marker + "." + strconv.Itoa(len(b.arts)-1)
}

// finish encodes the request's value v and cuts it at the artifacts' markers.
func (b *bodyBuilder) finish(v any) (*requestBody, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "encoding the request: %v", err)
	}
	return b.cut(data)
}

// cut cuts the request's JSON, data, at the artifacts' markers.
func (b *bodyBuilder) cut(data []byte) (*requestBody, error) {
	type cut struct {
		at, n int // the marker's offset and length, inside its quotes
		a     *artifact
	}
	cuts := make([]cut, 0, len(b.arts))
	for i, a := range b.arts {
		m := []byte(`"` + b.marker + "." + strconv.Itoa(i) + `"`)
		at := bytes.Index(data, m)
		if at < 0 || bytes.LastIndex(data, m) != at {
			return nil, engine.ExecutionError(diag.AdapterError, "encoding the request: artifact %s is not in it once", a.part.Name)
		}
		cuts = append(cuts, cut{at: at + 1, n: len(m) - 2, a: a})
	}
	slices.SortFunc(cuts, func(x, y cut) int { return x.at - y.at })
	body := &requestBody{}
	add := func(s segment) {
		body.segs = append(body.segs, s)
		body.size += s.len()
	}
	prev := 0
	for _, c := range cuts {
		add(segment{json: data[prev:c.at]})
		add(segment{art: c.a})
		prev = c.at + c.n
	}
	add(segment{json: data[prev:]})
	return body, nil
}

// jsonText is s as encoding/json writes it inside a string's quotes. s is valid UTF-8,
// and encoding/json escapes rune by rune, so the text of a string cut at rune boundaries
// is the texts of its pieces.
func jsonText(s []byte) []byte {
	b, _ := json.Marshal(string(s))
	return b[1 : len(b)-1]
}

// openPart opens a media part's file again, through engine.OpenRegular as Render did, and
// checks that it is still the file Render opened (not another put in its place) and has
// the size the body's length counts on.
func openPart(p Part) (*os.File, *engine.Failure) {
	f, err := engine.OpenRegular(p.Path)
	if errors.Is(err, engine.ErrNotRegular) {
		return nil, engine.ExecutionError(diag.AdapterError, "%s %s for %s is no longer a regular file", p.Kind, p.Name, p.Label)
	}
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "reading %s for %s: %v", p.Name, p.Label, unwrapPathError(err))
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, engine.ExecutionError(diag.AdapterError, "reading %s for %s: %v", p.Name, p.Label, unwrapPathError(err))
	}
	if p.file != nil && !os.SameFile(p.file, info) {
		f.Close()
		return nil, changed(p, "is another file now")
	}
	if info.Size() != p.Size {
		f.Close()
		return nil, changed(p, "is %d bytes, not the %d it was", info.Size(), p.Size)
	}
	return f, nil
}

// changed is the failure for a file that changed while its request was built or sent.
func changed(p Part, format string, args ...any) *engine.Failure {
	return engine.ExecutionError(diag.AdapterError, "%s %s for %s changed while the run goes: it %s; the request is abandoned", p.Kind, p.Name, p.Label, fmt.Sprintf(format, args...))
}

// chunkSize is how much of a file an encoder reads at a time: a multiple of 3, so that a
// full read leaves no base64 quantum over for the next.
const chunkSize = 48 << 10

// encoder encodes one artifact's file, chunk by chunk, checking that the file keeps the
// size (and, for text, the length) that the body counts on.
type encoder struct {
	a     *artifact
	f     *os.File
	buf   []byte
	carry int   // bytes at buf's start, read but not yet encoded: a base64 quantum's or a rune's start
	read  int64 // bytes read from the file
	out   []byte
	sent  int64 // bytes of encoding produced
}

func newEncoder(a *artifact, f *os.File) *encoder {
	return &encoder{a: a, f: f, buf: make([]byte, chunkSize)}
}

// next is the encoding of the next piece of the file, and whether it is the last; the
// chunk is valid until the next call.
func (e *encoder) next() (chunk []byte, done bool, fail *engine.Failure) {
	p := e.a.part
	n, err := e.f.Read(e.buf[e.carry:])
	e.read += int64(n)
	if e.read > p.Size {
		return nil, false, changed(p, "grew past %d bytes", p.Size)
	}
	done = err == io.EOF
	if err != nil && !done {
		return nil, false, engine.ExecutionError(diag.AdapterError, "reading %s for %s: %v", p.Name, p.Label, unwrapPathError(err))
	}
	if done && e.read < p.Size {
		return nil, false, changed(p, "ended after %d bytes, not the %d it had", e.read, p.Size)
	}
	data := e.buf[:e.carry+n]
	cut := len(data)
	if !done {
		cut = e.cut(data)
	}
	if e.a.text {
		if !utf8.Valid(data[:cut]) {
			if e.a.length < 0 {
				return nil, false, engine.ExecutionError(diag.AdapterError, "document %s is not UTF-8 text", p.Name)
			}
			return nil, false, changed(p, "is no longer UTF-8 text")
		}
		e.out = append(e.out[:0], jsonText(data[:cut])...)
	} else {
		e.out = base64.StdEncoding.AppendEncode(e.out[:0], data[:cut])
	}
	e.carry = copy(e.buf, data[cut:])
	e.sent += int64(len(e.out))
	if e.a.length >= 0 && (e.sent > e.a.length || done && e.sent != e.a.length) {
		return nil, false, changed(p, "no longer has the text it had (%d bytes of JSON, not %d)", e.sent, e.a.length)
	}
	return e.out, done, nil
}

// cut is how much of data can be encoded before the rest of the file is read: whole base64
// quanta, or whole runes.
func (e *encoder) cut(data []byte) int {
	if !e.a.text {
		return len(data) - len(data)%3
	}
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				return i
			}
			break
		}
	}
	return len(data)
}

// bodyReader reads a body from its start. It opens every file of the body when it is made,
// so that a file gone or changed since the body was built fails the request before it is
// sent, and closes each when its encoding is read. The HTTP client may close the reader
// while another goroutine reads it, hence the lock.
type bodyReader struct {
	mu     sync.Mutex
	b      *requestBody
	files  []*os.File // by segment; nil for literal JSON and once read
	i      int        // the segment being read
	enc    *encoder   // of segment i's file, once its prefix is read
	rest   []byte     // of the current piece, not yet read
	fail   *engine.Failure
	closed bool
}

var errBodyClosed = errors.New("the request body is closed")

func (b *requestBody) open() (*bodyReader, *engine.Failure) {
	r := &bodyReader{b: b, files: make([]*os.File, len(b.segs))}
	for i, s := range b.segs {
		if s.art == nil {
			continue
		}
		f, fail := openPart(s.art.part)
		if fail != nil {
			r.Close()
			return nil, fail
		}
		r.files[i] = f
	}
	return r, nil
}

func (r *bodyReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		switch {
		case r.fail != nil:
			return 0, r.fail
		case r.closed:
			return 0, errBodyClosed
		case len(r.rest) > 0 || len(p) == 0:
			n := copy(p, r.rest)
			r.rest = r.rest[n:]
			return n, nil
		case r.i == len(r.b.segs):
			return 0, io.EOF
		}
		s := r.b.segs[r.i]
		switch {
		case s.art == nil:
			r.rest = s.json
			r.i++
		case r.enc == nil:
			r.enc = newEncoder(s.art, r.files[r.i])
			r.rest = s.art.prefix
		default:
			chunk, done, fail := r.enc.next()
			if fail != nil {
				r.fail = fail
				return 0, fail
			}
			r.rest = chunk
			if done {
				r.files[r.i].Close()
				r.files[r.i], r.enc = nil, nil
				r.i++
			}
		}
	}
}

func (r *bodyReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for i, f := range r.files {
		if f != nil {
			f.Close()
			r.files[i] = nil
		}
	}
	return nil
}

// failure is why the reader stopped short, if a file did it.
func (r *bodyReader) failure() *engine.Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fail
}

// sending is the readers of one attempt at a request: the first, and any the HTTP client
// asks for again (GetBody) to resend the body on a new connection.
type sending struct {
	b       *requestBody
	mu      sync.Mutex
	readers []*bodyReader
	fail    *engine.Failure
}

func (s *sending) reader() (io.ReadCloser, error) {
	if len(s.b.segs) == 1 && s.b.segs[0].art == nil {
		// JSON alone: a reader the HTTP client knows is in memory, so that it writes the
		// headers and the body at once (otherwise BenchmarkOpenAIOverhead's call took some
		// 40 µs more on loopback).
		return io.NopCloser(bytes.NewReader(s.b.segs[0].json)), nil
	}
	r, fail := s.b.open()
	s.mu.Lock()
	defer s.mu.Unlock()
	if fail != nil {
		s.fail = fail
		return nil, fail
	}
	s.readers = append(s.readers, r)
	return r, nil
}

// failure is why a reader of the attempt failed, if one did: the body sent was then not
// the whole body.
func (s *sending) failure() *engine.Failure {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	for _, r := range s.readers {
		if f := r.failure(); f != nil {
			return f
		}
	}
	return nil
}

package provider

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// pdfPages is how many pages the PDF data may have, at most, or why that cannot be told.
// A budget bounds a PDF by its pages (pdfTokens), so the count must not be fooled low: a
// hostile file may lie in its page tree, so the count is the largest of three that a
// reader of the file could arrive at, each over every object it holds:
//   - the page objects (a dictionary's /Type /Page, not /Pages), which a reader repairing
//     a broken file finds by scanning, as this does;
//   - the largest /Count, which the root of the page tree gives for the whole tree;
//   - the references in /Kids arrays, at least one for each page reachable from the root.
//
// The file is read as tokens with no state: strings, comments and stream data are read
// like the rest, which can only add to the counts, and no byte is skipped as inside one,
// since a reader finds objects by their offsets and a hostile file may open a string or a
// comment in stream data before them. What follows a /Type, a /Count or a /Kids is then
// read as a reader reads it (pdfLook): comments are white space, a number may be signed or
// real (the count is rounded up), a reference may be written 3 0R. A /Kids array holding
// anything but references (a comment, a string, a dictionary: what a reader may read a ]
// inside) has every reference to the end of the data counted, and a value given by
// reference (/Count 7 0 R) is not followed: the file has no count.
//
// Names are read with their #xx escapes decoded, so that /P#61ge is /Page. The objects of
// object streams (PDF 1.5's compressed objects) are counted too: every stream that is
// zlib data (FlateDecode) is inflated and read as the file is, within maxInflate bytes
// for the file. A file that names more object streams (/Type /ObjStm) than it has streams
// that inflate to one (another filter, a predictor, a broken stream, past maxInflate) and
// a file with no page found have no count: "" is returned only with one. The work is
// linear in the file and the bytes inflated (pdfLookSteps).
func pdfPages(data []byte) (int, string) {
	s := &pdfScan{left: maxInflate}
	s.scan(data, true)
	return s.result()
}

// result is the page count of what was scanned, or why it has none.
func (s *pdfScan) result() (int, string) {
	switch {
	case s.why != "":
		return 0, s.why
	case s.objStreams > s.read && s.cut:
		return 0, fmt.Sprintf("its streams inflate to more than %d MiB, past which its object streams, and the pages they may hold, are not read", maxInflate>>20)
	case s.objStreams > s.read:
		return 0, fmt.Sprintf("%d of its %d object streams cannot be read (not FlateDecode data, or filtered further)", s.objStreams-s.read, s.objStreams)
	}
	n := max(s.pages, s.count, s.kids)
	if n == 0 {
		return 0, "no page of it can be found"
	}
	return n, ""
}

// maxInflate bounds the inflated bytes a page count reads of one PDF.
const maxInflate = 64 << 20

// pdfScan counts what pdfPages counts, over a file and the streams it inflates.
type pdfScan struct {
	pages, count, kids int
	objStreams         int    // object streams the file names (/Type /ObjStm)
	pendingObjStm      int    // /Type /ObjStm seen since the last stream: that stream's dictionary
	read               int    // inflated streams that read as object streams (objStream)
	left               int64  // bytes that may still be inflated
	cut                bool   // a stream was not inflated whole: left ran out
	why                string // why there is no count: a value by reference, a file too slow to read
	steps              int    // bytes the look-aheads read (pdfLook.steps), over all scanned
}

// pdfToken kinds.
const (
	tokOther = iota // a delimiter, or anything that breaks a sequence
	tokName
	tokInt
	tokWord // a keyword (R, obj, stream, ...) or a number that is not an integer
)

// scan counts the objects of b; top says b is the file, whose streams are inflated, not
// an inflated stream.
func (s *pdfScan) scan(b []byte, top bool) {
	l := &pdfLook{b: b, kidsAt: -1, allFrom: len(b), limit: pdfLookSteps*len(b) + 4096}
	for i := 0; i < len(b); {
		t, next := pdfLex(b, i)
		i = next
		switch {
		case t.kind == tokName && (t.text == "Type" || t.text == "Count" || t.text == "Kids") && s.why == "":
			s.look(l, t.text, i, top)
		case t.kind == tokWord && t.text == "stream" && top:
			// A stream is an object stream when its own dictionary, between it and the
			// stream before, says /Type /ObjStm: only such a stream read as one counts, so
			// that an ordinary content stream (1 0 0 1 0 0 cm reads as two integers) is no
			// decoy for an object stream filtered otherwise.
			objStm := s.pendingObjStm > 0
			s.pendingObjStm = 0
			s.inflate(b[streamStart(b, i):], objStm)
		}
	}
	s.steps += l.steps
}

// look counts the value that follows the name key (Type, Count or Kids) ending at i.
func (s *pdfScan) look(l *pdfLook, key string, i int, top bool) {
	b := l.b
	p := l.skip(i)
	if p >= len(b) {
		return
	}
	switch c := b[p]; {
	case key == "Count":
		n := l.count(p)
		s.count = max(s.count, n)
		if n > 0 && n < 1<<31 && l.ref(p) { // one too long to read counts the most anyway
			s.refuse(key)
		}
	case (pdfDigit(c) || c == '+' || c == '.') && l.ref(p):
		s.refuse(key)
	case key == "Type" && c == '/':
		switch l.name(p) {
		case "Page":
			s.pages++
		case "ObjStm":
			if top {
				s.objStreams++
				s.pendingObjStm++
			}
		}
	case key == "Kids" && c == '[':
		s.kids += l.kids(p)
	}
	if l.steps > l.limit {
		s.why = fmt.Sprintf("it is written so that its page tree's values take more than %d reads a byte to find (comments and white space)", pdfLookSteps)
	}
}

// inflate reads data as zlib data, when it is, and counts what it holds, whole or as far
// as it is not broken. What passes s.left is not read (s.cut).
func (s *pdfScan) inflate(data []byte, objStm bool) {
	if s.left <= 0 || len(data) < 2 || data[0]&0x0f != 8 || (int(data[0])<<8|int(data[1]))%31 != 0 {
		s.cut = s.cut || s.left <= 0
		return
	}
	zr, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, s.left+1))
	if int64(len(out)) > s.left {
		s.cut, s.left = true, 0
		out = out[:0]
	}
	s.left -= int64(len(out))
	if err == nil && objStm && objStream(out) {
		s.read++
	}
	s.scan(out, false)
}

// objStream reports whether inflated data reads as an object stream's: pairs of integers
// (object numbers and offsets) first. One filtered further (a predictor, another filter)
// does not.
func objStream(b []byte) bool {
	a, i := pdfLex(b, 0)
	c, _ := pdfLex(b, i)
	return a.kind == tokInt && c.kind == tokInt
}

// streamStart is where a stream's data begins, after the keyword stream ending at i and
// its end of line.
func streamStart(b []byte, i int) int {
	if i < len(b) && b[i] == '\r' {
		i++
	}
	if i < len(b) && b[i] == '\n' {
		i++
	}
	return i
}

// pdfToken is one token of a PDF's syntax, as far as the count reads it.
type pdfToken struct {
	kind int
	text string // a name, decoded, without its slash; a keyword
	n    int    // an integer, clamped
}

// pdfLex reads the token at b[i:], returning it and where the next one may begin.
func pdfLex(b []byte, i int) (pdfToken, int) {
	for i < len(b) && pdfWhite(b[i]) {
		i++
	}
	if i >= len(b) {
		return pdfToken{}, i
	}
	switch c := b[i]; {
	case c == '/':
		j := i + 1
		for j < len(b) && pdfRegular(b[j]) {
			j++
		}
		return pdfToken{kind: tokName, text: pdfName(b[i+1 : j])}, j
	case !pdfRegular(c):
		return pdfToken{}, i + 1
	}
	j := i
	for j < len(b) && pdfRegular(b[j]) {
		j++
	}
	word := b[i:j]
	if n, ok := pdfInt(word); ok {
		return pdfToken{kind: tokInt, n: n}, j
	}
	if len(word) > 16 {
		word = word[:16] // a keyword is short; a long run of bytes is stream data
	}
	return pdfToken{kind: tokWord, text: string(word)}, j
}

// pdfInt reads an unsigned integer, clamped at 1<<31 (a page count beyond any file).
func pdfInt(w []byte) (int, bool) {
	n := 0
	for _, c := range w {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = min(n*10+int(c-'0'), 1<<31)
	}
	return n, len(w) > 0
}

// pdfName is a name's characters with its #xx escapes decoded.
func pdfName(raw []byte) string {
	if bytes.IndexByte(raw, '#') < 0 {
		return string(raw)
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) && hexVal(raw[i+1]) >= 0 && hexVal(raw[i+2]) >= 0 {
			out = append(out, byte(hexVal(raw[i+1])<<4|hexVal(raw[i+2])))
			i += 2
			continue
		}
		out = append(out, raw[i])
	}
	return string(out)
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// pdfWhite is PDF's white space.
func pdfWhite(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// pdfRegular is a character that is neither white space nor a delimiter.
func pdfRegular(c byte) bool {
	return !pdfWhite(c) && !bytes.ContainsRune([]byte("()<>[]{}/%"), rune(c))
}

// refuse says the value of /key is given by reference: a reader takes it from another
// object, which the scan cannot tell (that object may be in an object stream, or defined
// more than once), so that the file has no count.
func (s *pdfScan) refuse(key string) {
	s.why = fmt.Sprintf("its page tree gives a /%s by reference to another object, which the count does not follow", key)
}

// pdfLookSteps bounds the bytes the look-aheads of a scan may read, per byte of what is
// scanned. Each look-ahead starts where the scan is and reads on, so that a file could
// make them read the same bytes again and again: a comment runs to its end of line, and
// every % in it ends there too, so the last long run of comments and the last long run of
// white space are kept and jumped (pdfLook.skip); a /Kids array is read once, or, when it
// holds what is not a reference, counted to the end of the data once (pdfLook.kids); a
// number or a name is read for pdfLookMax bytes at most. A file written to read its bytes
// more often than this anyway has no count.
const pdfLookSteps = 8

// pdfLookMax bounds the bytes of one number or name a look-ahead reads: past it a /Count
// counts the most (1<<31) and a number where a name is due may be a reference; a name
// longer than /P#61#67#65 is not /Page.
const pdfLookMax = 32

// pdfLook reads a scanned buffer from a given point as a reader of PDF does, where the
// scan itself reads tokens with no state.
type pdfLook struct {
	b       []byte
	cs, ce  int // the last long run of comments read: every % in [cs, ce) is skipped to ce
	ws, we  int // the last long run of white space read: [ws, we)
	kidsAt  int // the [ of the last /Kids array read
	allFrom int // every reference from here to the end of b is counted (pdfLook.refs)
	steps   int // bytes read
	limit   int // steps allowed (pdfLookSteps)
}

// skip is where the token at or after i begins: white space and comments are skipped.
func (l *pdfLook) skip(i int) int {
	b := l.b
	from := -1 // the first % read
	for i < len(b) {
		c := b[i]
		switch {
		case pdfWhite(c) && l.ws <= i && i < l.we:
			i = l.we
		case pdfWhite(c):
			j := i
			for j < len(b) && pdfWhite(b[j]) {
				j++
			}
			if j-i >= pdfLookMax {
				l.ws, l.we = i, j
			}
			l.steps += j - i
			i = j
		case c != '%':
			return l.comments(from, i)
		case l.cs <= i && i < l.ce:
			return l.comments(from, l.ce)
		default:
			if from < 0 {
				from = i
			}
			j := i
			for j < len(b) && b[j] != '\n' && b[j] != '\r' {
				j++
			}
			l.steps += j - i
			i = j
		}
	}
	return l.comments(from, i)
}

// comments keeps [from, to) as the last long run of comments: a comment ends at the first
// end of line after its %, so every % in it, and in the comments after it up to to, is
// skipped to to, whatever the point a look-ahead started from.
func (l *pdfLook) comments(from, to int) int {
	if from >= 0 && to-from >= pdfLookMax {
		l.cs, l.ce = from, to
	}
	return to
}

// number is the end of the number at p (a digit, a sign or a point), read as generously as
// any reader reads one: 3, +3, 3.5, .5, 1e2, and, as pdf.js does, + and line ends before
// the digits. ok is false for one longer than pdfLookMax bytes.
func (l *pdfLook) number(p int) (end int, ok bool) {
	b := l.b
	i := p + 1
	if b[p] == '+' || b[p] == '-' {
		for i < len(b) && (b[i] == '\n' || b[i] == '\r') {
			i++
		}
	}
	for i < len(b) && i-p <= pdfLookMax {
		switch c := b[i]; {
		case pdfDigit(c) || c == '.':
			i++
		case (c == 'e' || c == 'E') && i+1 < len(b) && pdfDigit(b[i+1]):
			i += 2
		case (c == 'e' || c == 'E') && i+2 < len(b) && (b[i+1] == '+' || b[i+1] == '-') && pdfDigit(b[i+2]):
			i += 3
		default:
			l.steps += i - p
			return i, i-p <= pdfLookMax
		}
	}
	l.steps += i - p
	return i, i-p <= pdfLookMax
}

// ref reports whether the number at p begins a reference (N G R), or may: a number too
// long to read.
func (l *pdfLook) ref(p int) bool {
	b := l.b
	e, ok := l.number(p)
	if !ok {
		return true
	}
	q := l.skip(e)
	if q >= len(b) || !(pdfDigit(b[q]) || b[q] == '+' || b[q] == '-' || b[q] == '.') {
		return false
	}
	if e, ok = l.number(q); !ok {
		return true
	}
	r := l.skip(e)
	return r < len(b) && b[r] == 'R' && pdfEndsRef(b, r)
}

// count is the page count a /Count whose value begins at p gives: the number rounded up,
// 0 for none or one not above 0, the most (1<<31) for one too long to read.
func (l *pdfLook) count(p int) int {
	b := l.b
	if b[p] == '-' || !(pdfDigit(b[p]) || b[p] == '+' || b[p] == '.') {
		return 0
	}
	e, ok := l.number(p)
	if !ok {
		return 1 << 31
	}
	v, scale, dot := 0.0, 1.0, false
	i := p
	for ; i < e && b[i] != 'e' && b[i] != 'E'; i++ {
		switch c := b[i]; {
		case c == '.' && dot:
			i = e // a second point ends the number
		case c == '.':
			dot = true
		case pdfDigit(c) && dot:
			scale /= 10
			v += float64(c-'0') * scale
		case pdfDigit(c):
			v = v*10 + float64(c-'0')
		}
	}
	if i < e && b[i] != '.' && v > 0 { // an exponent
		exp, _ := strconv.Atoi(string(b[i+1 : e]))
		v *= math.Pow10(exp)
	}
	return int(min(math.Ceil(v), 1<<31))
}

// kids counts the references of the /Kids array whose [ is at p: each R that ends one, up
// to the ] that closes it. An array that holds anything but numbers and R (a comment, a
// string, a dictionary, an array, a name: where a reader may read a ] that does not
// close it, or an R that ends a reference) has every reference to the end of the data
// counted (refs). An array already counted, or within what is, counts nothing.
func (l *pdfLook) kids(p int) int {
	b := l.b
	if p >= l.allFrom || p == l.kidsAt {
		return 0
	}
	l.kidsAt = p
	n := 0
	for i := p + 1; ; {
		for i < len(b) && pdfWhite(b[i]) {
			i++
			l.steps++
		}
		if i >= len(b) {
			l.allFrom = p
			return n
		}
		switch c := b[i]; {
		case c == ']':
			l.steps++
			return n
		case c == 'R' && pdfEndsRef(b, i):
			n++
			i++
			l.steps++
		case pdfDigit(c) || c == '+' || c == '-' || c == '.':
			e, ok := l.number(i)
			if !ok {
				return n + l.refs(i, p)
			}
			i = e
		default:
			return n + l.refs(i, p)
		}
	}
}

// refs counts, from i to the end of b, every R that a reader may read as ending a
// reference (pdfEndsRef), and returns how many were not counted before (from allFrom on),
// making p the new allFrom.
func (l *pdfLook) refs(i, p int) int {
	n := 0
	if i < l.allFrom {
		l.steps += l.allFrom - i
	}
	for ; i < l.allFrom; i++ {
		if l.b[i] == 'R' && pdfEndsRef(l.b, i) {
			n++
		}
	}
	l.allFrom = min(l.allFrom, p)
	return n
}

// pdfEndsRef reports whether the R at k may end a reference: it stands alone, or after a
// number (3 0R), as every reader's lexer splits a number from what follows it.
func pdfEndsRef(b []byte, k int) bool {
	return (k+1 == len(b) || !pdfRegular(b[k+1])) && (k == 0 || !pdfRegular(b[k-1]) || strings.IndexByte("0123456789.+-", b[k-1]) >= 0)
}

// name is the name at p (its /), decoded, or "" for one longer than pdfLookMax bytes.
func (l *pdfLook) name(p int) string {
	b := l.b
	j := p + 1
	for j < len(b) && j-p <= pdfLookMax && pdfRegular(b[j]) {
		j++
	}
	l.steps += j - p
	if j < len(b) && pdfRegular(b[j]) {
		return ""
	}
	return pdfName(b[p+1 : j])
}

func pdfDigit(c byte) bool { return '0' <= c && c <= '9' }

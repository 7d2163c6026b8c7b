package provider

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
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
// Names are read with their #xx escapes decoded, so that /P#61ge is /Page. The objects of
// object streams (PDF 1.5's compressed objects) are counted too: every stream that is
// zlib data (FlateDecode) is inflated and read as the file is, within maxInflate bytes
// for the file. A file that names more object streams (/Type /ObjStm) than it has streams
// that inflate to one (another filter, a predictor, a broken stream, past maxInflate) and
// a file with no page found have no count: "" is returned only with one. The work is
// linear in the file and the bytes inflated; strings, comments and stream data are read as
// tokens like the rest, which can only add to the counts.
func pdfPages(data []byte) (int, string) {
	s := &pdfScan{left: maxInflate}
	s.scan(data, true)
	switch {
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
	objStreams         int   // object streams the file names (/Type /ObjStm)
	read               int   // inflated streams that read as object streams (objStream)
	left               int64 // bytes that may still be inflated
	cut                bool  // a stream was not inflated whole: left ran out
}

// pdfToken kinds.
const (
	tokOther = iota // a delimiter, or anything that breaks a sequence
	tokName
	tokInt
	tokWord // a keyword (R, obj, stream, ...) or a number that is not an integer
	tokOpen
	tokClose
)

// scan counts the objects of b; top says b is the file, whose streams are inflated, not
// an inflated stream.
func (s *pdfScan) scan(b []byte, top bool) {
	var prev, prev2 pdfToken // the two tokens before
	inKids := 0              // 1: after /Kids; 2: inside its array
	for i := 0; i < len(b); {
		t, next := pdfLex(b, i)
		i = next
		switch {
		case t.kind == tokName && prev.kind == tokName && prev.text == "Type" && t.text == "Page":
			s.pages++
		case t.kind == tokName && prev.kind == tokName && prev.text == "Type" && t.text == "ObjStm" && top:
			s.objStreams++
		case t.kind == tokInt && prev.kind == tokName && prev.text == "Count":
			s.count = max(s.count, t.n)
		case t.kind == tokWord && t.text == "R" && prev.kind == tokInt && prev2.kind == tokInt && inKids == 2:
			s.kids++
		case t.kind == tokWord && t.text == "stream" && top:
			s.inflate(b[streamStart(b, i):])
		}
		switch {
		case t.kind == tokName && t.text == "Kids":
			inKids = 1
		case inKids == 1 && t.kind == tokOpen:
			inKids = 2
		case inKids == 1 || inKids == 2 && t.kind == tokClose:
			inKids = 0
		}
		prev2, prev = prev, t
	}
}

// inflate reads data as zlib data, when it is, and counts what it holds, whole or as far
// as it is not broken. What passes s.left is not read (s.cut).
func (s *pdfScan) inflate(data []byte) {
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
	if err == nil && objStream(out) {
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
	case c == '[':
		return pdfToken{kind: tokOpen}, i + 1
	case c == ']':
		return pdfToken{kind: tokClose}, i + 1
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

package provider

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// fuzzTree is a PDF of n pages written in one of the ways style picks (how its pages'
// /Type, its /Count and its /Kids are spelt, and where junk, any bytes, lies: in a stream
// before or after the page tree, compressed or not, in a comment or a string of the
// tree's root), which a reader reads as n pages whatever junk holds: pdfinfo and mutool
// by its /Count, qpdf by walking its tree (one style's /Count lies low: 1).
func fuzzTree(n int, style uint32, junk []byte) []byte {
	pick := func(count uint32) uint32 { v := style % count; style /= count; return v }
	t := pdfTree{n: n}
	switch pick(4) {
	case 1:
		t.page = hidden
	case 2:
		t.page = func(int) string { return "" } // a page needs no /Type
	case 3:
		t.page = func(int) string { return "/Type/Page" }
	}
	count := fmt.Sprintf([]string{"/Count %d", "/Count %%c\n%d", "/Count +%d", "/Count %d.0", "/Count%%c\r%d", "/Count 1 %%%d\n"}[pick(6)], n)
	kids := pick(6)
	var extra string
	switch pick(4) {
	case 1:
		extra = "%" + string(bytes.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, junk)) + "\n"
	case 2:
		var s strings.Builder
		for _, c := range junk {
			if c == '(' || c == ')' || c == '\\' {
				s.WriteByte('\\')
			}
			s.WriteByte(c)
		}
		extra = "/Junk (" + s.String() + ")"
	}
	t.root = func(refs string) string {
		switch kids {
		case 1:
			refs = "%c\n[" + refs + "]"
		case 2:
			refs = "[" + strings.ReplaceAll(refs, " 0 R", " 0 %x\nR") + "]"
		case 3:
			refs = "[" + strings.ReplaceAll(refs, " 0 R", " 0R") + "]"
		case 4:
			refs = "[+" + strings.ReplaceAll(refs, " 0 R ", " 0 R +") + "]"
		case 5:
			refs = "[" + strings.ReplaceAll(refs, " 0 R", " 0 R %]\n") + "]"
		default:
			refs = "[" + refs + "]"
		}
		return "<< " + extra + " /Type /Pages /Kids " + refs + " " + count + " >>"
	}
	switch pick(4) {
	case 1:
		t.before = []string{streamObject(junk)}
	case 2:
		t.after = []string{streamObject(junk)}
	case 3:
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(junk)
		w.Close()
		t.before = []string{fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes())}
	}
	return t.bytes()
}

// FuzzPDFPages: no data makes the count panic or read more than pdfLookSteps bytes a byte
// (and one look-ahead's), and a PDF whose readers read n pages, written in any of
// fuzzTree's ways with any junk in it, is counted at least n pages, or has no count.
func FuzzPDFPages(f *testing.F) {
	f.Add([]byte("/Kids [ %"), uint8(10), uint32(0))
	f.Add([]byte("/Type /Page /Kids [1 0 R (] /Count %"), uint8(3), uint32(1234))
	f.Add([]byte("/Kids [1 0 R] %/Kids [2 0 R (\n"), uint8(20), uint32(4321))
	f.Add([]byte("stream\n/Count 7 0 R /Type % /Kids <<"), uint8(7), uint32(999))
	f.Add([]byte{}, uint8(1), uint32(2*4*6*6*4+3))
	f.Fuzz(func(t *testing.T, junk []byte, n uint8, style uint32) {
		s := &pdfScan{left: maxInflate}
		s.scan(junk, true)
		if bound := (pdfLookSteps+2)*len(junk) + 4096; s.steps > bound {
			t.Errorf("%q: %d steps, over %d", junk, s.steps, bound)
		}
		pages := 1 + int(n)%40
		data := fuzzTree(pages, style, junk)
		if got, why := pdfPages(data); got < pages && why == "" {
			t.Errorf("style %d, %d pages, junk %q: counted %d\n%s", style, pages, junk, got, data)
		}
	})
}

// pdfJunkWords are what junk is made of in TestPDFPagesJunk: the tokens and the bytes
// that the count reads specially.
var pdfJunkWords = []string{"/Kids", "/Type", "/Page", "/Count", "/ObjStm", "[", "]", "%", "(", ")", "\\", "<", ">", "<<", ">>",
	"\n", "\r", " ", "\x00", "0", "7", "R", "0R", "+", "-", ".", "1e2", "#", "stream", "endstream", "obj", "endobj", "x"}

// pdfJunk is n words of pdfJunkWords.
func pdfJunk(r *rand.Rand, n int) []byte {
	var b bytes.Buffer
	for range n {
		b.WriteString(pdfJunkWords[r.Intn(len(pdfJunkWords))])
	}
	return b.Bytes()
}

// TestPDFPagesJunk: FuzzPDFPages' property over junk made of what the count reads
// specially, which random bytes seldom spell.
func TestPDFPagesJunk(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 3000 {
		junk := pdfJunk(r, 1+r.Intn(40))
		pages := 1 + r.Intn(40)
		style := r.Uint32()
		if got, why := pdfPages(fuzzTree(pages, style, junk)); got < pages && why == "" {
			t.Fatalf("style %d, %d pages, junk %q: counted %d", style, pages, junk, got)
		}
	}
}

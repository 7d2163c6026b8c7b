package provider

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// TestPDFObjectStreamDecoy: pages hidden in an object stream a counter cannot read (hex
// or predictor filtered), beside an ordinary Flate content stream whose data starts with
// two integers (1 0 0 1 0 0 cm), are not counted low: only a stream whose own dictionary
// says /Type /ObjStm counts as an object stream read, so the file is refused a budget
// (a review's 100-page file, read as 100 pages by poppler, mutool and qpdf, counted 1 and
// spent 1,350,300 tokens under --max-tokens 30000). An object stream that is read counts
// its pages.
func TestPDFObjectStreamDecoy(t *testing.T) {
	const n = 100
	for _, c := range []struct {
		name      string
		hexFilter bool
		wantWhy   bool
	}{
		{"hex-filtered object stream, Flate decoy", true, true},
		{"Flate object stream", false, false},
	} {
		data := hiddenPagesPDF(t, n, c.hexFilter)
		pages, why := pdfPages(data)
		switch {
		case c.wantWhy && why == "" && pages < n:
			t.Errorf("%s: counted %d pages, want %d or a refusal", c.name, pages, n)
		case !c.wantWhy && (why != "" || pages < n):
			t.Errorf("%s: counted %d pages (%q), want %d", c.name, pages, why, n)
		}
	}
}

// hiddenPagesPDF is a PDF of n pages whose page tree and pages 2..n are in one object stream
// (hex-filtered, or Flate), page 1 outside it with a Flate content stream.
func hiddenPagesPDF(t *testing.T, n int, hexFilter bool) []byte {
	t.Helper()
	flate := func(b []byte) []byte {
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(b)
		w.Close()
		return z.Bytes()
	}
	var inner []string // objects 2 (the tree) and 5.. (pages 2..n), in the object stream
	kids := []string{"4 0 R"}
	for i := 1; i < n; i++ {
		kids = append(kids, fmt.Sprintf("%d 0 R", 5+i))
	}
	inner = append(inner, fmt.Sprintf("<< /Type /Pages /Count %d /Kids [%s] >>", n, strings.Join(kids, " ")))
	for i := 1; i < n; i++ {
		inner = append(inner, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
	}
	var hdr, body bytes.Buffer
	nums := []int{2}
	for i := 1; i < n; i++ {
		nums = append(nums, 5+i)
	}
	for i, o := range inner {
		fmt.Fprintf(&hdr, "%d %d ", nums[i], body.Len())
		body.WriteString(o + "\n")
	}
	raw := append(hdr.Bytes(), body.Bytes()...)
	stream, filter := flate(raw), "/FlateDecode"
	if hexFilter {
		stream, filter = []byte(hex.EncodeToString(raw)+">"), "/ASCIIHexDecode"
	}
	content := flate([]byte("1 0 0 1 0 0 cm\nBT /F1 8 Tf (page one) Tj ET\n"))
	var out bytes.Buffer
	out.WriteString("%PDF-1.5\n")
	obj := func(num int, s string) { fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", num, s) }
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(4, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R >>")
	obj(5, fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(content), content))
	obj(3, fmt.Sprintf("<< /Type /ObjStm /N %d /First %d /Length %d /Filter %s >>\nstream\n%s\nendstream", len(inner), hdr.Len(), len(stream), filter, stream))
	out.WriteString("trailer\n<< /Root 1 0 R >>\n%%EOF\n")
	return out.Bytes()
}

package provider

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// testPDF is a PDF of n pages whose page tree says it has count (its /Count), with each
// page object written as page writes it (its /Type /Page, spelt as the caller likes).
func testPDF(n, count int, page string) []byte {
	var b strings.Builder
	b.WriteString("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n")
	var kids []string
	for i := range n {
		kids = append(kids, fmt.Sprintf("%d 0 R", i+3))
	}
	fmt.Fprintf(&b, "2 0 obj << /Type /Pages /Kids [%s] /Count %d >> endobj\n", strings.Join(kids, " "), count)
	for i := range n {
		fmt.Fprintf(&b, "%d 0 obj << %s /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n", i+3, page)
	}
	b.WriteString("trailer << /Root 1 0 R >>\n%%EOF\n")
	return []byte(b.String())
}

// objStmPDF is a PDF whose page tree and n pages lie in an object stream, compressed with
// FlateDecode unless raw is given (then the stream's data is raw, as another filter's).
func objStmPDF(n int, raw []byte) []byte {
	var objs strings.Builder
	fmt.Fprintf(&objs, "2 0 << /Type /Pages /Kids [")
	for i := range n {
		fmt.Fprintf(&objs, " %d 0 R", i+3)
	}
	fmt.Fprintf(&objs, "] /Count %d >>", n)
	for range n {
		objs.WriteString(" << /Type /Page /Parent 2 0 R >>")
	}
	data := raw
	if data == nil {
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write([]byte(objs.String()))
		w.Close()
		data = z.Bytes()
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%%PDF-1.5\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n9 0 obj << /Type /ObjStm /N %d /First 10 /Filter /FlateDecode /Length %d >>\nstream\n", n+1, len(data))
	b.Write(data)
	b.WriteString("\nendstream\nendobj\n%%EOF\n")
	return b.Bytes()
}

// TestPDFPages: a PDF's page count is the largest of its page objects, its page tree's
// /Count and its /Kids references, so that a file lying in one of them is not counted
// low; names are read with their escapes decoded; pages in object streams are counted; a
// file whose object streams cannot be read, or with no page, has no count.
func TestPDFPages(t *testing.T) {
	rows := []struct {
		name  string
		data  []byte
		pages int
		why   string
	}{
		{"three pages", testPDF(3, 3, "/Type /Page"), 3, ""},
		{"a /Count lying low", testPDF(12, 1, "/Type /Page"), 12, ""},
		{"a /Count lying high", testPDF(2, 40, "/Type /Page"), 40, ""},
		{"names escaped", testPDF(7, 1, "/T#79pe /P#61ge"), 7, ""},
		{"no white space", testPDF(5, 0, "/Type/Page"), 5, ""},
		{"page objects without /Type: the /Kids", testPDF(9, 1, "/Rotate 0"), 9, ""},
		{"a huge /Count", testPDF(1, 0, "/Type /Page /Count 99999999999999"), 1 << 31, ""},
		{"pages in an object stream", objStmPDF(25, nil), 25, ""},
		{"an object stream of another filter", objStmPDF(25, []byte("J..)6T`?p&<!J9%_[umg\"B7/Z7KNXbN'S+,*Q/&\"OLT'F")), 0, "1 of its 1 object streams cannot be read"},
		{"no page", []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"), 0, "no page of it can be found"},
		{"not a PDF at all", []byte("hello"), 0, "no page of it can be found"},
	}
	for _, r := range rows {
		pages, why := pdfPages(r.data)
		if pages != r.pages || !strings.Contains(why, r.why) || (r.why == "") != (why == "") {
			t.Errorf("%s: %d pages, %q; want %d, %q", r.name, pages, why, r.pages, r.why)
		}
	}
}

// TestEstimatePDFByPages: a request with a PDF is bounded by its pages, each at
// pdfPageTokens (3,000 tokens of text and a page image at its largest), not by its bytes:
// a 1 KiB PDF of 40 pages may cost 40 × 6,840 tokens. A PDF whose pages cannot be counted
// keeps its bytes' bound and says why no bound holds, and a plain-text document keeps
// its bytes' bound.
func TestEstimatePDFByPages(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	task := oaQATask()
	task.Input.Fields = append(task.Input.Fields, ir.Field{Name: "doc", Type: ir.TypeDocument})
	task.System.Parameters = map[string]any{"max_completion_tokens": 64}
	a, _ := oaAdapter(t, Config{BaseURL: "http://127.0.0.1:1/v1"}, task)
	estimate := func(path string) (in int, unbounded string) {
		t.Helper()
		e, err := a.Estimate(map[string]any{"q": "what does it say?", "doc": path})
		if err != nil {
			t.Fatal(err)
		}
		return e.InputTokens, e.Unbounded
	}
	small := testPDF(40, 40, "/Type /Page")
	in, why := estimate(write("forty.pdf", small))
	if in < 40*pdfPageTokens || in > 40*pdfPageTokens+2000 || why != "" {
		t.Errorf("a %d-byte PDF of 40 pages: bound %d tokens, %q; want 40 × %d and the request's text", len(small), in, why, pdfPageTokens)
	}
	in, why = estimate(write("hidden.pdf", objStmPDF(3, []byte("not zlib data"))))
	if in > 3000 || !strings.Contains(why, "document hidden.pdf for doc is a PDF whose pages cannot be counted: 1 of its 1 object streams cannot be read") {
		t.Errorf("a PDF whose pages cannot be counted: bound %d, %q", in, why)
	}
	text := strings.Repeat("plain words ", 100)
	in, why = estimate(write("notes.txt", []byte(text)))
	if in < len(text) || in > len(text)*2 || why != "" {
		t.Errorf("a text document of %d bytes: bound %d, %q", len(text), in, why)
	}
}

package provider

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// pdfFile is a PDF of objs, numbered from 1 in the order given, with the cross-reference
// table a reader locates them by and a trailer whose root is object 1.
func pdfFile(objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// streamObject is a stream object holding data as it is (no filter): a reader skips it by
// its /Length, whatever it holds.
func streamObject(data []byte) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(data), data)
}

// pdfTree is a PDF of n pages in one page tree. Object 1 is the catalog, then come the
// objects of before (numbered from 2), then the tree's root, written by root given its
// kids' references ("4 0 R 5 0 R ..."), then the pages, page(i) for i from 0, each
// naming the root its parent, then the objects of after.
type pdfTree struct {
	n      int
	before []string
	root   func(refs string) string
	page   func(i int) string
	after  []string
}

// rootNum and pageNum are the object numbers of the tree's root and its page i.
func (t pdfTree) rootNum() int       { return 2 + len(t.before) }
func (t pdfTree) pageNum(i int) int  { return t.rootNum() + 1 + i }
func (t pdfTree) afterNum(k int) int { return t.pageNum(t.n) + k }

func (t pdfTree) bytes() []byte {
	root, page := t.root, t.page
	if root == nil {
		root = func(refs string) string { return fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", refs, t.n) }
	}
	if page == nil {
		page = func(int) string { return "/Type /Page" }
	}
	objs := []string{fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", t.rootNum())}
	objs = append(objs, t.before...)
	var refs []string
	for i := range t.n {
		refs = append(refs, fmt.Sprintf("%d 0 R", t.pageNum(i)))
	}
	objs = append(objs, root(strings.Join(refs, " ")))
	for i := range t.n {
		objs = append(objs, fmt.Sprintf("<< %s /Parent %d 0 R /MediaBox [0 0 612 792] >>", page(i), t.rootNum()))
	}
	return pdfFile(append(objs, t.after...)...)
}

// hidden writes a page's /Type /Page with a comment between the two, but for the first.
func hidden(i int) string {
	if i == 0 {
		return "/Type /Page"
	}
	return "/Type %c\n/Page"
}

// pdfEvasions are files of 100 pages, as poppler (pdfinfo), mutool, qpdf and pypdf read
// them, each written to hide its pages from a count that does not read PDF's syntax as
// they do: measure is the count each is written to fool (pages, count or kids: the page
// objects, the largest /Count, the /Kids references), or why for one whose count cannot
// be told (an indirect value).
var pdfEvasions = []struct {
	name    string
	tree    pdfTree
	measure string
	why     string
}{
	{"comments between every name and its value", pdfTree{n: 100, page: hidden,
		root: func(refs string) string { return "<< /Type /Pages /Count %c\n100 /Kids %c\n[" + refs + "] >>" }}, "", ""},
	{"a comment between /Type and /Page", pdfTree{n: 100, page: hidden}, "pages", ""},
	{"comments and line ends between /Type and /Page", pdfTree{n: 100,
		page: func(int) string { return "/Type%a\r%b\r\n  %c\n/Page" }}, "pages", ""},
	{"a comment between /Count and its number", pdfTree{n: 100,
		root: func(refs string) string { return "<< /Type /Pages /Kids [" + refs + "] /Count %c\n100 >>" }}, "count", ""},
	{"/Count +100", pdfTree{n: 100,
		root: func(refs string) string { return "<< /Type /Pages /Kids [" + refs + "] /Count +100 >>" }}, "count", ""},
	{"/Count 100.0", pdfTree{n: 100,
		root: func(refs string) string { return "<< /Type /Pages /Kids [" + refs + "] /Count 100.0 >>" }}, "count", ""},
	{"a comment between /Kids and its array", pdfTree{n: 100,
		root: func(refs string) string { return "<< /Type /Pages /Kids %c\n[" + refs + "] /Count 100 >>" }}, "kids", ""},
	{"comments inside a reference", pdfTree{n: 100,
		root: func(refs string) string {
			return "<< /Type /Pages /Kids [" + strings.ReplaceAll(refs, " 0 R", " 0 %x\nR") + "] /Count 100 >>"
		}}, "kids", ""},
	{"a ] in a comment inside /Kids", pdfTree{n: 100,
		root: func(refs string) string {
			return "<< /Type /Pages /Kids [" + strings.Replace(refs, " 0 R", " 0 R %]\n", 1) + "] /Count 100 >>"
		}}, "kids", ""},
	{"references without a space before R", pdfTree{n: 100,
		root: func(refs string) string {
			return "<< /Type /Pages /Kids [" + strings.ReplaceAll(refs, " 0 R", " 0R") + "] /Count 100 >>"
		}}, "kids", ""},
	{"signed object numbers", pdfTree{n: 100,
		root: func(refs string) string {
			return "<< /Type /Pages /Kids [+" + strings.ReplaceAll(refs, " 0 R ", " 0 R +") + "] /Count 100 >>"
		}}, "kids", ""},
	{"an indirect /Kids", pdfTree{n: 100, page: hidden,
		root:  func(string) string { return "<< /Type /Pages /Kids 103 0 R /Count %c\n100 >>" },
		after: []string{"[" + strings.Join(refsFrom(3, 100), " ") + "]"}}, "", "/Kids"},
	{"an indirect /Count", pdfTree{n: 100, page: hidden,
		root:  func(refs string) string { return "<< /Type /Pages /Kids %c\n[" + refs + "] /Count 103 0 R >>" },
		after: []string{"100"}}, "", "/Count"},
	{"an indirect /Type", pdfTree{n: 100, page: func(int) string { return "/Type 103 0 R" },
		root:  func(refs string) string { return "<< /Type /Pages /Kids %c\n[" + refs + "] /Count %c\n100 >>" },
		after: []string{"/Page"}}, "", "/Type"},
}

// refsFrom is n references to the objects from first on.
func refsFrom(first, n int) []string {
	var refs []string
	for i := range n {
		refs = append(refs, fmt.Sprintf("%d 0 R", first+i))
	}
	return refs
}

// TestPDFPagesEvasions: a PDF written to hide its pages in ways its readers see through
// (comments where white space may be, a signed or real /Count, references spelt
// unusually) is counted at least as many pages as they read, and one whose page tree
// takes a value by reference has no count.
func TestPDFPagesEvasions(t *testing.T) {
	for _, e := range pdfEvasions {
		data := e.tree.bytes()
		s := &pdfScan{left: maxInflate}
		s.scan(data, true)
		got := map[string]int{"pages": s.pages, "count": s.count, "kids": s.kids}
		pages, why := pdfPages(data)
		switch {
		case e.why != "":
			if !strings.Contains(why, e.why) {
				t.Errorf("%s: %d pages, %q; want no count, for its %s", e.name, pages, why, e.why)
			}
		case why != "" || pages < 100:
			t.Errorf("%s: %d pages, %q; want at least 100", e.name, pages, why)
		case e.measure != "" && got[e.measure] < 100:
			t.Errorf("%s: %s counts %d; want at least 100", e.name, e.measure, got[e.measure])
		}
	}
}

// TestPDFLookAhead: the value after /Type, /Count and /Kids is read as a reader of PDF
// reads it, comments being white space, and what cannot be told counts more, never less.
func TestPDFLookAhead(t *testing.T) {
	rows := []struct {
		in                 string
		pages, count, kids int
		why                string
	}{
		{"/Type/Page", 1, 0, 0, ""},
		{"/Type %x\n/Page", 1, 0, 0, ""},
		{"/Type %x\r/Page", 1, 0, 0, ""},
		{"/Type %x /Page", 0, 0, 0, ""},
		{"/Type %x", 0, 0, 0, ""},
		{"/Type /Pages", 0, 0, 0, ""},
		{"/Type /P#61ge", 1, 0, 0, ""},
		{"/Type\x00/Page", 1, 0, 0, ""},
		{"/Type (x) /Page", 0, 0, 0, ""},
		{"/Type /Pa%\nge", 0, 0, 0, ""},
		{"/Type % /Type % /Type %\n/Page", 3, 0, 0, ""},
		{"/Type 7 0 R", 0, 0, 0, "/Type"},
		{"/Type 7 0 %c\nR", 0, 0, 0, "/Type"},
		{"/Type 7 0R", 0, 0, 0, "/Type"},
		{"/Type 7 /Page", 0, 0, 0, ""},
		{"/Type 7 0 Rx", 0, 0, 0, ""},
		{"/Count 12", 0, 12, 0, ""},
		{"/Count 12 /Count 3", 0, 12, 0, ""},
		{"/Count%x\n12", 0, 12, 0, ""},
		{"/Count +12", 0, 12, 0, ""},
		{"/Count 12.0", 0, 12, 0, ""},
		{"/Count 11.2", 0, 12, 0, ""},
		{"/Count .5", 0, 1, 0, ""},
		{"/Count 12.", 0, 12, 0, ""},
		{"/Count 1e2", 0, 100, 0, ""},
		{"/Count +\n12", 0, 12, 0, ""},
		{"/Count 12abc", 0, 12, 0, ""},
		{"/Count -3", 0, 0, 0, ""},
		{"/Count --3", 0, 0, 0, ""},
		{"/Count 0", 0, 0, 0, ""},
		{"/Count x12", 0, 0, 0, ""},
		{"/Count 99999999999999", 0, 1 << 31, 0, ""},
		{"/Count 1e99", 0, 1 << 31, 0, ""},
		{"/Count " + strings.Repeat("0", 100) + "12", 0, 1 << 31, 0, ""},
		{"/Count 12 0 R", 0, 12, 0, "/Count"},
		{"/Count 12 %c\n0 %c\nR", 0, 12, 0, "/Count"},
		{"/Count 12 0 obj", 0, 12, 0, ""},
		{"/Kids [1 0 R 2 0 R]", 0, 0, 2, ""},
		{"/Kids[1 0 R]", 0, 0, 1, ""},
		{"/Kids []", 0, 0, 0, ""},
		{"/Kids %c\n[1 0 R 2 0 R]", 0, 0, 2, ""},
		{"/Kids [1 0 %x\nR 2 0 R]", 0, 0, 2, ""},
		{"/Kids [1 0 R %]\n 2 0 R]", 0, 0, 2, ""},
		{"/Kids [1 0R 2 0R]", 0, 0, 2, ""},
		{"/Kids [+1 0 R]", 0, 0, 1, ""},
		{"/Kids [1 0 R] 2 0 R", 0, 0, 1, ""},
		{"/Kids [1 0 R (]) 2 0 R]", 0, 0, 2, ""},
		{"/Kids [1 0 R <]> 2 0 R]", 0, 0, 2, ""},
		{"/Kids [1 0 R <</A ]>> 2 0 R]", 0, 0, 2, ""},
		{"/Kids [1 0 R [] 2 0 R]", 0, 0, 2, ""},
		{"/Kids [1 0 R 2 0 Rx 3 0 R]", 0, 0, 2, ""},
		{"/Kids [1 0 R", 0, 0, 1, ""},
		{"/Kids [1 0 R] /Kids [1 0 R]", 0, 0, 2, ""},
		{"%/Kids\n%/Kids\n[1 0 R]", 0, 0, 1, ""},
		{"/Kids 5 0 R", 0, 0, 0, "/Kids"},
		{"/Kids %c\n5 0 R", 0, 0, 0, "/Kids"},
		{"/Kids /Foo", 0, 0, 0, ""},
		{"/K#69ds [1 0 R]", 0, 0, 1, ""},
	}
	for _, r := range rows {
		s := &pdfScan{left: maxInflate}
		s.scan([]byte(r.in), true)
		pages, why := pdfPages([]byte(r.in))
		refused := strings.Contains(why, "reference") && strings.Contains(why, r.why)
		if s.pages != r.pages || s.count != r.count || s.kids != r.kids || refused != (r.why != "") {
			t.Errorf("%q: pages %d, count %d, kids %d, %q (%d); want %d, %d, %d, %q", r.in, s.pages, s.count, s.kids, why, pages, r.pages, r.count, r.kids, r.why)
		}
	}
}

// pdfPathological are 8 MiB inputs written to make a look-ahead read the same bytes again
// and again, with the refusal each must end in ("" for a count). The last walks a long
// run of white space after one number from every comment line, with a run of its own in
// between, which no kept run saves: it reads pdfLookSteps bytes a byte and is refused.
var pdfPathological = []struct {
	name string
	data func(size int) []byte
	why  string
}{
	{"/Type % on one line", func(size int) []byte { return fill("/Type % ", size, "\n/Page") }, ""},
	{"/Kids [ without ]", func(size int) []byte { return fill("/Kids [", size, "1 0 R") }, ""},
	{"/Kids [1 0 R % without ]", func(size int) []byte { return fill("/Kids [1 0 R %", size, "") }, ""},
	{"/Count % on one line", func(size int) []byte { return fill("/Count %", size, "\n5") }, ""},
	{"a comment line of /Count each", func(size int) []byte { return fill("%/Count\n", size, "5") }, ""},
	{"then a reference across 1 MiB of white space", func(size int) []byte {
		return append(fill("%/Count\n", size-1<<20, "5"), fill(" ", 1<<20, "0 R")...)
	}, "/Count"},
	{"a comment line of /Kids each", func(size int) []byte { return append(fill("%/Kids\n", size/2, "["), fill("1 0 R ", size/2, "]")...) }, ""},
	{"a comment line of /Kids [ each", func(size int) []byte { return fill("%/Kids [1 0 R\n", size, "") }, ""},
	{"/Type and a long number", func(size int) []byte { return append([]byte("/Type "), fill("1", size, " 0 R")...) }, "/Type"},
	{"/Type and long names", func(size int) []byte { return fill("/Type /Pag", size, "e") }, ""},
	{"/Kids and a long name", func(size int) []byte { return append(fill("/Kids /Kids [", 13*1000, ""), fill("x", size, "")...) }, "no page"},
	{"strings and comments unclosed", func(size int) []byte { return fill("(%/Kids [ (", size, "") }, "no page"},
	{"/Count 1 2 /Count 1 2", func(size int) []byte { return fill("/Count 1 2 ", size, "") }, ""},
	{"comment lines of /Count 7 and white space, then 4 MiB of it", func(size int) []byte {
		return append(fill("%/Count 7"+strings.Repeat(" ", 40)+"\n", size/2, "5"), fill(" ", size/2, "0 x")...)
	}, "reads a byte"},
}

// fill is s repeated to size bytes, then end.
func fill(s string, size int, end string) []byte {
	return append(bytes.Repeat([]byte(s), size/len(s)), end...)
}

// TestPDFPagesLinear: the look-aheads after /Type, /Count and /Kids read each byte of a
// file a few times at most (pdfScan.steps), however it is written to make them read the
// same bytes again and again, and count such a file (or refuse it for what it holds).
func TestPDFPagesLinear(t *testing.T) {
	const size = 8 << 20
	for _, p := range pdfPathological {
		data := p.data(size)
		s := &pdfScan{left: maxInflate}
		s.scan(data, true)
		_, why := s.result()
		bound := 3 * len(data)
		if p.why == "reads a byte" {
			bound = (pdfLookSteps+1)*len(data) + 4096
		}
		if s.steps > bound || !strings.Contains(why, p.why) || p.why == "" && why != "" {
			t.Errorf("%s: %d steps for %d bytes, %q; want at most %d, %q", p.name, s.steps, len(data), why, bound, p.why)
		}
	}
}

// BenchmarkPDFPagesPathological times pdfPages over each of pdfPathological.
func BenchmarkPDFPagesPathological(b *testing.B) {
	for _, p := range pdfPathological {
		data := p.data(8 << 20)
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				pdfPages(data)
			}
		})
	}
}

// TestEstimatePDFByReference: a PDF whose page tree gives its /Kids by reference leaves
// a budget no bound, naming the file, before any request.
func TestEstimatePDFByReference(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tree.pdf")
	var tree pdfTree
	for _, e := range pdfEvasions {
		if e.name == "an indirect /Kids" {
			tree = e.tree
		}
	}
	if err := os.WriteFile(path, tree.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	task := oaQATask()
	task.Input.Fields = append(task.Input.Fields, ir.Field{Name: "doc", Type: ir.TypeDocument})
	a, _ := oaAdapter(t, Config{BaseURL: "http://127.0.0.1:1/v1"}, task)
	e, err := a.Estimate(map[string]any{"q": "how many pages?", "doc": path})
	if err != nil {
		t.Fatal(err)
	}
	if want := "document tree.pdf for doc is a PDF whose pages cannot be counted: its page tree gives a /Kids by reference"; !strings.Contains(e.Unbounded, want) {
		t.Errorf("unbounded %q; want %q", e.Unbounded, want)
	}
}

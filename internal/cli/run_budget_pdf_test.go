package cli_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// pdfOf is a small PDF of n pages (2.3 KiB for 40), each page object plainly written.
func pdfOf(n int) string {
	var b strings.Builder
	b.WriteString("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [")
	for i := range n {
		fmt.Fprintf(&b, " %d 0 R", i+3)
	}
	fmt.Fprintf(&b, "] /Count %d >> endobj\n", n)
	for i := range n {
		fmt.Fprintf(&b, "%d 0 obj << /Type /Page /Parent 2 0 R >> endobj\n", i+3)
	}
	b.WriteString("trailer << /Root 1 0 R >>\n%%EOF\n")
	return b.String()
}

// pdfWorkspace is budgetWorkspace with a document beside each review: doc.pdf for every
// example.
func pdfWorkspace(t *testing.T, pdf string) (dir string, requests func() int32) {
	dir, n := budgetWorkspace(t)
	var rows []string
	for i := range 3 {
		rows = append(rows, fmt.Sprintf(`{"input": {"text": "review %d", "scan": "doc.pdf"}, "expected": {"sentiment": "negative"}}`, i))
	}
	bench := strings.Replace(sentimentModel, "input: {text: string}", "input: {text: string, scan: document}", 1)
	bench = strings.Replace(bench, "parameters: {temperature: 0}", "parameters: {temperature: 0, max_tokens: 10}", 1)
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":     bench,
		"data/reviews.jsonl": strings.Join(rows, "\n") + "\n",
		"data/doc.pdf":       pdf,
	})
	return dir, n.Load
}

// TestRunBudgetBoundsPDFPages: a budget bounds a PDF by its pages, as providers bill it
// (text and an image of each page), not by its bytes: a 2 KiB PDF of 40 pages may cost
// 40 × 6,840 tokens, so a budget of 50,000 tokens starts no request. A PDF whose pages
// cannot be counted refuses the budget before any request, saying why.
func TestRunBudgetBoundsPDFPages(t *testing.T) {
	pdf := pdfOf(40)
	dir, requests := pdfWorkspace(t, pdf)
	bench := filepath.Join(dir, "benchmark.yaml")
	code, _, stderr := runBenchy(t, "run", "--max-tokens", "50000", "-o", filepath.Join(dir, "r.json"), bench)
	if code != 4 || requests() != 0 || !strings.Contains(stderr, "the next request alone may cost more than the whole budget") {
		t.Errorf("a %d-byte PDF of 40 pages under 50,000 tokens: exit %d after %d requests; want 4 before any\n%s", len(pdf), code, requests(), stderr)
	}

	hidden := "%PDF-1.5\n9 0 obj << /Type /ObjStm /N 3 /First 10 /Filter /LZWDecode >>\nstream\nnot zlib data\nendstream\nendobj\n%%EOF\n"
	dir, requests = pdfWorkspace(t, hidden)
	code, _, stderr = runBenchy(t, "run", "--max-tokens", "1000000", "-o", filepath.Join(dir, "r.json"), filepath.Join(dir, "benchmark.yaml"))
	if code != 1 || requests() != 0 || !strings.Contains(stderr, "document doc.pdf for scan is a PDF whose pages cannot be counted") || !strings.Contains(stderr, "run it without a budget") {
		t.Errorf("a PDF whose pages cannot be counted: exit %d after %d requests; want 1 before any\n%s", code, requests(), stderr)
	}
	t.Logf("the refusal:\n%s", stderr)
}

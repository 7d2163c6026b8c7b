package provider

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// pdfPageTokens bounds the input tokens of one page of a PDF, as the providers bill a PDF:
// by its pages, each as the text extracted from it and an image of it, not by its bytes.
//   - Anthropic's "PDF support" guide (docs.claude.com/en/docs/build-with-claude/pdf-support,
//     "Estimate your costs"): the token count of a PDF depends on the text extracted from
//     it and its number of pages; text costs 1,500-3,000 tokens per page depending on
//     content density, and since each page is converted into an image, the image-based
//     cost calculations apply too (at most 100 pages a request, 600 with a 1M-token
//     context window).
//   - OpenAI's "File inputs" guide (developers.openai.com/api/docs/guides/file-inputs): on
//     models with vision, "the API extracts both text and page images and sends both to
//     the model".
//
// So a page is at most pdfPageText tokens of text, the top of Anthropic's range (OpenAI
// gives none), and maxImageTokens, the largest any provider's image rule counts
// (imageTokens: Anthropic's page image is at most 1568 pixels a side, about 1,600 tokens).
// The expected tokens of a page, for an estimate's low end, take pdfPageTextLow.
const (
	pdfPageText    = 3000
	pdfPageTextLow = 1500
	pdfPageTokens  = pdfPageText + maxImageTokens
)

// pdfBounds bounds the PDF documents of body by their pages (pdfPageTokens each) in t, in
// place of one token per byte of their base64 (estimateTokens' rule for documents): a
// provider bills a small PDF of many pages far more than its bytes, a large scan of few
// far less. A PDF whose pages cannot be counted (pdfPages) keeps the byte rule in t and
// makes the reason why no bound holds, which refuses a budget. A document that is no PDF
// (plain text, sent as its text or its bytes) keeps the byte rule, which bounds it.
func (a *modelAdapter) pdfBounds(body *requestBody, t *tokenEstimate) (unbounded string) {
	counts := a.pdf
	if counts == nil { // an adapter not made by NewFactory
		counts = &pdfCounts{}
	}
	for _, s := range body.segs {
		if s.art == nil || s.art.text || s.art.part.Kind != "document" {
			continue
		}
		p := s.art.part
		pages, why, ok := counts.pages(p)
		switch {
		case !ok: // not a PDF, or a file the request will fail to read too
			continue
		case why != "":
			if unbounded == "" {
				unbounded = fmt.Sprintf("document %s for %s is a PDF whose pages cannot be counted: %s", p.Name, p.Label, why)
			}
			continue
		}
		pages = min(pages, engine.MaxBound/pdfPageTokens)
		byBytes := mediaTokens(s.art)
		t.InputBound += pages*pdfPageTokens - byBytes
		t.Expected += pages*(pdfPageTextLow+maxImageTokens) - byBytes
	}
	return unbounded
}

// pdfCounts keeps the page counts of the PDFs a factory's adapters estimated, by file
// version, so that a run reads each once: its check before the first request and its
// dispatch both estimate every example.
type pdfCounts struct {
	mu sync.Mutex
	m  map[pdfKey]pdfCount
}

type pdfKey struct {
	path string
	size int64
	mod  time.Time
}

type pdfCount struct {
	pages int
	why   string
	pdf   bool
}

// pages is part p's page count, or why it has none; ok is false when p is not a PDF (its
// media type is not application/pdf and it does not begin with %PDF-) or cannot be read.
func (c *pdfCounts) pages(p Part) (pages int, why string, ok bool) {
	f, fail := openPart(p)
	if fail != nil {
		return 0, "", false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, "", false
	}
	key := pdfKey{p.Path, info.Size(), info.ModTime()}
	c.mu.Lock()
	n, seen := c.m[key]
	c.mu.Unlock()
	if !seen {
		data, err := io.ReadAll(io.LimitReader(f, p.Size+1))
		if err != nil {
			return 0, "", false
		}
		head := data[:min(len(data), 1024)] // the header may follow other bytes, within the first 1024
		n.pdf = p.MIME == "application/pdf" || bytes.Contains(head, []byte("%PDF-"))
		if n.pdf {
			n.pages, n.why = pdfPages(data)
		}
		c.mu.Lock()
		if c.m == nil {
			c.m = map[pdfKey]pdfCount{}
		}
		c.m[key] = n
		c.mu.Unlock()
	}
	return n.pages, n.why, n.pdf
}

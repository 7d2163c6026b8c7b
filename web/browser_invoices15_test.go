package web_test

// The "done when" of issue 15, as a newcomer would do it: the invoices example
// (assets/examples/invoices, real Tesseract through its invoice-ocr adapter) runs through
// the server; on its results page one click on the imperfect toggle, found by its text,
// shows the imperfect examples (14 of 36 in the issue, as this Tesseract reads them here); a click opens the first, its invoice image drawn
// beside its five fields with the store's marks; j moves to the next one. The same on a
// server that wants a token, where the image comes through a blob: URL.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// invoiceOCR builds the invoices example's adapter (Tesseract, then field parsing) once.
var invoiceOCR = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(suite.dir, "invoice-ocr")
	dir, err := moduleRoot()
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "build", "-o", bin, "./assets/examples/invoices/invoice-ocr")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building invoice-ocr: %v\n%s", err, out)
	}
	return bin, nil
})

// invoicesWorkspace is a copy of the invoices example with a runtime file binding its
// AI-system to the built adapter, as assets/examples/benchy.runtime.yaml binds it.
func invoicesWorkspace(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Skip("the invoices example needs Tesseract (make examples-deps)")
	}
	bin, err := invoiceOCR()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join(root(t), "assets", "examples", "invoices"), filepath.Join(dir, "invoices"))
	runtime := "bindings:\n  invoice-ocr:\n    command: [" + bin + "]\n    timeout: 60s\n    requires: {tesseract: tesseract-ocr tesseract-ocr-eng}\n"
	if err := os.WriteFile(filepath.Join(dir, "benchy.runtime.yaml"), []byte(runtime), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// invoiceFields are the invoices' output fields in declaration order.
var invoiceFields = []string{"invoice_number", "date", "supplier", "subtotal", "total"}

func TestBrowserInvoices15(t *testing.T) {
	requireBrowser(t)
	dir := invoicesWorkspace(t)
	srv := startTokenServer(t, dir, testToken)
	id := tokenRun(t, srv, testToken, "invoices/benchmark.yaml", 3*time.Minute)
	results := tokenResults(t, srv, testToken, id)
	var imperfect []int
	for _, r := range results {
		if r.Contribution < 1 {
			imperfect = append(imperfect, r.Index)
		}
	}
	sum := 0.0
	for _, r := range results {
		sum += r.Contribution
	}
	// The issue counted 14 imperfect invoices; this Tesseract reads more of them right:
	// the page must show what the store holds.
	t.Logf("the invoices run: %d results, %d imperfect, score %.4f", len(results), len(imperfect), sum/float64(len(results)))
	if len(results) != 36 || len(imperfect) == 0 {
		t.Fatalf("the invoices run has %d results, %d imperfect; want 36, some imperfect", len(results), len(imperfect))
	}
	// The same store, without a token and with one.
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	plain := startServer(t, dir)
	newcomer(t, plain, "", id, results, imperfect)
	if err := plain.stop(); err != nil {
		t.Fatal(err)
	}
	srv = startTokenServer(t, dir, testToken)
	newcomer(t, srv, testToken, id, results, imperfect)
}

// newcomer finds the imperfect invoices as a person would and checks what each shows.
func newcomer(t *testing.T, srv *benchyServer, token, id string, results []api.Result, imperfect []int) {
	name := map[bool]string{true: "token", false: "plain"}[token != ""]
	t.Run(name, func(t *testing.T) {
		b := newBrowser(t, 120*time.Second)
		page := srv.URL("/results?run=" + id)
		if token != "" {
			b.ignoreConsole("status of 401") // the first visit, before the tab has the token
			b.useToken(token, page)
		} else {
			b.open(page)
		}
		waitTable(b)
		b.run(chromedp.Click(chromedp.Search(`//label[contains(., "Only imperfect examples")]`), chromedp.NodeVisible))
		poll[bool](b, "the imperfect filter in the URL", `new URL(location.href).searchParams.get("imperfect") === "1"`, 10*time.Second, "location.href")
		rows := waitTable(b)
		if !slices.Equal(rows, imperfect) {
			t.Errorf("the imperfect filter shows %v, want %v", rows, imperfect)
		}
		if got, want := b.text("#match-count"), fmt.Sprintf("%d of 36 examples", len(imperfect)); got != want {
			t.Errorf("the count says %q, want %q", got, want)
		}
		if got, want := b.text("#imperfect-count"), fmt.Sprint(len(imperfect)); got != want {
			t.Errorf("the imperfect toggle counts %q, want %s", got, want)
		}
		// Each wrong field says what it expected and got, under the marks.
		for _, n := range imperfect {
			for _, fs := range results[n].FieldScores {
				if fs.Score == 1 {
					continue
				}
				f := api.DimensionKey(fs.Path)
				sel := fmt.Sprintf(`#results-table tr.result[data-index="%d"] .wrong-value[data-path="%s"]`, n, f)
				shown := func(v string) string { // an empty text shows as ""
					if v == "" {
						return `""`
					}
					return v
				}
				if got, want := b.text(sel), f+": "+shown(field(results[n].Expected, f))+" → "+shown(field(results[n].Prediction, f)); got != want {
					t.Errorf("row %d says %q for its wrong %s, want %q", n, got, f, want)
				}
			}
		}
		if token == "" {
			b.screenshotWidths("invoices15-imperfect", "#match-count", "#imperfect-toggle")
		}
		b.run(chromedp.Click(chromedp.CSS(`#results-table tr.result a.example-link`), chromedp.NodeVisible))
		for k, n := range imperfect[:3] {
			if k > 0 {
				b.run(chromedp.KeyEvent("j"))
			}
			waitExample(b, n)
			checkInvoice(t, b, results[n], token != "")
			if k == 0 && token == "" {
				b.screenshotWidths("invoices15-example", "#example-fields thead th", "#example-fields td.weight", "#example-fields td.mark")
			}
		}
	})
}

// checkInvoice checks that the example view draws the invoice's image beside its five
// fields, in declaration order with the store's marks.
func checkInvoice(t *testing.T, b *browser, r api.Result, blob bool) {
	t.Helper()
	img := `#example-input img.artifact-image`
	width := poll[int](b, fmt.Sprintf("invoice %d's image drawn", r.Index), `(() => { const i = document.querySelector(`+js(img)+`); return i && i.complete && i.naturalWidth; })()`, 15*time.Second,
		`(() => { const i = document.querySelector("#example-input img"); return i ? "img " + i.src + " complete " + i.complete : document.getElementById("example-input").innerText; })()`)
	if width <= 0 {
		t.Errorf("invoice %d's image is not drawn", r.Index)
	}
	if src := eval[string](b, `document.querySelector(`+js(img)+`).src`); strings.HasPrefix(src, "blob:") != blob {
		t.Errorf("invoice %d's image comes from %s; with a token: %v, want a blob: URL then only", r.Index, src, blob)
	}
	// Beside: the image left of the fields, their tops level.
	side := eval[string](b, `(() => {
		const i = document.querySelector(`+js(img)+`).getBoundingClientRect(), f = document.getElementById("example-fields").getBoundingClientRect();
		return (i.right <= f.left) + " " + (Math.abs(i.top - f.top) < 120) + " " + Math.round(i.width) + "x" + Math.round(i.height);
	})()`)
	if !strings.HasPrefix(side, "true true ") {
		t.Errorf("invoice %d's image is not beside its fields: right of image ≤ left of fields, tops level: %s", r.Index, side)
	}
	got := eval[string](b, `[...document.querySelectorAll("#example-fields tr.field-row")].map(r => r.dataset.path + " " + r.querySelector("td.mark").textContent).join(", ")`)
	var want []string
	for _, f := range invoiceFields {
		mark := ""
		for _, fs := range r.FieldScores {
			if api.DimensionKey(fs.Path) == f {
				mark = map[bool]string{true: "✓", false: "✗"}[fs.Score == 1]
			}
		}
		want = append(want, f+" "+mark)
	}
	if got != strings.Join(want, ", ") {
		t.Errorf("invoice %d's fields show %q, want %q", r.Index, got, strings.Join(want, ", "))
	}
}

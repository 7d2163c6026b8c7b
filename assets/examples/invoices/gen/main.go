// Command gen generates the invoices example's dataset: invoice images and their ground truth.
//
// Run it from the module root:
//
//	go run ./assets/examples/invoices/gen
//
// It writes, under assets/examples/invoices/ (or -dir), and nothing else:
//
//	images/clean-NN.png      18 crisp, upright invoices, 1100×1400 pixels (about 100 dpi)
//	images/degraded-NN.png   18 invoices scanned badly: faded ink on grey paper, blurred,
//	                         scaled to 54-64%, rotated by 0.5-2 degrees either way, blurred
//	                         again, with specks of dust and grain
//	data/invoices.jsonl      one row per image, clean-01..18 then degraded-01..18:
//	                         {"input": {"image": "../images/clean-01.png"},
//	                          "expected": {"invoice_number", "date", "supplier", "subtotal", "total"}}
//
// A dataset row is exactly {input, expected} (engine/dataset.go refuses other keys), so the
// difficulty tier is carried by the file name only. Artifact paths are relative to the JSONL file.
//
// Every invoice is made up: a supplier with an address, a customer, an invoice number
// (INV-2026-0413 and a few other common styles), an issue date printed in one of six formats
// (2026-03-14, 14/03/2026 day first, March 14, 2026, 14 March 2026, 14 Mar 2026, Mar 14, 2026;
// the ground truth is always ISO YYYY-MM-DD), sometimes a due date too, two to six line items,
// a subtotal, a tax line and a total, amounts with two decimals, with or without thousands
// separators and a currency sign. Labels vary the way real invoices do ("Invoice No:",
// "Invoice #", "Sub-total", "Amount due", ...). The text is set in the Go fonts (regular,
// bold, mono) of golang.org/x/image. Amounts are computed in cents: the tax is rounded half up,
// the total is subtotal plus tax, and the expected floats are cents/100.
//
// The output is reproducible byte for byte, on any platform: one fixed seed, a random
// generator of our own (splitmix64, so no library can change the stream), every invoice drawn
// from its own seed (invoices added at the end change none before them), glyph outlines read by
// golang.org/x/image/font/sfnt in fixed point and rasterised here in integers, and every image
// operation (contrast, blur, rotation, scaling, noise) in integer arithmetic; no floating
// point reaches a pixel. The same bytes come out of a build with fused multiply-adds
// (GOAMD64=v3) and of GOOS=js GOARCH=wasm under Node. (The PNG bytes also depend on Go's
// compress/flate, which has not changed in years.) No system tool is used. It takes a few
// seconds.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

const (
	seed     = 20260314
	perTier  = 18
	pageW    = 1100 // a clean page, in pixels (about 100 dpi for A4/Letter width)
	pageH    = 1400
	margin   = 70
	paperInk = 0   // ink on a clean page
	paperBg  = 255 // paper on a clean page
)

func main() {
	dir := flag.String("dir", "", "the invoices example directory (default: found from the working directory)")
	flag.Parse()
	if *dir == "" {
		*dir = findDir()
	}
	if err := generate(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// findDir finds the example directory from the module root, the example or gen/.
func findDir() string {
	for _, d := range []string{"assets/examples/invoices", ".", ".."} {
		if _, err := os.Stat(filepath.Join(d, "benchmark.yaml")); err == nil {
			if _, err := os.Stat(filepath.Join(d, "gen", "main.go")); err == nil {
				return d
			}
		}
	}
	fmt.Fprintln(os.Stderr, "gen: run from the module root, or give -dir")
	os.Exit(2)
	return ""
}

// row is one dataset line; field order is the program's.
type row struct {
	Input    map[string]string `json:"input"`
	Expected expected          `json:"expected"`
}

type expected struct {
	InvoiceNumber string  `json:"invoice_number"`
	Date          string  `json:"date"`
	Supplier      string  `json:"supplier"`
	Subtotal      float64 `json:"subtotal"`
	Total         float64 `json:"total"`
}

func generate(dir string) error {
	fonts, err := loadFonts()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return err
	}
	var jsonl bytes.Buffer
	used := map[string]bool{} // suppliers stay distinct across the dataset
	for t, tier := range []string{"clean", "degraded"} {
		for n := 1; n <= perTier; n++ {
			r := newRNG(seed, uint64(t), uint64(n))
			inv := newInvoice(r, used)
			img := render(fonts, inv)
			if tier == "degraded" {
				img = degrade(r, img)
			}
			name := fmt.Sprintf("%s-%02d.png", tier, n)
			if err := writePNG(filepath.Join(dir, "images", name), img); err != nil {
				return err
			}
			enc := json.NewEncoder(&jsonl) // one line each, "&" kept as it is
			enc.SetEscapeHTML(false)
			if err := enc.Encode(row{
				Input: map[string]string{"image": "../images/" + name},
				Expected: expected{
					InvoiceNumber: inv.number,
					Date:          inv.date.Format("2006-01-02"),
					Supplier:      inv.supplier,
					Subtotal:      float64(inv.subtotal()) / 100,
					Total:         float64(inv.total()) / 100,
				},
			}); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(filepath.Join(dir, "data", "invoices.jsonl"), jsonl.Bytes(), 0o644)
}

func writePNG(path string, img image.Image) error {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// --- random numbers --------------------------------------------------------------------------

// rng is splitmix64: tiny, and its stream is fixed here, not by a library.
type rng struct{ s uint64 }

func newRNG(parts ...uint64) *rng {
	r := &rng{}
	for _, p := range parts {
		r.s ^= p
		r.s = r.next()
	}
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn is in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// between is in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// chance is true with probability p/100.
func (r *rng) chance(p int) bool { return r.intn(100) < p }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }

// --- invoices ------------------------------------------------------------------------------

type item struct {
	desc string
	qty  int
	unit int64 // cents
}

type invoice struct {
	supplier       string
	supplierLines  []string // address and registration lines under the name
	customer       string
	customerLines  []string
	number         string
	date           time.Time
	due            time.Time // zero: no due date printed
	dateFormat     int
	items          []item
	taxBP          int // basis points
	currency       string
	thousands      bool
	mono           bool // amounts in Go Mono
	titleBeside    bool // INVOICE on the supplier's row, at the right
	numberLabel    string
	dateLabel      string
	dueLabel       string
	subtotalLabel  string
	taxLabel       string
	totalLabel     string
	footer         []string
	currencySuffix string
}

var (
	supplierFirst = []string{"Northwind", "Blue Harbor", "Kestrel", "Silver Birch", "Redwood", "Granite Peak",
		"Oakridge", "Harbourside", "Bright Lane", "Copperfield", "Fenwick", "Pioneer", "Lakeshore", "Summit",
		"Riverbend", "Whitmore", "Ashford", "Blackwell", "Clearwater", "Evergreen"}
	supplierTrade = []string{"Traders", "Logistics", "Office Supplies", "Consulting", "Print Works", "Catering",
		"Electrical", "Joinery", "Software", "Analytics", "Cleaning Services", "Hardware", "Design Studio",
		"Freight"}
	supplierForm = []string{"Ltd", "Ltd.", "LLC", "Inc.", "& Co.", "plc", "Group"}
	customers    = []string{"Acme Retail Group", "Harper & Lewis LLP", "City of Westford", "Greenfield Primary School",
		"Orion Dental Clinic", "Tallis Architects", "Marlow Hotel", "Fairview Medical Centre", "Beacon Books",
		"Hillcrest Properties", "Juniper Bakery", "Vantage Motors"}
	streets     = []string{"High", "Mill", "Station", "Church", "Park", "Victoria", "Queen", "King", "Bridge", "Market", "Elm", "Cedar"}
	streetKinds = []string{"Street", "Road", "Lane", "Avenue", "Way"}
	cities      = []string{"Leeds LS1 4AP", "Bristol BS1 5TR", "Springfield, IL 62701", "Portland, OR 97205",
		"Manchester M2 3HF", "Austin, TX 78701", "Cardiff CF10 1EP", "Denver, CO 80202", "York YO1 7HH"}
	goods = []struct {
		desc     string
		lo, hi   int64 // unit price range, cents
		qtyRange int
	}{
		{"Printer paper A4 (box of 5)", 2199, 3899, 12},
		{"Consulting hours", 6500, 18500, 40},
		{"Toner cartridge, black", 4500, 12900, 6},
		{"Delivery charge", 995, 4500, 1},
		{"Website hosting (annual)", 12000, 48000, 1},
		{"Ergonomic desk chair", 18900, 62000, 8},
		{"Network cable, 5 m", 450, 1299, 30},
		{"Catering for 12 people", 21000, 54000, 2},
		{"Monthly maintenance", 35000, 120000, 3},
		{"USB-C docking station", 8900, 24900, 10},
		{"Office cleaning (weekly)", 9500, 22000, 4},
		{"Software licence, 1 seat", 4900, 39900, 25},
		{"Site survey", 45000, 180000, 1},
		{"Laptop repair", 7500, 29000, 3},
		{"Pallet storage (per week)", 1200, 3500, 20},
		{"Brochure printing (500)", 16000, 41000, 4},
	}
	numberLabels   = []string{"Invoice No:", "Invoice No.", "Invoice #", "Invoice Number:", "Invoice no:"}
	dateLabels     = []string{"Date:", "Invoice Date:", "Date of issue:", "Issue date:"}
	dueLabels      = []string{"Due date:", "Payment due:", "Due:"}
	subtotalLabels = []string{"Subtotal", "Sub-total", "Subtotal:", "Net amount"}
	totalLabels    = []string{"Total", "TOTAL", "Total due", "Amount due", "Total:"}
	taxRates       = []int{0, 500, 750, 800, 1000, 2000}
	footers        = [][]string{
		{"Payment terms: 30 days. Thank you for your business!"},
		{"Please pay by bank transfer within 14 days.", "Sort code 20-45-77, account 40318275"},
		{"Questions? accounts@example.com", "Late payments may incur interest at 2% per month."},
		{"Thank you!"},
	}
)

func newInvoice(r *rng, used map[string]bool) *invoice {
	inv := &invoice{}
	for {
		inv.supplier = pick(r, supplierFirst) + " " + pick(r, supplierTrade) + " " + pick(r, supplierForm)
		if !used[inv.supplier] {
			used[inv.supplier] = true
			break
		}
	}
	inv.supplierLines = []string{
		fmt.Sprintf("%d %s %s", r.between(1, 240), pick(r, streets), pick(r, streetKinds)),
		pick(r, cities),
	}
	switch r.intn(3) {
	case 0:
		inv.supplierLines = append(inv.supplierLines, fmt.Sprintf("VAT Reg No: GB %03d %04d %02d", r.intn(1000), r.intn(10000), r.intn(100)))
	case 1:
		inv.supplierLines = append(inv.supplierLines, fmt.Sprintf("Tel: +44 %d %03d %04d", r.between(20, 199), r.intn(1000), r.intn(10000)))
	}
	inv.customer = pick(r, customers)
	inv.customerLines = []string{
		fmt.Sprintf("%d %s %s", r.between(1, 240), pick(r, streets), pick(r, streetKinds)),
		pick(r, cities),
	}
	year := 2025 + r.intn(2)
	inv.date = time.Date(year, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.intn(365))
	seq := r.between(1, 9999)
	switch k := r.intn(10); {
	case k < 6:
		inv.number = fmt.Sprintf("INV-%d-%04d", year, seq)
	case k < 8:
		initials := strings.ToUpper(inv.supplier[:1] + strings.Fields(inv.supplier)[1][:1])
		inv.number = fmt.Sprintf("%s-%05d", initials, seq)
	default:
		inv.number = fmt.Sprintf("%d/%04d", year, seq)
	}
	inv.dateFormat = r.intn(6)
	if r.chance(50) {
		inv.due = inv.date.AddDate(0, 0, pick(r, []int{14, 30, 60}))
		inv.dueLabel = pick(r, dueLabels)
	}
	for n := r.between(2, 6); len(inv.items) < n; {
		g := goods[r.intn(len(goods))]
		dup := false
		for _, it := range inv.items {
			dup = dup || it.desc == g.desc
		}
		if dup {
			continue
		}
		inv.items = append(inv.items, item{desc: g.desc, qty: r.between(1, g.qtyRange), unit: g.lo + int64(r.intn(int(g.hi-g.lo+1)))})
	}
	inv.taxBP = pick(r, taxRates)
	switch r.intn(4) {
	case 0:
		inv.currency = "$"
	case 1:
		inv.currency = "£"
	case 2:
		inv.currencySuffix = " USD"
	}
	inv.thousands = r.chance(70)
	inv.mono = r.chance(35)
	inv.titleBeside = r.chance(50)
	inv.numberLabel = pick(r, numberLabels)
	inv.dateLabel = pick(r, dateLabels)
	inv.subtotalLabel = pick(r, subtotalLabels)
	inv.totalLabel = pick(r, totalLabels)
	rate := fmt.Sprintf("%d", inv.taxBP/100)
	if inv.taxBP%100 != 0 {
		rate = fmt.Sprintf("%d.%d", inv.taxBP/100, inv.taxBP%100/10)
	}
	inv.taxLabel = pick(r, []string{"Tax (" + rate + "%)", "VAT " + rate + "%", "Sales tax " + rate + "%"})
	inv.footer = pick(r, footers)
	return inv
}

func (inv *invoice) subtotal() int64 {
	var s int64
	for _, it := range inv.items {
		s += int64(it.qty) * it.unit
	}
	return s
}

// tax is rounded half up to the cent.
func (inv *invoice) tax() int64 { return (inv.subtotal()*int64(inv.taxBP) + 5000) / 10000 }

func (inv *invoice) total() int64 { return inv.subtotal() + inv.tax() }

// money prints an amount the invoice's way: 1,234.50, 1234.50, $1,234.50, 1,234.50 USD.
func (inv *invoice) money(cents int64) string {
	return inv.currency + amount(cents, inv.thousands) + inv.currencySuffix
}

func amount(cents int64, thousands bool) string {
	whole := fmt.Sprintf("%d", cents/100)
	if thousands {
		for i := len(whole) - 3; i > 0; i -= 3 {
			whole = whole[:i] + "," + whole[i:]
		}
	}
	return fmt.Sprintf("%s.%02d", whole, cents%100)
}

// printDate prints a date in one of six common formats.
func printDate(t time.Time, format int) string {
	return t.Format([]string{"2006-01-02", "02/01/2006", "January 2, 2006", "2 January 2006", "2 Jan 2006", "Jan 2, 2006"}[format])
}

// --- rendering -----------------------------------------------------------------------------

// The glyph outlines come from the Go fonts through golang.org/x/image/font/sfnt, in
// integer 26.6 fixed point. They are rasterised here, in integer arithmetic too, rather than by
// golang.org/x/image/vector, whose float32 curve flattening may round differently where the
// compiler fuses multiply-adds (arm64, amd64 v3): the images are then the same bytes on every
// platform.

type fontSet struct {
	regular, bold, mono *sfnt.Font
}

func loadFonts() (*fontSet, error) {
	var fs fontSet
	for _, f := range []struct {
		into **sfnt.Font
		ttf  []byte
	}{{&fs.regular, goregular.TTF}, {&fs.bold, gobold.TTF}, {&fs.mono, gomono.TTF}} {
		parsed, err := opentype.Parse(f.ttf)
		if err != nil {
			return nil, err
		}
		*f.into = parsed
	}
	return &fs, nil
}

// typeface is a font at a size in pixels, with its rasterised glyphs.
type typeface struct {
	font   *sfnt.Font
	ppem   fixed.Int26_6
	buf    sfnt.Buffer
	glyphs map[rune]*glyph
}

// glyph is a rasterised glyph: coverage (0-255) over a rectangle relative to the pen on the
// baseline, and how far it moves the pen.
type glyph struct {
	index   sfnt.GlyphIndex
	rect    image.Rectangle
	cover   []uint8
	advance fixed.Int26_6
}

func face(f *sfnt.Font, px int) *typeface {
	return &typeface{font: f, ppem: fixed.I(px), glyphs: map[rune]*glyph{}}
}

func (tf *typeface) glyph(r rune) *glyph {
	if g, ok := tf.glyphs[r]; ok {
		return g
	}
	g := &glyph{}
	idx, err := tf.font.GlyphIndex(&tf.buf, r)
	if err == nil {
		g.index = idx
	}
	if g.advance, err = tf.font.GlyphAdvance(&tf.buf, g.index, tf.ppem, font.HintingFull); err != nil {
		panic(err) // the Go fonts have every glyph the generator prints
	}
	segs, err := tf.font.LoadGlyph(&tf.buf, g.index, tf.ppem, nil)
	if err != nil {
		panic(err)
	}
	g.rect, g.cover = rasterise(segs)
	tf.glyphs[r] = g
	return g
}

// kern is the kerning between two glyphs, whole pixels.
func (tf *typeface) kern(a, b *glyph) fixed.Int26_6 {
	k, err := tf.font.Kern(&tf.buf, a.index, b.index, tf.ppem, font.HintingFull)
	if err != nil {
		return 0
	}
	return k
}

// measure is the advance of s in pixels.
func (tf *typeface) measure(s string) int {
	var x fixed.Int26_6
	var prev *glyph
	for _, r := range s {
		g := tf.glyph(r)
		if prev != nil {
			x += tf.kern(prev, g)
		}
		x += g.advance
		prev = g
	}
	return x.Round()
}

// ss is the supersampling of the rasteriser: ss×ss samples per pixel.
const ss = 8

type point struct{ x, y int } // 26.6 fixed point

// rasterise fills a glyph outline (non-zero winding) with ss×ss samples per pixel. Curves are
// cut into straight lines in integer arithmetic.
func rasterise(segs sfnt.Segments) (image.Rectangle, []uint8) {
	var edges [][2]point
	var start, pen point
	p := func(q fixed.Point26_6) point { return point{int(q.X), int(q.Y)} }
	lineTo := func(q point) {
		if q.y != pen.y {
			edges = append(edges, [2]point{pen, q})
		}
		pen = q
	}
	for _, sg := range segs {
		switch sg.Op {
		case sfnt.SegmentOpMoveTo:
			lineTo(start) // close the previous contour
			start, pen = p(sg.Args[0]), p(sg.Args[0])
		case sfnt.SegmentOpLineTo:
			lineTo(p(sg.Args[0]))
		case sfnt.SegmentOpQuadTo:
			a, b, c := pen, p(sg.Args[0]), p(sg.Args[1])
			dev := abs(a.x-2*b.x+c.x) + abs(a.y-2*b.y+c.y) // 26.6
			n := min(16, 1+dev/24)
			for i := 1; i <= n; i++ {
				u, v := n-i, i
				lineTo(point{
					divRound(a.x*u*u+2*b.x*u*v+c.x*v*v, n*n),
					divRound(a.y*u*u+2*b.y*u*v+c.y*v*v, n*n),
				})
			}
		case sfnt.SegmentOpCubeTo: // not in TrueType fonts; a straight line is enough here
			lineTo(p(sg.Args[2]))
		}
	}
	lineTo(start)
	if len(edges) == 0 {
		return image.Rectangle{}, nil
	}
	minX, minY, maxX, maxY := edges[0][0].x, edges[0][0].y, edges[0][0].x, edges[0][0].y
	for _, e := range edges {
		for _, q := range e {
			minX, maxX = min(minX, q.x), max(maxX, q.x)
			minY, maxY = min(minY, q.y), max(maxY, q.y)
		}
	}
	rect := image.Rect(floorDiv(minX, 64), floorDiv(minY, 64), floorDiv(maxX+63, 64), floorDiv(maxY+63, 64))
	w := rect.Dx()
	count := make([]int, w*rect.Dy())
	type crossing struct{ x, dir int }
	var xs []crossing
	for sy := 0; sy < rect.Dy()*ss; sy++ {
		// The sample row's centre, in 26.6 times 2*ss to stay whole.
		y2 := (rect.Min.Y*ss+sy)*128 + 64
		xs = xs[:0]
		for _, e := range edges {
			a, b, dir := e[0], e[1], 1
			if a.y > b.y {
				a, b, dir = b, a, -1
			}
			if y2 < a.y*2*ss || y2 >= b.y*2*ss {
				continue
			}
			// x where the edge crosses the row, in 26.6 times 2*ss.
			x2 := a.x*2*ss + floorDiv((y2-a.y*2*ss)*(b.x-a.x), b.y-a.y)
			xs = append(xs, crossing{x2, dir})
		}
		sortCrossings(xs, func(i, j int) bool { return xs[i].x < xs[j].x })
		wind := 0
		for i := 0; i+1 < len(xs); i++ {
			wind += xs[i].dir
			if wind == 0 {
				continue
			}
			// Samples whose centre is in [xs[i].x, xs[i+1].x).
			for sx := ceilDiv(xs[i].x-64, 128); sx*128+64 < xs[i+1].x; sx++ {
				px := floorDiv(sx, ss) - rect.Min.X
				if px >= 0 && px < w {
					count[(sy/ss)*w+px]++
				}
			}
		}
	}
	cover := make([]uint8, len(count))
	for i, c := range count {
		cover[i] = uint8((min(c, ss*ss)*255 + ss*ss/2) / (ss * ss))
	}
	return rect, cover
}

// sortCrossings is an insertion sort: a row crosses a few edges, and the order of equal
// crossings does not change the fill.
func sortCrossings[T any](xs []T, less func(i, j int) bool) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && less(j, j-1); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int) int { return -floorDiv(-a, b) }

func divRound(a, b int) int { return floorDiv(2*a+b, 2*b) }

type page struct{ img *image.Gray }

// text draws s with its baseline at y, starting at x, in ink over the page.
func (p page) text(tf *typeface, x, y int, s string) {
	pen := fixed.I(x)
	var prev *glyph
	for _, r := range s {
		g := tf.glyph(r)
		if prev != nil {
			pen += tf.kern(prev, g)
		}
		ox := pen.Round()
		for gy := 0; gy < g.rect.Dy(); gy++ {
			for gx := 0; gx < g.rect.Dx(); gx++ {
				c := int(g.cover[gy*g.rect.Dx()+gx])
				px, py := ox+g.rect.Min.X+gx, y+g.rect.Min.Y+gy
				if c == 0 || !(image.Point{px, py}.In(p.img.Rect)) {
					continue
				}
				i := p.img.PixOffset(px, py)
				v := int(p.img.Pix[i])
				p.img.Pix[i] = uint8((v*(255-c) + paperInk*c + 127) / 255)
			}
		}
		pen += g.advance
		prev = g
	}
}

// right draws s ending at x.
func (p page) right(tf *typeface, x, y int, s string) {
	p.text(tf, x-tf.measure(s), y, s)
}

func (p page) rule(x0, x1, y, thick int) {
	draw.Draw(p.img, image.Rect(x0, y, x1, y+thick), image.NewUniform(color.Gray{paperInk}), image.Point{}, draw.Src)
}

func render(fs *fontSet, inv *invoice) *image.Gray {
	p := page{image.NewGray(image.Rect(0, 0, pageW, pageH))}
	draw.Draw(p.img, p.img.Bounds(), image.NewUniform(color.Gray{paperBg}), image.Point{}, draw.Src)
	name, title, body, bold := face(fs.bold, 40), face(fs.bold, 50), face(fs.regular, 23), face(fs.bold, 23)
	money, moneyBold := body, bold
	if inv.mono {
		money, moneyBold = face(fs.mono, 22), face(fs.mono, 22)
	}
	right := pageW - margin

	y := 110
	p.text(name, margin, y, inv.supplier)
	if inv.titleBeside {
		p.right(title, right, y, "INVOICE")
	}
	y += 42
	for _, l := range inv.supplierLines {
		p.text(body, margin, y, l)
		y += 32
	}
	if !inv.titleBeside {
		y += 30
		p.text(title, margin, y+20, "INVOICE")
		y += 40
	}

	// Bill-to on the left, the invoice's particulars on the right.
	y += 50
	meta := [][2]string{{inv.numberLabel, inv.number}, {inv.dateLabel, printDate(inv.date, inv.dateFormat)}}
	if !inv.due.IsZero() {
		meta = append(meta, [2]string{inv.dueLabel, printDate(inv.due, inv.dateFormat)})
	}
	left := append([]string{"Bill to:", inv.customer}, inv.customerLines...)
	metaX := pageW/2 + 90
	for i := 0; i < max(len(left), len(meta)); i++ {
		if i < len(left) {
			f := body
			if i == 0 {
				f = bold
			}
			p.text(f, margin, y, left[i])
		}
		if i < len(meta) {
			p.text(bold, metaX, y, meta[i][0])
			p.text(body, metaX+bold.measure(meta[i][0])+12, y, meta[i][1])
		}
		y += 34
	}

	// Line items.
	y += 40
	colQty, colUnit := 640, 840
	p.rule(margin, right, y-32, 2)
	p.text(bold, margin, y, "Description")
	p.right(bold, colQty, y, "Qty")
	p.right(bold, colUnit, y, "Unit price")
	p.right(bold, right, y, "Amount")
	p.rule(margin, right, y+12, 2)
	y += 50
	for _, it := range inv.items {
		p.text(body, margin, y, it.desc)
		p.right(money, colQty, y, fmt.Sprintf("%d", it.qty))
		p.right(money, colUnit, y, amount(it.unit, inv.thousands))
		p.right(money, right, y, amount(int64(it.qty)*it.unit, inv.thousands))
		y += 36
	}
	p.rule(margin, right, y-18, 1)

	// Totals.
	y += 30
	labelX := 620
	for i, l := range [][2]string{
		{inv.subtotalLabel, inv.money(inv.subtotal())},
		{inv.taxLabel, inv.money(inv.tax())},
		{inv.totalLabel, inv.money(inv.total())},
	} {
		lf, vf := body, money
		if i == 2 {
			lf, vf = bold, moneyBold
			p.rule(labelX, right, y-30, 2)
		}
		p.text(lf, labelX, y, l[0])
		p.right(vf, right, y, l[1])
		y += 38
	}

	y = pageH - 60 - 32*len(inv.footer)
	for _, l := range inv.footer {
		p.text(body, margin, y, l)
		y += 32
	}
	return p.img
}

// --- degradation ---------------------------------------------------------------------------

// degrade makes a bad scan of a clean page: greyish paper and faded ink, a slight blur,
// scaled to 54-64%, rotated by 0.5-2 degrees either way, blurred again, speckled and noisy.
// Integer arithmetic only, so the bytes are the same on every platform.
func degrade(r *rng, src *image.Gray) *image.Gray {
	ink, bg := r.between(35, 70), r.between(218, 236)
	img := image.NewGray(src.Bounds())
	for i, v := range src.Pix {
		img.Pix[i] = uint8(ink + (bg-ink)*int(v)/255)
	}
	img = blur(img, []int{1, 4, 6, 4, 1})

	scale := r.between(54, 64)                      // percent
	angle := r.between(50, 200) * (2*r.intn(2) - 1) // hundredths of a degree
	// Fixed-point 16.16 steps in the source per destination pixel.
	cosS := (icos(angle)*6553600/int64(scale) + 1<<29) >> 30
	sinS := (isin(angle)*6553600/int64(scale) + 1<<29) >> 30
	sw, sh := src.Bounds().Dx(), src.Bounds().Dy()
	dw, dh := sw*scale/100, sh*scale/100
	dst := image.NewGray(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			// Destination pixel centre relative to the centre, in half pixels.
			dx, dy := int64(2*x+1-dw), int64(2*y+1-dh)
			sx := (cosS*dx-sinS*dy)>>1 + int64(sw)<<15 - 1<<15
			sy := (sinS*dx+cosS*dy)>>1 + int64(sh)<<15 - 1<<15
			dst.Pix[y*dst.Stride+x] = bilinear(img, sx, sy, uint8(bg))
		}
	}
	dst = blur(dst, []int{1, 2, 1})
	for i := range dst.Pix {
		n := r.next()
		v := int(dst.Pix[i])
		if n%1000 < 3 { // a speck of dust
			v = v * int(20+n>>10%50) / 100
		} else if n%1000 < 43 { // grain on about 4% of the pixels
			v += int(n>>20%21) - 10
		}
		dst.Pix[i] = uint8(min(255, max(0, v)))
	}
	return dst
}

// bilinear samples img at a 16.16 fixed-point position (pixel centres at integers).
func bilinear(img *image.Gray, sx, sy int64, outside uint8) uint8 {
	x0, y0 := int(sx>>16), int(sy>>16)
	fx, fy := sx&0xffff, sy&0xffff
	at := func(x, y int) int64 {
		if x < 0 || y < 0 || x >= img.Rect.Dx() || y >= img.Rect.Dy() {
			return int64(outside)
		}
		return int64(img.Pix[y*img.Stride+x])
	}
	top := at(x0, y0)*(0x10000-fx) + at(x0+1, y0)*fx
	bottom := at(x0, y0+1)*(0x10000-fx) + at(x0+1, y0+1)*fx
	return uint8((top*(0x10000-fy) + bottom*fy + 1<<31) >> 32)
}

// radians is a·π/18000 scaled by 2^30 (π·2^30 = 3373259426), rounded half away from zero.
func radians(a int) int64 {
	x := int64(a) * 3373259426
	if x < 0 {
		return -((-x + 9000) / 18000)
	}
	return (x + 9000) / 18000
}

// isin and icos are the sine and cosine of an angle in hundredths of a degree (a few
// degrees at most), scaled by 2^30: Taylor series in integers, exact to about 2^-30 there.
func isin(a int) int64 {
	x := radians(a)
	x3 := x * x >> 30 * x >> 30
	x5 := x3 * x >> 30 * x >> 30
	return x - x3/6 + x5/120
}

func icos(a int) int64 {
	x := radians(a)
	x2 := x * x >> 30
	x4 := x2 * x2 >> 30
	return 1<<30 - x2/2 + x4/24
}

// blur convolves with a separable integer kernel, edges clamped.
func blur(src *image.Gray, k []int) *image.Gray {
	sum := 0
	for _, w := range k {
		sum += w
	}
	w, h, half := src.Rect.Dx(), src.Rect.Dy(), len(k)/2
	pass := func(in *image.Gray, dx, dy int) *image.Gray {
		out := image.NewGray(in.Rect)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				acc := 0
				for i, kw := range k {
					xx := min(w-1, max(0, x+(i-half)*dx))
					yy := min(h-1, max(0, y+(i-half)*dy))
					acc += kw * int(in.Pix[yy*in.Stride+xx])
				}
				out.Pix[y*out.Stride+x] = uint8((acc + sum/2) / sum)
			}
		}
		return out
	}
	return pass(pass(src, 1, 0), 0, 1)
}

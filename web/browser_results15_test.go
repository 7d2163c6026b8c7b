package web_test

// Browser tests of the results explorer (issue 15): the example view draws an image and
// loads an audio clip the server serves, j/k move through the filtered examples, filters
// narrow the table to what a count over the run's results says, the confusion matrix
// counts what the store holds and a click on a cell filters, and a run whose every example
// is an execution error says so in a red banner. The runs are real: `benchy serve` runs a
// stand-in adapter process (testdata/media-adapter) on media files made here.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/benchy-eval/benchy/api"
)

var mediaAdapter = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(suite.dir, "media-adapter")
	cmd := exec.Command("go", "build", "-o", bin, "./web/testdata/media-adapter")
	dir, err := moduleRoot()
	if err != nil {
		return "", err
	}
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the media adapter: %v\n%s", err, out)
	}
	return bin, nil
})

// mediaKinds are the enum of the media benchmark's kind.
var mediaKinds = []string{"cat", "dog", "bird"}

// mediaRows is how many examples the media benchmark has.
const mediaRows = 30

// mediaNote is what example i asks the adapter for: a wrong kind every fifth, a wrong
// count some others, an execution error at 13, an invalid output at 22.
func mediaNote(i int) string {
	kind, count := mediaKinds[i%3], i%4
	pk, pc := kind, count
	if i%5 == 0 {
		pk = mediaKinds[(i+1)%3]
	}
	if i%7 == 3 {
		pc = count + 1
	}
	switch i {
	case 13:
		return "fail: the camera is offline"
	case 22:
		return "ramble"
	}
	return fmt.Sprintf("kind=%s count=%d\nrow %d shows %d %s.\n    an indented line, kept as written", pk, pc, i, count, kind)
}

const mediaBenchmark = `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: extract
  domain: general
  language: en
program:
  input:
    photo: image
    clip: audio
    note: string
    doc: document
  output:
    kind:
      enum: [cat, dog, bird]
    count: int
scoring:
  weights:
    kind: 2
    count: 1
  aggregator: weighted_mean
data:
  path: ./%s.jsonl
ai-system:
  type: external
  id: %s
`

// mediaWorkspace makes a workspace with media.yaml (mediaRows examples with an image, an
// audio clip, a text and a document each) and down.yaml (every example fails as a
// system that cannot be reached would), both bound to the media adapter.
func mediaWorkspace(t *testing.T) string {
	t.Helper()
	bin, err := mediaAdapter()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
	}
	exe, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	write("media-adapter", exe, 0o755)
	write("benchy.runtime.yaml", []byte("bindings:\n  media-v1:\n    command: [./media-adapter]\n    timeout: 10s\n  down-v1:\n    command: [./media-adapter]\n    timeout: 10s\n"), 0o644)
	write("media.yaml", []byte(fmt.Sprintf(mediaBenchmark, "media", "media-v1")), 0o644)
	write("down.yaml", []byte(fmt.Sprintf(mediaBenchmark, "down", "down-v1")), 0o644)
	for i, size := range [][2]int{{64, 48}, {80, 60}, {96, 72}} {
		write(fmt.Sprintf("media/p%d.png", i), testPNG(size[0], size[1]), 0o644)
	}
	write("media/beep.wav", testWAV(), 0o644)
	write("media/spec.pdf", []byte("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"), 0o644)
	row := func(i int, note string) []byte {
		line, _ := json.Marshal(map[string]any{
			"input":    map[string]any{"photo": fmt.Sprintf("media/p%d.png", i%3), "clip": "media/beep.wav", "note": note, "doc": "media/spec.pdf"},
			"expected": json.RawMessage(fmt.Sprintf(`{"count": %d, "kind": %q}`, i%4, mediaKinds[i%3])), // keys not in declaration order
		})
		return append(line, '\n')
	}
	var media, down bytes.Buffer
	for i := 0; i < mediaRows; i++ {
		media.Write(row(i, mediaNote(i)))
	}
	for i := 0; i < 6; i++ {
		down.Write(row(i, "fail: cannot reach http://127.0.0.1:9 — is the server running?"))
	}
	write("media.jsonl", media.Bytes(), 0o644)
	write("down.jsonl", down.Bytes(), 0o644)
	return dir
}

// testPNG is a w×h PNG of two colours.
func testPNG(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{40, 110, 180, 255}
			if x > w/2 {
				c = color.RGBA{230, 160, 40, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// testWAV is a quarter second of a 440 Hz tone: 8 kHz, mono, 16-bit PCM.
func testWAV() []byte {
	const rate, n = 8000, 2000
	var data bytes.Buffer
	for i := 0; i < n; i++ {
		binary.Write(&data, binary.LittleEndian, int16(8000*math.Sin(2*math.Pi*440*float64(i)/rate)))
	}
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+data.Len()))
	b.WriteString("WAVEfmt ")
	// fmt chunk: its size, PCM, one channel, the rate, bytes a second, bytes a frame, bits.
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(rate * 2), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(data.Len()))
	b.Write(data.Bytes())
	return b.Bytes()
}

// mediaRun starts a run of benchmark on srv and waits until it completed.
func mediaRun(t *testing.T, srv *benchyServer, benchmark string) string {
	t.Helper()
	var started struct {
		ID string `json:"id"`
	}
	srv.postJSON(t, "/api/runs", `{"benchmark": `+js(benchmark)+`}`, &started)
	waitRun(t, srv, started.ID)
	return started.ID
}

// allResults reads every result of run id from the API, unfiltered: what the page's
// filters are checked against.
func allResults(t *testing.T, srv *benchyServer, id string) []api.Result {
	t.Helper()
	var out []api.Result
	after := -1
	for {
		q := url.Values{"limit": {"100"}}
		if after >= 0 {
			q.Set("after", strconv.Itoa(after))
		}
		var pg api.ResultPage
		srv.getJSON(t, api.ResultsPath(id, q), &pg)
		out = append(out, pg.Results...)
		if pg.Next < 0 {
			return out
		}
		after = pg.Next
	}
}

// field is the JSON text of a result's value at key, "" when it is not there.
func field(raw json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[key], &s) == nil {
		return s
	}
	return string(m[key])
}

// pageExample is the example the page's URL opens, -1 for none.
func pageExample(b *browser) int {
	s := eval[string](b, `new URL(location.href).searchParams.get("example") || "-1"`)
	n, _ := strconv.Atoi(s)
	return n
}

// waitExample waits until the example view shows example n, answered.
func waitExample(b *browser, n int) {
	b.t.Helper()
	poll[bool](b, fmt.Sprintf("example %d shown", n), fmt.Sprintf(`(() => {
		const v = document.getElementById("example-view");
		return v !== null && v.dataset.index === "%d" && v.dataset.ready === "1";
	})()`, n), 10*time.Second, `(() => { const v = document.getElementById("example-view"); return v ? "example-view " + v.dataset.index + " ready " + v.dataset.ready + " at " + location.href + ": " + document.getElementById("example-next").outerHTML : "no example view"; })()`)
}

// waitTable waits until the table shows what the page's URL asks for and returns the
// indexes of its rows.
func waitTable(b *browser) []int {
	b.t.Helper()
	poll[bool](b, "the results table", `(() => {
		const p = document.getElementById("results-page");
		return p && p.dataset.ready === "1" && !document.getElementById("searching") &&
			(document.getElementById("results-table") || document.getElementById("no-results")) !== null;
	})()`, 15*time.Second, `document.getElementById("examples") ? document.getElementById("examples").innerText.slice(0, 400) : "no #examples"`)
	s := eval[string](b, `[...document.querySelectorAll("#results-table tr.result")].map(r => r.dataset.index).join(",")`)
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// TestBrowserResults15Example opens an example: its image is drawn, its audio loads, its
// text shows whole with its line breaks, the expected output and the prediction are
// compared field by field in declaration order with the store's marks; j/k move through
// the imperfect examples (the URL following), Esc goes back to the list.
func TestBrowserResults15Example(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "media.yaml")
	results := allResults(t, srv, id)
	if len(results) != mediaRows {
		t.Fatalf("the run has %d results, want %d", len(results), mediaRows)
	}
	b := newBrowser(t, 90*time.Second)

	b.open(srv.URL("/results?run=" + id + "&example=1"))
	waitExample(b, 1)
	width := poll[int](b, "the image drawn", `(() => { const i = document.querySelector("#example-input img.artifact-image"); return i && i.complete && i.naturalWidth; })()`, 10*time.Second,
		`(() => { const i = document.querySelector("#example-input img"); return i ? "img " + i.src + " complete " + i.complete : document.getElementById("example-input").innerText; })()`)
	if width != 80 {
		t.Errorf("the image of example 1 is %d px wide, want 80 (media/p1.png)", width)
	}
	poll[bool](b, "the audio's metadata loaded", `(() => { const a = document.querySelector("#example-input audio"); return a !== null && a.readyState >= 1 && a.duration > 0.2; })()`, 10*time.Second,
		`(() => { const a = document.querySelector("#example-input audio"); return a ? "audio " + a.src + " readyState " + a.readyState + " error " + (a.error && a.error.code) : "no audio"; })()`)
	note := eval[string](b, `(() => { const e = document.querySelector('#example-input [data-path="note"] .value'); return e ? getComputedStyle(e).whiteSpace + "|" + e.textContent : ""; })()`)
	if want := "pre-wrap|" + mediaNote(1); note != want {
		t.Errorf("the note shows %q, want %q", note, want)
	}
	if href := eval[string](b, `(document.querySelector('#example-input [data-path="doc"] a') || {}).href || ""`); !strings.Contains(href, "/artifacts/1/") {
		t.Errorf("the document's link is %q, want an artifact URL of example 1", href)
	}
	// The server sends a document under a sandboxing CSP, where a PDF viewer may show
	// nothing: the link downloads it, and what it answers is the file.
	doc := `#example-input [data-path="doc"] a.artifact-link`
	if got := eval[string](b, `(document.querySelector(`+js(doc)+`) || {getAttribute: () => "no link"}).getAttribute("download") || ""`); got != "spec.pdf" {
		t.Errorf("the document's link downloads as %q, want spec.pdf", got)
	}
	if got := eval[string](b, fetchedJS(doc)); got != "200|application/pdf|%PDF-" {
		t.Errorf("the document's link answers %q, want 200|application/pdf|%%PDF-", got)
	}
	// Declaration order (kind, then count), whatever the order of the JSON keys; the marks
	// are the store's field scores.
	rows := eval[string](b, `[...document.querySelectorAll("#example-fields tr.field-row")].map(r => r.dataset.path + "=" + r.querySelector("td.expected").textContent + "/" + r.querySelector("td.prediction").textContent + " " + r.querySelector("td.mark").textContent + " ×" + r.querySelector("td.weight").textContent).join("; ")`)
	var want []string
	for _, k := range []string{"kind", "count"} {
		mark := "✓"
		for _, f := range results[1].FieldScores {
			if f.Path[0] == k && f.Score != 1 {
				mark = "✗"
			}
		}
		w := map[string]string{"kind": "2", "count": "1"}[k]
		want = append(want, k+"="+field(results[1].Expected, k)+"/"+field(results[1].Prediction, k)+" "+mark+" ×"+w)
	}
	if rows != strings.Join(want, "; ") {
		t.Errorf("the comparison shows %q, want %q", rows, strings.Join(want, "; "))
	}
	b.screenshot("results15-example")

	// An execution error: the code explained.
	b.open(srv.URL("/results?run=" + id + "&example=13"))
	waitExample(b, 13)
	code := eval[string](b, `(document.getElementById("example-error-code") || {}).textContent || ""`)
	help := eval[string](b, `(document.getElementById("example-error-help") || {}).textContent || ""`)
	if code != results[13].Error.Code || !strings.Contains(help, "scores 0") {
		t.Errorf("example 13's error shows %q (%q), want %s explained", code, help, results[13].Error.Code)
	}

	// j/k through the imperfect examples, under the filter.
	var imperfect []int
	for _, r := range results {
		if r.Contribution < 1 {
			imperfect = append(imperfect, r.Index)
		}
	}
	b.open(srv.URL("/results?run=" + id + "&imperfect=1"))
	if got := waitTable(b); !slices.Equal(got, imperfect) {
		t.Fatalf("the imperfect filter shows %v, want %v", got, imperfect)
	}
	b.run(chromedp.KeyEvent("j"))
	waitExample(b, imperfect[0])
	for _, n := range imperfect[1:4] {
		b.run(chromedp.KeyEvent("j"))
		waitExample(b, n)
		if got := pageExample(b); got != n {
			t.Errorf("after j the URL opens example %d, want %d", got, n)
		}
	}
	b.run(chromedp.KeyEvent(kb.ArrowUp))
	waitExample(b, imperfect[2])
	b.run(chromedp.KeyEvent("k"))
	waitExample(b, imperfect[1])
	// Two keys at once: the second comes while the first's example is on its way, and
	// moves on from it once it has come (it was lost, or moved with the neighbours of the
	// example before).
	b.run(chromedp.KeyEvent("j"), chromedp.KeyEvent("j"))
	waitExample(b, imperfect[3])
	b.run(chromedp.KeyEvent("k"), chromedp.KeyEvent(kb.ArrowUp))
	waitExample(b, imperfect[1])
	if q := eval[string](b, `new URL(location.href).searchParams.get("imperfect") || ""`); q != "1" {
		t.Errorf("moving through the examples dropped the filter from the URL: imperfect=%q", q)
	}
	b.run(chromedp.KeyEvent(kb.Escape))
	poll[bool](b, "the list again", `document.getElementById("example-view") === null && document.getElementById("results-table") !== null`, 10*time.Second, "")
	if got := pageExample(b); got != -1 {
		t.Errorf("Esc left example %d in the URL", got)
	}
	// Back opens the example again.
	b.run(chromedp.NavigateBack())
	waitExample(b, imperfect[1])
}

// TestBrowserResults15Filters: each filter narrows the table to the examples a count over
// the run's results selects, says how many of all; the filter is in the URL (a reload keeps
// it) and in the export links.
func TestBrowserResults15Filters(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "media.yaml")
	results := allResults(t, srv, id)
	b := newBrowser(t, 90*time.Second)
	select1 := func(keep func(r api.Result) bool) []int {
		var out []int
		for _, r := range results {
			if keep(r) {
				out = append(out, r.Index)
			}
		}
		return out
	}
	wrong := func(r api.Result, k string) bool {
		for _, f := range r.FieldScores {
			if f.Path[0] == k && f.Score == 0 && r.Status == api.Valid {
				return true
			}
		}
		return false
	}
	b.open(srv.URL("/results?run=" + id))
	if got := waitTable(b); len(got) != mediaRows {
		t.Fatalf("the table shows %d rows, want %d", len(got), mediaRows)
	}
	for _, c := range []struct {
		name     string
		control  string
		value    string
		want     []int
		urlKey   string
		urlValue string
	}{
		{"imperfect", "", "", select1(func(r api.Result) bool { return r.Contribution < 1 }), "imperfect", "1"},
		{"status", "#status-filter", "valid", select1(func(r api.Result) bool { return r.Status == api.Valid }), "status", "valid"},
		{"wrong kind", "#wrong-filter", "kind", select1(func(r api.Result) bool { return wrong(r, "kind") }), "wrong", "kind"},
		{"wrong count", "#wrong-filter", "count", select1(func(r api.Result) bool { return wrong(r, "count") }), "wrong", "count"},
		{"search", "#search", "row 2", select1(func(r api.Result) bool { return strings.Contains(string(r.Input), "row 2") }), "q", "row 2"},
	} {
		b.open(srv.URL("/results?run=" + id))
		waitTable(b)
		if c.control == "" {
			b.run(chromedp.Click(chromedp.ID("filter-imperfect")))
		} else {
			b.setControl(c.control, c.value)
		}
		poll[bool](b, c.name+" in the URL", `new URL(location.href).searchParams.get(`+js(c.urlKey)+`) === `+js(c.urlValue), 5*time.Second, `location.href`)
		got := waitTable(b)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: the table shows %v, want %v", c.name, got, c.want)
		}
		count := eval[string](b, `document.getElementById("match-count").textContent`)
		if c.name != "search" && count != fmt.Sprintf("%d of %d examples", len(c.want), mediaRows) {
			t.Errorf("%s: the count says %q, want %d of %d", c.name, count, len(c.want), mediaRows)
		}
		href := eval[string](b, `document.getElementById("export-csv").getAttribute("href")`)
		if u, err := url.Parse(href); err != nil || u.Query().Get(c.urlKey) != c.urlValue || u.Query().Get("format") != "csv" {
			t.Errorf("%s: the CSV export is %q, without the filter", c.name, href)
		}
		// A reload shows the same.
		b.open(eval[string](b, `location.href`))
		if got := waitTable(b); !slices.Equal(got, c.want) {
			t.Errorf("%s after a reload: the table shows %v, want %v", c.name, got, c.want)
		}
	}
	// Sorted by score: lowest contribution first.
	b.open(srv.URL("/results?run=" + id + "&sort=score"))
	got := waitTable(b)
	for i := 1; i < len(got); i++ {
		a, c := results[got[i-1]], results[got[i]]
		if a.Contribution > c.Contribution || a.Contribution == c.Contribution && a.Index > c.Index {
			t.Errorf("sorted by score, %d (%.3f) comes before %d (%.3f)", a.Index, a.Contribution, c.Index, c.Contribution)
		}
	}
	b.screenshotWidths("results15-list", "#match-count")
}

// TestBrowserResults15Charts: each cell of the confusion matrix counts the valid examples
// the store holds with that expected and predicted kind; clicking a cell shows those
// examples; the histogram counts the valid examples' scores.
func TestBrowserResults15Charts(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "media.yaml")
	results := allResults(t, srv, id)
	b := newBrowser(t, 90*time.Second)
	b.open(srv.URL("/results?run=" + id))
	waitTable(b)
	poll[bool](b, "the confusion matrix", `document.querySelector('#confusions .confusion[data-path="kind"] g.cell') !== null`, 10*time.Second,
		`document.getElementById("charts") ? document.getElementById("charts").innerText : "no charts"`)
	cells := map[[2]string][]int{}
	for _, r := range results {
		if r.Status == api.Valid {
			k := [2]string{field(r.Expected, "kind"), field(r.Prediction, "kind")}
			cells[k] = append(cells[k], r.Index)
		}
	}
	shown := eval[string](b, `[...document.querySelectorAll('#confusions .confusion[data-path="kind"] g.cell')].map(g => g.dataset.expected + ">" + g.dataset.predicted + "=" + g.dataset.count + ":" + g.textContent.trim().split("expected")[0]).join(" ")`)
	var want []string
	for _, e := range mediaKinds {
		for _, p := range mediaKinds {
			n := strconv.Itoa(len(cells[[2]string{e, p}]))
			want = append(want, e+">"+p+"="+n+":"+n)
		}
	}
	if shown != strings.Join(want, " ") {
		t.Errorf("the confusion matrix shows\n%s\nthe store holds\n%s", shown, strings.Join(want, " "))
	}
	var hist [11]int
	for _, r := range results {
		if r.Status == api.Valid && r.Score != nil {
			bin := int(math.Floor(*r.Score * 10))
			hist[min(bin, 10)]++
		}
	}
	if got := eval[string](b, `[...document.querySelectorAll("#chart-histogram rect.bin")].map(r => r.dataset.count).join(",")`); got != strings.Trim(strings.Join(strings.Fields(fmt.Sprint(hist)), ","), "[]") {
		t.Errorf("the histogram counts %s, the store %v", got, hist)
	}
	b.screenshot("results15-charts")

	// An off-diagonal cell: its examples, and the filter in the URL.
	cell := [2]string{"cat", "dog"}
	b.run(chromedp.Click(chromedp.CSS(`#confusions .confusion[data-path="kind"] g.cell[data-expected="cat"][data-predicted="dog"] rect`)))
	poll[bool](b, "the cell's filter in the URL", `new URL(location.href).searchParams.get("predicted") === "dog"`, 5*time.Second, `location.href`)
	if got := waitTable(b); !slices.Equal(got, cells[cell]) {
		t.Errorf("the cell cat > dog shows %v, the store holds %v", got, cells[cell])
	}
	if !b.exists("#cell-filter") {
		t.Error("the cell's filter is not shown above the table")
	}
}

// TestBrowserResults15Health: a run whose every example is an execution error is shown
// as failed infrastructure: a red banner with the most frequent error in full on the
// results page and in the runs list, and the score greyed as not meaningful.
func TestBrowserResults15Health(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "down.yaml")
	var run api.Run
	srv.getJSON(t, api.RunPath(id), &run)
	if run.Health == nil || !run.Health.Failed {
		t.Fatalf("the server's run has health %+v, want failed", run.Health)
	}
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/results?run=" + id))
	banner := poll[string](b, "the health banner", `(() => { const e = document.getElementById("health-banner"); return e && !e.hidden && e.textContent; })()`, 10*time.Second, "")
	sentence := "6 of 6 examples: adapter_error: cannot reach http://127.0.0.1:9 — is the server running?"
	if run.Health.Sentence() != sentence {
		t.Errorf("the server's health says %q, want %q", run.Health.Sentence(), sentence)
	}
	if !strings.Contains(banner, run.Health.Sentence()) {
		t.Errorf("the banner says %q, want %q", banner, run.Health.Sentence())
	}
	if color := eval[string](b, `getComputedStyle(document.getElementById("health-banner")).backgroundColor`); color != "rgb(179, 38, 30)" {
		t.Errorf("the banner's background is %s, want the page's red", color)
	}
	if m := eval[string](b, `document.getElementById("score").dataset.meaningful || ""`); m != "no" {
		t.Error("the score is shown as a result")
	}
	b.screenshot("results15-health")
	b.open(srv.URL("/runs?benchmark=down.yaml"))
	row := poll[string](b, "the run's row says it failed", `(() => { const e = document.querySelector('tr.run[data-id="`+id+`"] .run-health'); return e && e.textContent; })()`, 10*time.Second,
		`(document.querySelector("table") || document.body).innerText.slice(0, 400)`)
	if !strings.Contains(row, sentence) {
		t.Errorf("the runs list says %q, want %q", row, sentence)
	}
}

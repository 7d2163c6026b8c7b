package web_test

// Browser tests of what a second newcomer review of the results explorer found (issue
// 15): a searched filter's count once the run is searched, a bin of the histogram
// selecting its examples, a failed run on the runs page, Esc back to the row.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/benchy-eval/benchy/api"
)

// waitText waits until the element id's text is want.
func waitText(b *browser, id, want string, timeout time.Duration) {
	b.t.Helper()
	poll[bool](b, "#"+id+" says "+want, `(document.getElementById(`+js(id)+`) || {}).textContent === `+js(want), timeout,
		`"#`+id+` says " + JSON.stringify((document.getElementById(`+js(id)+`) || {}).textContent)`)
}

// TestBrowserResults15SearchedCount: a filter the server scans (a search, a confusion
// cell) is not counted by it, but once the page has searched the run to its end (next
// -1) it has seen every match: the count reads "N of 30 examples" and the pager "Page 1
// of 1" (they read "searching 30 examples" and "Page 1" for good).
func TestBrowserResults15SearchedCount(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "media.yaml")
	results := allResults(t, srv, id)
	b := newBrowser(t, 60*time.Second)
	search, cell := 0, 0
	for _, r := range results {
		if strings.Contains(string(r.Input), "row 2") {
			search++
		}
		if r.Status == api.Valid && field(r.Expected, "kind") == "cat" && field(r.Prediction, "kind") == "dog" {
			cell++
		}
	}
	for _, c := range []struct {
		query string
		n     int
	}{
		{"q=row+2", search},
		{"field=kind&expected=cat&predicted=dog", cell},
	} {
		b.open(srv.URL("/results?run=" + id + "&" + c.query))
		waitText(b, "match-count", fmt.Sprintf("%d of %d examples", c.n, mediaRows), 15*time.Second)
		waitText(b, "page-info", "Page 1 of 1", time.Second)
		if got := len(waitTable(b)); got != c.n {
			t.Errorf("%s: the table has %d rows, want %d", c.query, got, c.n)
		}
	}
	// The cell whose examples the table shows is drawn selected, and only it.
	if got := eval[string](b, `[...document.querySelectorAll("#confusions g.cell.selected")].map(g => g.dataset.expected + ">" + g.dataset.predicted).join(",")`); got != "cat>dog" {
		t.Errorf("the selected cells are %q, want cat>dog", got)
	}
	b.screenshot("results15-searched")
}

// TestBrowserResults15FailedScore: a run that failed as infrastructure never shows its
// 0.0000 as a result on the runs page: the runs list's Score column, the followed run and
// a launch's card strike it out as not meaningful, and the card's border and bar are red,
// not a completed run's (they showed "0.0000 95% CI [0.0000, 0.0000]" big).
func TestBrowserResults15FailedScore(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "down.yaml")
	again := mediaRun(t, srv, "down.yaml")
	b := newBrowser(t, 60*time.Second)
	struck := func(what, sel string) {
		t.Helper()
		got := poll[string](b, what, `(() => { const e = document.querySelector(`+js(sel)+`); return e && e.textContent; })()`, 10*time.Second,
			`document.body.innerText.slice(0, 600)`)
		if !strings.Contains(got, "not meaningful") {
			t.Errorf("%s says %q, not that the score is not meaningful", what, got)
		}
		if deco := eval[string](b, `getComputedStyle(document.querySelector(`+js(sel+` .struck`)+`)).textDecorationLine`); deco != "line-through" {
			t.Errorf("%s's score is not struck out (%q)", what, deco)
		}
		if ci := eval[bool](b, `document.querySelector(`+js(sel)+`).textContent.includes("CI [")`); ci {
			t.Errorf("%s shows an interval", what)
		}
	}
	b.open(srv.URL("/runs?benchmark=down.yaml"))
	struck("the runs list's Score", `tr.run[data-id="`+id+`"] td.run-score[data-meaningful="no"]`)
	if lines := b.lines(`tr.run[data-id="` + id + `"] td.run-id`); lines != 1 {
		t.Errorf("the Run cell beside the error box takes %d lines, want 1", lines)
	}
	b.screenshot("results15-failed-list")

	b.open(srv.URL("/runs?benchmark=down.yaml&run=" + id))
	struck("the followed run", `#live #run-score[data-meaningful="no"]`)

	b.open(srv.URL("/runs?benchmark=down.yaml&run=" + id + "&run=" + again))
	card := `.live-card[data-id="` + again + `"]`
	struck("the card", card+` .live-score[data-meaningful="no"]`)
	if c := eval[string](b, `getComputedStyle(document.querySelector(`+js(card)+`)).borderTopColor`); c != "rgb(228, 182, 178)" {
		t.Errorf("the card's border is %s, want the aborted red", c)
	}
	if c := eval[string](b, `getComputedStyle(document.querySelector(`+js(card+` .progress > div`)+`)).backgroundColor`); c != "rgb(179, 38, 30)" {
		t.Errorf("the card's bar is %s, want red", c)
	}
	b.screenshot("results15-failed-cards")
}

// TestBrowserResults15HistogramBin: a click on a bar of the histogram shows exactly that
// bar's examples (the table and its count are the bar's count, each row's score in the
// bin), the bar drawn selected and the range said in a chip; the perfect bar shows the
// examples that scored 1. A bar below 1 showed every imperfect example.
func TestBrowserResults15HistogramBin(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "media.yaml")
	results := allResults(t, srv, id)
	b := newBrowser(t, 60*time.Second)
	var bins [11][]int
	for _, r := range results {
		if r.Status == api.Valid && r.Score != nil {
			bin := min(int(*r.Score*10), 10)
			bins[bin] = append(bins[bin], r.Index)
		}
	}
	for _, c := range []struct {
		bin  int
		chip string
		url  string
	}{
		{3, "score in [0.3, 0.4)", "score_max=0.4&score_min=0.3"},
		{10, "score 1 (perfect)", "score_max=1&score_min=1"},
	} {
		if len(bins[c.bin]) == 0 {
			t.Fatalf("bin %d is empty: the case checks nothing", c.bin)
		}
		b.open(srv.URL("/results?run=" + id))
		waitTable(b)
		bar := fmt.Sprintf(`#chart-histogram rect.bin[data-bin="%d"]`, c.bin)
		poll[bool](b, "the histogram", `document.querySelector(`+js(bar)+`) !== null`, 10*time.Second, "")
		b.run(chromedp.Click(chromedp.CSS(bar)))
		poll[bool](b, "the bin's filter in the URL", `location.search.includes(`+js(c.url)+`)`, 5*time.Second, `location.href`)
		got := waitTable(b)
		if !slices.Equal(got, bins[c.bin]) {
			t.Errorf("bin %d shows %v, the store's scores put %v in it", c.bin, got, bins[c.bin])
		}
		waitText(b, "match-count", fmt.Sprintf("%d of %d examples", len(bins[c.bin]), mediaRows), 5*time.Second)
		if n := eval[string](b, `document.querySelector(`+js(bar)+`).dataset.count`); n != fmt.Sprint(len(bins[c.bin])) {
			t.Errorf("bin %d counts %s, shows %d", c.bin, n, len(got))
		}
		if !eval[bool](b, `document.querySelector(`+js(bar)+`).classList.contains("selected")`) {
			t.Errorf("bin %d is not drawn selected", c.bin)
		}
		if chip := eval[string](b, `(document.querySelector("#score-filter .chip-text") || {}).textContent || ""`); chip != c.chip {
			t.Errorf("the chip says %q, want %q", chip, c.chip)
		}
		if b.exists(`#counts a.card.selected[data-status=""]`) {
			t.Error("the total card reads as selected under the bin's filter")
		}
		b.screenshot(fmt.Sprintf("results15-bin%d", c.bin))
	}
}

// TestBrowserResults15EscToRow: Esc from an example opened far down the list comes back
// to its row: scrolled into the viewport and focused (highlighted), as the footer says
// (the list came back scrolled to its top). j and k replace the history entry, so that
// Back from an example reached by j returns to the list, not to the example before.
func TestBrowserResults15EscToRow(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "media.yaml")
	b := newBrowser(t, 60*time.Second)
	const n = 27
	row := fmt.Sprintf(`#results-table tr.result[data-index="%d"]`, n)
	inView := `(() => { const r = document.querySelector(` + js(row) + `); if (!r) return false; const b = r.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; })()`
	b.open(srv.URL("/results?run=" + id))
	waitTable(b)
	if eval[bool](b, inView) {
		t.Fatalf("row %d is in the first viewport: the case checks nothing", n)
	}
	b.run(chromedp.Click(chromedp.CSS(row + ` a.example-link`)))
	waitExample(b, n)
	b.run(chromedp.KeyEvent(kb.Escape))
	poll[bool](b, fmt.Sprintf("row %d in view", n), inView, 5*time.Second,
		`"scrollY " + scrollY + ", row at " + (document.querySelector(`+js(row)+`) || {getBoundingClientRect: () => ({top: "none"})}).getBoundingClientRect().top + " of " + innerHeight`)
	if focused := eval[string](b, `(document.activeElement && document.activeElement.dataset && document.activeElement.dataset.index) || ""`); focused != fmt.Sprint(n) {
		t.Errorf("after Esc the focus is on %q, want row %d", focused, n)
	}
	if bg := eval[string](b, `getComputedStyle(document.querySelector(`+js(row+` td`)+`)).backgroundColor`); bg != "rgb(255, 244, 204)" {
		t.Errorf("row %d is not highlighted: %s", n, bg)
	}
	b.screenshot("results15-esc-row")

	// j from the list opens the first example, j j move on in place; Back is the list.
	b.open(srv.URL("/results?run=" + id + "&imperfect=1"))
	first := waitTable(b)
	b.run(chromedp.KeyEvent("j"))
	waitExample(b, first[0])
	b.run(chromedp.KeyEvent("j"))
	waitExample(b, first[1])
	b.run(chromedp.KeyEvent("j"))
	waitExample(b, first[2])
	if got := pageExample(b); got != first[2] {
		t.Errorf("after j the URL opens example %d, want %d", got, first[2])
	}
	b.run(chromedp.NavigateBack())
	poll[bool](b, "the list after Back", `document.getElementById("example-view") === null && document.getElementById("results-table") !== null`, 5*time.Second, `location.href`)
	if got := pageExample(b); got != -1 {
		t.Errorf("Back from an example reached by j opens example %d, want the list", got)
	}
}

// TestBrowserResults15PickerAfterRun: a run started from the runs page that ends updates
// the benchmark picker's option and the benchmark's last-run badge without a reload (they
// said nothing of it until the page was loaded again).
func TestBrowserResults15PickerAfterRun(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/runs?benchmark=down.yaml"))
	option := `[...document.querySelectorAll("#benchmark option")].map(o => o.textContent).filter(t => t.startsWith("down.yaml")).join("|")`
	before := poll[string](b, "the picker's option", option, 10*time.Second, "")
	if strings.Contains(before, "last") {
		t.Fatalf("before any run the option reads %q", before)
	}
	poll[bool](b, "Start run enabled", `(() => { const s = document.getElementById("start"); return s !== null && !s.disabled; })()`, 10*time.Second, "")
	b.clickJS("#start") // the form may still move as the runtime file's bindings load (a model's options appear)
	got := poll[string](b, "the option after the run", `(() => { const t = `+option+`; return t.includes("last run failed infrastructure") && t; })()`, 20*time.Second, option)
	if strings.Contains(got, "last score") {
		t.Errorf("the option reads %q", got)
	}
	poll[bool](b, "the last-run badge", `(document.getElementById("last-score") || {}).textContent === "last run failed infrastructure"`, 5*time.Second,
		`(document.getElementById("last-score") || {}).textContent`)
	b.screenshot("results15-picker-after-run")
}

// TestBrowserResults15FailedCharts: a run with no valid example says so in the charts of
// valid examples (the dimensions said "No dimensions." though the benchmark has two, the
// histogram and the confusion matrix were drawn all zero).
func TestBrowserResults15FailedCharts(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "down.yaml")
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/results?run=" + id))
	poll[bool](b, "the charts", `document.querySelector("#chart-status svg") !== null`, 10*time.Second, "")
	for _, c := range []struct{ sel, want string }{
		{"#chart-dimensions", "Accuracy per dimension (valid examples)No valid examples."},
		{"#chart-histogram", "Score of valid examplesNo valid examples."},
		{"#confusions", "No confusion matrix: no valid examples."},
	} {
		if got := eval[string](b, `document.querySelector(`+js(c.sel)+`).textContent`); got != c.want {
			t.Errorf("%s says %q, want %q", c.sel, got, c.want)
		}
	}
	if b.exists("#confusions g.cell") || b.exists("#chart-histogram rect.bin") {
		t.Error("an all-zero matrix or histogram is drawn")
	}
	b.screenshot("results15-failed-charts")
}

// TestBrowserResults15DiffMark: in the example view a wrong text's prediction marks where
// it differs from the expected text.
func TestBrowserResults15DiffMark(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "media.yaml")
	results := allResults(t, srv, id)
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/results?run=" + id + "&example=0"))
	waitExample(b, 0)
	want := field(results[0].Prediction, "kind") // example 0's kind is wrong (mediaNote)
	if want == field(results[0].Expected, "kind") {
		t.Fatal("example 0's kind is right: the case checks nothing")
	}
	if got := eval[string](b, `(document.querySelector('#example-fields tr[data-path="kind"] td.prediction mark.diff') || {}).textContent || ""`); got != want {
		t.Errorf("the wrong kind's mark is %q, want %q", got, want)
	}
	if b.exists(`#example-fields tr[data-path="count"] td.prediction mark`) {
		t.Error("a right field is marked")
	}
	b.screenshot("results15-diff-mark")
}

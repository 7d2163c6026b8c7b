package web_test

// Browser tests of what a second newcomer review of the results explorer found (issue
// 15): a searched filter's count once the run is searched, a bin of the histogram
// selecting its examples, a failed run on the runs page, Esc back to the row.

import (
	"fmt"
	"strings"
	"testing"
	"time"

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

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

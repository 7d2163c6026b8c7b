package web_test

// Browser tests of the HTML report's download button (issue 15, item 7) and of a run that
// failed as infrastructure shown as such everywhere (item 5): Chromium saves what the
// button downloads into a directory of the test (Browser.setDownloadBehavior), and the
// file's text has the score and counts GET /api/runs/{id} says, on a plain server and on
// one that wants a token (the page fetches it with the token and saves a blob).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/benchy-eval/benchy/api"
)

// downloadTo makes Chromium save the tab's downloads into a new directory of the test,
// under the names they are offered as, and returns it.
func (b *browser) downloadTo() string {
	b.t.Helper()
	dir := b.t.TempDir()
	b.run(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir,
		})
		return err
	}))
	return dir
}

// waitDownload waits until dir holds one finished download and returns its name and text.
func waitDownload(t *testing.T, dir string, timeout time.Duration) (name, text string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if len(names) == 1 && !strings.HasSuffix(names[0], ".crdownload") {
			data, err := os.ReadFile(filepath.Join(dir, names[0]))
			if err == nil && len(data) > 0 {
				return names[0], string(data)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no download in %s after %s: %v", dir, timeout, names)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// reportRun is what a report's section of run id says: its score and its counts by name
// (examples, valid, invalid_output, execution_error).
func reportRun(t *testing.T, html, id string) (score string, counts map[string]int) {
	t.Helper()
	start := strings.Index(html, `data-run="`+id+`"`)
	if start < 0 {
		t.Fatalf("the report has no section of run %s", id)
	}
	art := html[start:]
	if end := strings.Index(art, "</article>"); end >= 0 {
		art = art[:end]
	}
	m := regexp.MustCompile(`data-score>([^<]*)<`).FindStringSubmatch(art)
	if m == nil {
		t.Fatalf("run %s's section has no score", id)
	}
	counts = map[string]int{}
	for _, c := range regexp.MustCompile(`data-count="([a-z_]+)">(\d+)`).FindAllStringSubmatch(art, -1) {
		counts[c[1]], _ = strconv.Atoi(c[2])
	}
	return m[1], counts
}

// checkReport checks that html reports run as the API gives it: its score to four places
// and its counts.
func checkReport(t *testing.T, html string, run api.Run) {
	t.Helper()
	rep := run.DecodeReport()
	if rep == nil || rep.BenchmarkScore == nil || run.Summary == nil {
		t.Fatalf("run %s has no report", run.ID)
	}
	score, counts := reportRun(t, html, run.ID)
	if want := fmt.Sprintf("%.4f", *rep.BenchmarkScore); score != want {
		t.Errorf("the report scores run %s %s, GET /api/runs says %s", run.ID, score, want)
	}
	s := run.Summary
	want := map[string]int{"examples": s.Examples, "valid": s.Valid, "invalid_output": s.InvalidOutputs, "execution_error": s.ExecutionErrors}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("the report counts %d %s of run %s, GET /api/runs says %d (all: %v)", counts[k], k, run.ID, n, counts)
		}
	}
}

// clickDownload clicks the Download report button of selector once it is there.
func (b *browser) clickDownload(selector string) {
	b.t.Helper()
	poll[bool](b, selector, `document.querySelector(`+js(selector)+`) !== null`, 15*time.Second, `document.body.innerText.slice(0, 400)`)
	b.run(chromedp.Click(chromedp.CSS(selector)))
}

// TestBrowserReport15Download: Download report on a run's results page saves its report
// (benchy-report.html) with the run's score and counts; on the leaderboard of two systems
// it saves one report of both runs, with the leaderboard.
func TestBrowserReport15Download(t *testing.T) {
	requireBrowser(t)
	dir := mediaWorkspace(t)
	// The same benchmark and dataset answered by another binding: a second system on its board.
	if err := os.WriteFile(filepath.Join(dir, "media-b.yaml"), []byte(fmt.Sprintf(mediaBenchmark, "media", "down-v1")), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, dir)
	a, c := mediaRun(t, srv, "media.yaml"), mediaRun(t, srv, "media-b.yaml")
	var runA, runC api.Run
	srv.getJSON(t, api.RunPath(a), &runA)
	srv.getJSON(t, api.RunPath(c), &runC)

	b := newBrowser(t, 90*time.Second)
	saved := b.downloadTo()
	b.open(srv.URL("/results?run=" + a))
	b.clickDownload("#report-download")
	name, html := waitDownload(t, saved, 15*time.Second)
	if name != "benchy-report.html" {
		t.Errorf("saved as %q, want the server's benchy-report.html", name)
	}
	checkReport(t, html, runA)
	if strings.Contains(html, `data-run="`+c+`"`) {
		t.Error("the report of one run has the other run too")
	}
	b.screenshotWidths("report15-results-button", "#report-download")

	saved = b.downloadTo()
	b.open(srv.URL("/leaderboard?benchmark=media.yaml"))
	b.clickDownload("#board-report")
	_, html = waitDownload(t, saved, 20*time.Second)
	checkReport(t, html, runA)
	checkReport(t, html, runC)
	if !strings.Contains(html, `<table class="leaderboard">`) {
		t.Error("the leaderboard's report has no leaderboard")
	}
	b.screenshotWidths("report15-leaderboard-button", "#board-report")
}

// TestBrowserReport15Token: on a server that wants a token, where a link cannot send it,
// Download report fetches the report with the tab's token and saves it under the name of
// its Content-Disposition, with the run's score and counts.
func TestBrowserReport15Token(t *testing.T) {
	requireBrowser(t)
	srv := startTokenServer(t, mediaWorkspace(t), testToken)
	id := tokenRun(t, srv, testToken, "media.yaml", 30*time.Second)
	var run api.Run
	if _, err := authDo(srv, testToken, "GET", api.RunPath(id), "", &run); err != nil {
		t.Fatal(err)
	}
	if code, _ := authDo(srv, "", "GET", api.ReportPath(id), "", nil); code != 401 {
		t.Fatalf("the report without the token answers %d, want 401", code)
	}
	b := newBrowser(t, 90*time.Second)
	b.ignoreConsole("status of 401") // the first visit, before the tab has the token
	saved := b.downloadTo()
	b.useToken(testToken, srv.URL("/results?run="+id))
	b.clickDownload("#report-download")
	name, html := waitDownload(t, saved, 15*time.Second)
	if name != "benchy-report.html" {
		t.Errorf("saved as %q, want the Content-Disposition's benchy-report.html", name)
	}
	checkReport(t, html, run)
}

// TestBrowserReport15Failed: a run that failed as infrastructure is red and says so in
// the results page's status pill, in the runs list's status, in the benchmark picker,
// which says "failed infrastructure" instead of its last score 0.0000, and where the runs
// page follows it, alone or as a card of a launch.
func TestBrowserReport15Failed(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, mediaWorkspace(t))
	id := mediaRun(t, srv, "down.yaml")
	var run api.Run
	srv.getJSON(t, api.RunPath(id), &run)
	if run.Health == nil || !run.Health.Failed {
		t.Fatalf("the server's run has health %+v, want failed", run.Health)
	}
	const red = "rgb(251, 229, 227)" // .badge.failed's background
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/results?run=" + id))
	pill := poll[string](b, "the status pill", `(() => { const e = document.getElementById("run-status"); return e && e.textContent; })()`, 10*time.Second, "")
	if pill != "completed · failed infrastructure" {
		t.Errorf("the status pill says %q", pill)
	}
	if bg := eval[string](b, `getComputedStyle(document.getElementById("run-status")).backgroundColor`); bg != red {
		t.Errorf("the status pill's background is %s, want red %s", bg, red)
	}
	b.screenshotWidths("report15-failed-results", "#run-status")

	b.open(srv.URL("/runs?benchmark=down.yaml"))
	sel := `tr.run[data-id="` + id + `"] td.run-status .badge`
	cell := poll[string](b, "the run's status cell", `(() => { const e = document.querySelector(`+js(sel)+`); return e && e.textContent; })()`, 10*time.Second,
		`(document.querySelector("table") || document.body).innerText.slice(0, 400)`)
	if cell != "completed · failed infrastructure" {
		t.Errorf("the runs list's status says %q", cell)
	}
	if bg := eval[string](b, `getComputedStyle(document.querySelector(`+js(sel)+`)).backgroundColor`); bg != red {
		t.Errorf("the runs list's status is %s, want red %s", bg, red)
	}
	last := poll[string](b, "the benchmark's last run", `(() => { const e = document.getElementById("last-score"); return e && e.textContent; })()`, 10*time.Second, "")
	if last != "last run failed infrastructure" {
		t.Errorf("the benchmark's last run reads %q", last)
	}
	option := eval[string](b, `[...document.querySelectorAll("#benchmark option")].map(o => o.textContent).filter(t => t.startsWith("down.yaml")).join("|")`)
	if !strings.Contains(option, "last run failed infrastructure") || strings.Contains(option, "last score") {
		t.Errorf("the picker reads %q, want the failed run said, not its score", option)
	}
	b.screenshot("report15-failed-runs")

	// The run followed on the runs page, alone and as a card of a launch's runs side by side.
	b.open(srv.URL("/runs?benchmark=down.yaml&run=" + id))
	followed := poll[string](b, "the followed run's status", `(() => { const e = document.querySelector("#live #run-status"); return e && e.textContent.includes("completed") && e.textContent; })()`, 10*time.Second, "")
	if followed != "completed · failed infrastructure" {
		t.Errorf("the followed run's status says %q", followed)
	}
	again := mediaRun(t, srv, "down.yaml")
	b.open(srv.URL("/runs?benchmark=down.yaml&run=" + id + "&run=" + again))
	card := `.live-card[data-id="` + again + `"] .live-status`
	got := poll[string](b, "the card's status", `(() => { const e = document.querySelector(`+js(card)+`); return e && e.textContent.includes("completed") && e.textContent; })()`, 10*time.Second,
		`document.getElementById("live") ? document.getElementById("live").innerText.slice(0, 400) : "no #live"`)
	if got != "completed · failed infrastructure" {
		t.Errorf("the launch's card says %q", got)
	}
	if bg := eval[string](b, `getComputedStyle(document.querySelector(`+js(card)+`)).backgroundColor`); bg != red {
		t.Errorf("the card's status is %s, want red %s", bg, red)
	}
	b.screenshot("report15-failed-cards")
}

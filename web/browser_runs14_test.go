package web_test

// Browser tests of issue 14's runs pages: a resumed run's live panel shows its rate, ETA
// and interval as a fresh run's does, without a reload; partial runs are labelled where a
// score shows; success notices are green, not a warning's yellow.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// heldWorkspace is systemsWorkspace with a binding labeller-slow, 50 ms an example, whose
// adapter answers nothing while the file it returns exists.
func heldWorkspace(t *testing.T) (dir, hold string) {
	t.Helper()
	dir = systemsWorkspace(t)
	f, err := os.OpenFile(filepath.Join(dir, "benchy.runtime.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	hold = filepath.Join(t.TempDir(), "hold")
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "  labeller-slow:\n    command: [./label-adapter, -delay, 50ms, -hold, %q]\n", hold)
	f.Close()
	return dir, hold
}

// TestBrowserRuns14Resume cancels a held run and resumes it on the runs page: while the
// resumed run runs its panel shows a rate and an ETA, and when it completes the score's
// interval and the average rate, as a fresh run's panel does, without a reload (reported
// missing until one; on this tree the panel follows the resumed run through the page's
// context, 0995404, and this part guards it). The resume's success notice is green (it
// had none; notices were all a warning's yellow).
func TestBrowserRuns14Resume(t *testing.T) {
	requireBrowser(t)
	dir, hold := heldWorkspace(t)
	srv := startServer(t, dir)
	var started struct {
		ID string `json:"id"`
	}
	srv.postJSON(t, "/api/runs", `{"benchmark": "benchmark.yaml", "concurrency": 1, "systems": [{"system": "labeller-slow"}]}`, &started)
	b := newBrowser(t, 90*time.Second)
	b.open(srv.URL("/runs?benchmark=benchmark.yaml&run=" + started.ID))
	status := `(document.getElementById("run-status") || {textContent: ""}).textContent.trim()`
	panel := `(document.getElementById("live") || {innerText: ""}).innerText`
	poll[bool](b, "the run to be running", status+` === "running"`, 10*time.Second, status)
	// Some results first, then held again: the resumed run reuses them.
	if err := os.Remove(hold); err != nil {
		t.Fatal(err)
	}
	poll[bool](b, "a few results", `Number(document.getElementById("run-done").dataset.value) >= 3`, 10*time.Second, panel)
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	b.clickJS("#cancel")
	poll[bool](b, "the run to be cancelled", status+` === "cancelled"`, 10*time.Second, status)
	b.clickJS("#resume")
	poll[bool](b, "the resumed run to be running", status+` === "running"`, 10*time.Second, status)
	if err := os.Remove(hold); err != nil {
		t.Fatal(err)
	}
	poll[bool](b, "the resumed run's rate and ETA while it runs",
		`Number(document.getElementById("run-rate").dataset.value) > 0 && document.getElementById("run-eta") !== null`, 10*time.Second, panel)
	note := poll[string](b, "the resume's notice", `(() => { const n = document.getElementById("run-note"); return n && n.className + ": " + n.textContent; })()`, 5*time.Second, panel)
	if note != "notice ok: Resumed: only the examples with no result are evaluated." {
		t.Errorf("the resume's notice %q", note)
	}
	poll[bool](b, "the resumed run to complete", status+` === "completed"`, 20*time.Second, status)
	poll[bool](b, "the completed run's interval", `document.getElementById("run-ci") !== null`, 5*time.Second, panel)
	rate, err := strconv.ParseFloat(eval[string](b, `document.getElementById("run-rate").dataset.value`), 64)
	if err != nil || rate <= 0 {
		t.Errorf("the completed resumed run's rate %v (%v), want its average; panel: %s", rate, err, eval[string](b, panel))
	}
	if ci := b.text("#run-ci"); ci == "" {
		t.Errorf("no interval: %s", eval[string](b, panel))
	}
	assertOKNotice(t, b, "#run-note")
	b.screenshot("runs-resumed")
}

// assertOKNotice checks that the notice matching selector is green: its background and
// border are not a warning notice's, and its text is the kit's ok colour (--ok, #1d7a46).
func assertOKNotice(t *testing.T, b *browser, selector string) {
	t.Helper()
	got := strings.Split(eval[string](b, `(() => {
		const n = document.querySelector(`+js(selector)+`), s = getComputedStyle(n);
		const w = document.createElement("div"); w.className = "notice"; document.body.appendChild(w);
		const ws = getComputedStyle(w), out = [s.backgroundColor, ws.backgroundColor, s.borderTopColor, ws.borderTopColor, s.color].join("|");
		w.remove();
		return out;
	})()`), "|")
	bg, warnBg, border, warnBorder, color := got[0], got[1], got[2], got[3], got[4]
	if bg == warnBg || border == warnBorder {
		t.Errorf("%s looks like a warning: background %s (a warning's %s), border %s (%s)", selector, bg, warnBg, border, warnBorder)
	}
	if color != "rgb(29, 122, 70)" {
		t.Errorf("%s text colour %s, want the ok green", selector, color)
	}
}

// TestBrowserRuns14Partial runs the benchmark whole, then its first 5 examples: the
// benchmark's last score is the full run's (it was the partial run's), the partial run
// shows beside it labelled, and in the runs table the partial run's score says "first 5
// of 60" while the full run's says nothing more.
func TestBrowserRuns14Partial(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, systemsWorkspace(t))
	var full, part struct {
		ID string `json:"id"`
	}
	srv.postJSON(t, "/api/runs", `{"benchmark": "benchmark.yaml"}`, &full)
	waitRun(t, srv, full.ID)
	srv.postJSON(t, "/api/runs", `{"benchmark": "benchmark.yaml", "limit": 5}`, &part)
	waitRun(t, srv, part.ID)
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/runs?benchmark=benchmark.yaml"))
	poll[bool](b, "the runs table", `document.querySelectorAll("#runs tr.run").length === 2 && document.getElementById("last-score") !== null`, 10*time.Second,
		`(document.getElementById("runs-page") || {innerText: ""}).innerText`)
	if href := eval[string](b, `document.querySelector("#last-score a").getAttribute("href")`); !strings.Contains(href, full.ID) {
		t.Errorf("the last score links to %s, want the full run %s", href, full.ID)
	}
	if got := b.text("#last-partial"); !strings.Contains(got, "first 5") {
		t.Errorf("the latest partial run reads %q", got)
	}
	if got := b.text(`#runs tr.run[data-id="` + part.ID + `"] .run-score .badge.partial`); got != "first 5 of 60" {
		t.Errorf("the partial run's score is labelled %q, want \"first 5 of 60\"", got)
	}
	if b.exists(`#runs tr.run[data-id="` + full.ID + `"] .run-score .badge.partial`) {
		t.Error("the full run's score is labelled partial")
	}
	if got := eval[string](b, `[...document.querySelectorAll("#benchmark option")].map(o => o.textContent).join("|")`); !strings.Contains(got, "last score 0.9000") {
		t.Errorf("the picker reads %q, want the full run's last score", got)
	}
	b.clickJS(`#runs tr.run[data-id="` + part.ID + `"] td.mono`)
	poll[bool](b, "the partial run's panel", `document.querySelector("#live #run-score .badge.partial") !== null`, 10*time.Second,
		`(document.getElementById("live") || {innerText: ""}).innerText`)
	b.screenshot("runs-partial")
}

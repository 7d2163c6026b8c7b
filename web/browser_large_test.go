package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// largeRunExamples is the size of the run whose results the browser pages through.
const largeRunExamples = 100_000

// TestBrowserLargeRun runs a 100,000-example benchmark on the server, then opens its results:
// the page must show its first rows, page forward and filter quickly, holding one page of
// results, never the run.
func TestBrowserLargeRun(t *testing.T) {
	requireBrowser(t)
	var data strings.Builder
	for i := range largeRunExamples {
		text := strings.Repeat("a", 1+i%7)
		label := "odd"
		if len(text)%2 == 0 {
			label = "even"
		}
		if i%10 == 3 {
			label = "even" // a wrong answer now and then
		}
		fmt.Fprintf(&data, `{"input":{"text":"%s #%d"},"expected":{"label":"%s"}}`+"\n", text, i, label)
	}
	dir := labelWorkspace(t, data.String(), "bindings:\n  labeller:\n    command: [./label-adapter]\n")
	srv := startServer(t, dir)
	var started struct {
		ID string `json:"id"`
	}
	start := time.Now()
	srv.postJSON(t, "/api/runs", `{"benchmark": "benchmark.yaml", "concurrency": 4}`, &started)
	var run struct {
		Status string `json:"status"`
		Done   int    `json:"done"`
	}
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		srv.getJSON(t, "/api/runs/"+started.ID, &run)
		if run.Status != "queued" && run.Status != "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s: %s, %d done after 120 s", started.ID, run.Status, run.Done)
		}
	}
	if run.Status != "completed" || run.Done != largeRunExamples {
		t.Fatalf("run %s: %s with %d done", started.ID, run.Status, run.Done)
	}
	t.Logf("%d examples run and stored by the server in %.1f s", largeRunExamples, time.Since(start).Seconds())

	b := newBrowser(t, 60*time.Second)
	begin := time.Now()
	b.run(chromedp.Navigate(srv.URL("/results?run=" + started.ID)))
	rows := poll[int](b, "the first page of results", `document.querySelectorAll("#results-table tr.result").length`, 20*time.Second, "")
	first := time.Since(begin)
	if rows == 0 || rows > 100 {
		t.Errorf("the first page has %d rows, want a page (1 to 100)", rows)
	}
	firstIndex := func() string {
		return eval[string](b, `(document.querySelector("#results-table tr.result") || {dataset: {}}).dataset.index || ""`)
	}
	// Page forward: each click must bring the next rows.
	var clicks []float64
	for range 3 {
		before := firstIndex()
		t0 := time.Now()
		b.run(chromedp.Click(chromedp.ID("next-page")))
		poll[bool](b, "the next page", `(document.querySelector("#results-table tr.result") || {dataset: {}}).dataset.index !== `+js(before), 10*time.Second, "")
		clicks = append(clicks, ms(time.Since(t0)))
	}
	// Filter by status: only execution errors (every 1,000th example).
	t0 := time.Now()
	b.setControl("#status-filter", "execution_error")
	poll[bool](b, "the filtered page", `[...document.querySelectorAll("#results-table tr.result")].every(r => r.dataset.status === "execution_error") && document.querySelectorAll("#results-table tr.result").length > 0`, 10*time.Second, "")
	filtered := ms(time.Since(t0))
	if idx := firstIndex(); idx != "999" {
		t.Errorf("the first execution error is example %s, want 999", idx)
	}
	heap := eval[float64](b, `performance.memory ? performance.memory.usedJSHeapSize / 1048576 : -1`)
	t.Logf("results of %d examples: first page (%d rows) in %.0f ms from navigation, next page %.0f / %.0f / %.0f ms, filter %.0f ms; JS heap %.1f MB",
		largeRunExamples, rows, ms(first), clicks[0], clicks[1], clicks[2], filtered, heap)
	b.screenshot("results-large")
	b.finish()
}

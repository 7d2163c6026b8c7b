package web_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestBrowserExamplesWorkspace is what `make run` gives a newcomer: the examples workspace
// served, its benchmarks listed, and a real run — the language-id baseline, which needs
// nothing installed — launched from the browser and finished with the README's score.
func TestBrowserExamplesWorkspace(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, examplesWorkspace(t, "./assets/examples/language-id/langid-baseline"))
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/runs?benchmark=language-id/baseline.yaml"))
	options := poll[string](b, "the workspace's benchmarks", `(() => { const s = document.getElementById("benchmark"); return s && s.options.length > 5 && [...s.options].map(o => o.value).join(","); })()`, 10*time.Second, "")
	for _, want := range []string{"invoices/benchmark.yaml", "translation/benchmark.yaml", "speech/benchmark.yaml", "language-id/benchmark.yaml", "language-id/baseline.yaml", "model/benchmark.yaml"} {
		if !strings.Contains(options, want) {
			t.Errorf("the runs page does not list %s: %s", want, options)
		}
	}
	poll[bool](b, "the binding's name", `(document.getElementById("binding") || {textContent: ""}).textContent.includes("langid-baseline")`, 10*time.Second, "")
	b.clickJS("#start") // the form may still move as the runtime file's bindings load (a model's options appear)
	poll[bool](b, "the run to complete", `(document.getElementById("run-status") || {textContent: ""}).textContent.trim() === "completed"`, 30*time.Second,
		`(document.getElementById("run-error") || {textContent: ""}).textContent`)
	score := poll[string](b, "the score", `(() => { const s = document.querySelector("#run-score .score"); return s && s.textContent.trim(); })()`, 5*time.Second, "")
	if score != "0.8393" {
		t.Errorf("the baseline scored %s in the browser; the README says 0.8393", score)
	}
	t.Logf("examples workspace: language-id baseline run from the browser, score %s", score)
	b.screenshot("examples-run")

	// A system that is not there (its adapter was not built here) is refused before the run,
	// saying what to do.
	b.ignoreConsole("status of 422") // the refused start, shown on the page
	b.open(srv.URL("/runs?benchmark=invoices/benchmark.yaml"))
	poll[bool](b, "the invoices binding", `(document.getElementById("binding") || {textContent: ""}).textContent.includes("invoice-ocr")`, 10*time.Second, "")
	b.clickJS("#start") // the form may still move as the runtime file's bindings load (a model's options appear)
	msg := poll[string](b, "the refusal", `(() => { const e = document.getElementById("run-error"); return e && e.textContent.includes("missing_binding") && e.textContent; })()`, 10*time.Second, "")
	if !strings.Contains(msg, "make examples") {
		t.Errorf("the refusal does not say how to get the system: %q", msg)
	}
	b.screenshot("examples-refused")
}

// TestBrowserExamplesLeaderboard is issue 13's newcomer: `make run`, the language-id
// leaderboard, one click, and both of its systems (langdetect, from benchmark.yaml, and the
// baseline, from baseline.yaml: one benchmark, two files) ranked with their intervals.
func TestBrowserExamplesLeaderboard(t *testing.T) {
	requireBrowser(t)
	if _, err := os.Stat("/usr/lib/python3/dist-packages/langdetect"); err != nil {
		t.Skip("langdetect is not installed (make examples-deps installs python3-langdetect)")
	}
	srv := startServer(t, examplesWorkspace(t, "./assets/examples/language-id/..."))
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/leaderboard"))
	// The list puts the two files of the one benchmark together.
	poll[bool](b, "the language-id benchmark's two files in one row", `[...document.querySelectorAll("#board-list tr.board-row")].some(r =>
		r.dataset.files === "2" && r.textContent.includes("language-id/benchmark.yaml") && r.textContent.includes("language-id/baseline.yaml"))`, 10*time.Second, "")
	b.clickJS(`#board-list a.board-link[href="/leaderboard?benchmark=language-id%2Fbenchmark.yaml"]`)
	plan := poll[string](b, "the button", `document.getElementById("run-every") && document.getElementById("run-every-plan").textContent`, 10*time.Second, "")
	if !strings.Contains(plan, "language-id/baseline.yaml") {
		t.Errorf("the plan %q does not name baseline.yaml's system", plan)
	}
	b.clickJS("#run-every")
	entries := poll[string](b, "both systems ranked", `(() => {
		const rs = [...document.querySelectorAll("#board tr.entry")];
		return rs.length === 2 && rs.every(r => r.querySelector(".forest .whisker")) && JSON.stringify(rs.map(r => r.dataset.system + " " + r.querySelector(".entry-score").textContent));
	})()`, 60*time.Second, `(document.getElementById("leaderboard-page") || {textContent: ""}).textContent.slice(0, 2000)`)
	if !strings.Contains(entries, "langdetect") || !strings.Contains(entries, "langid-baseline 0.8393") {
		t.Errorf("board %s, want langdetect and the baseline at the README's 0.8393", entries)
	}
	t.Logf("language-id leaderboard after one click: %s; the second is %s", entries, b.text(`#board tr.entry[data-rank="2"] .verdict`))
	b.screenshot("examples-leaderboard")
}

// examplesWorkspace copies the examples workspace, without its stored runs, to
// top/assets/examples of a new folder top, and builds the adapters of pkgs into
// top/bin/examples, where the examples' runtime files look for them, as in the repository.
func examplesWorkspace(t *testing.T, pkgs string) string {
	t.Helper()
	top := t.TempDir()
	ws := filepath.Join(top, "assets", "examples")
	testkit.CopyTree(t, filepath.Join(root(t), "assets", "examples"), ws)
	os.RemoveAll(filepath.Join(ws, ".benchy"))
	build := exec.Command("go", "build", "-o", filepath.Join(top, "bin", "examples")+"/", pkgs)
	build.Dir = root(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", pkgs, err, out)
	}
	return ws
}

package web_test

// Browser tests of the app: the real `benchy serve` and a headless Chromium
// (browser_harness_test.go). Run them with
//
//	make build && BENCHY_BROWSER=1 go test ./web/ -run Browser -v
//
// Screenshots go to web/testdata/out/. Tests of pages not written yet skip while the
// elements they need are missing ("waiting for editor").

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// maxWasmTransfer is the most app.wasm may cost to download, compressed.
const maxWasmTransfer = 3 << 20

// TestBrowserAppLoads loads the app cold (a fresh profile) and warm (the service worker
// installed), checks that app.wasm travels compressed and small enough, and that the page
// logs no error: the server's strict Content-Security-Policy shows a violation as one.
func TestBrowserAppLoads(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)

	cold, _ := b.open(srv.URL("/"))
	fetched := eval[float64](b, `(performance.getEntriesByName(location.origin + "/web/app.wasm")[0] || {responseEnd: 0}).responseEnd`)
	wasm := b.waitRequest("/web/app.wasm")
	var total float64
	all := b.finished("")
	for _, r := range all {
		total += r.Encoded
	}
	t.Logf("cold load: app.wasm requested %d times by the page", len(b.finished("/web/app.wasm")))
	t.Logf("cold load: app.wasm %d bytes transferred (Content-Encoding %q, status %d); all %d requests %d bytes",
		int64(wasm.Encoded), wasm.Encoding, wasm.Status, len(all), int64(total))
	if wasm.Status != 200 || wasm.FailedText != "" {
		t.Errorf("app.wasm: status %d %s", wasm.Status, wasm.FailedText)
	}
	if wasm.Encoding != "br" && wasm.Encoding != "gzip" {
		t.Errorf("app.wasm came with Content-Encoding %q, want br or gzip", wasm.Encoding)
	}
	if wasm.Encoded > maxWasmTransfer {
		t.Errorf("app.wasm transferred %d bytes, more than %d", int64(wasm.Encoded), maxWasmTransfer)
	}
	if wasm.MIME != "application/wasm" {
		t.Errorf("app.wasm has MIME type %q, want application/wasm", wasm.MIME)
	}

	coldReady := readyMark(b)
	t.Logf("cold phases: %s", phases(b))

	b.waitServiceWorker()
	var warm time.Duration
	var warmReady []float64
	fromSW := true
	for range 3 {
		b.resetNetwork()
		warm, _ = b.open(srv.URL("/"))
		warmReady = append(warmReady, readyMark(b))
		t.Logf("warm phases: %s", phases(b))
		fromSW = fromSW && b.waitRequest("/web/app.wasm").FromSW
	}
	if !fromSW {
		t.Errorf("warm load: app.wasm did not come from the service worker")
	}
	slices.Sort(warmReady)
	// The page's "benchy-ready" mark is when the editor became interactive (its first compile
	// rendered), on the navigation's clock; the test's own polling adds its interval on top.
	t.Logf("navigation to interactive: cold %.0f ms (app.wasm downloaded at %.0f ms; the test saw it at %.0f ms), warm median %.0f ms of %v (last seen by the test at %.0f ms); targets 1500 / 500 ms",
		coldReady, fetched, ms(cold), warmReady[1], warmReady, ms(warm))
	b.screenshot("app-loads")
}

// phases says where a load's time went, on the navigation's clock: the page's response,
// app.wasm's fetch (the service worker's start and the response's end), the compiled module
// instantiated ("benchy-instantiated", in the server's app.js), Go's main entered
// ("benchy-main") and the editor interactive ("benchy-ready").
func phases(b *browser) string {
	return eval[string](b, `(() => {
		const f = n => { const e = performance.getEntriesByName(n)[0]; return e ? Math.round(e.startTime) : -1; };
		const nav = performance.getEntriesByType("navigation")[0] || {};
		const w = performance.getEntriesByName(location.origin + "/web/app.wasm")[0] || {};
		return "page " + Math.round(nav.responseEnd || -1) + " ms, app.wasm fetched " + Math.round(w.fetchStart || -1) + "–" + Math.round(w.responseEnd || -1) +
			" ms, instantiated " + f("benchy-instantiated") + " ms, main " + f("benchy-main") + " ms, ready " + f("benchy-ready") + " ms";
	})()`)
}

// readyMark is the page-clock time of the app's "benchy-ready" performance mark.
func readyMark(b *browser) float64 {
	return eval[float64](b, `(performance.getEntriesByName("benchy-ready")[0] || {startTime: -1}).startTime`)
}

// invoiceYAML is the paper's invoice example, valid, as the workspace has it.
func invoiceYAML(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root(t), "engine", "testdata", "invoice", "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// editor opens the editor on srv, skipping the test while the editor is not written.
func editor(t *testing.T, b *browser, srv *benchyServer) {
	t.Helper()
	b.open(srv.URL("/"))
	for _, id := range []string{"yaml", "diagnostics", "compile-state"} {
		if !b.exists("#" + id) {
			t.Fatal("the editor has no #" + id)
		}
	}
}

// setYAML replaces the editor's text as a paste would: the value, then an input event.
func (b *browser) setYAML(text string) {
	b.t.Helper()
	eval[bool](b, `(() => {
		const y = document.getElementById("yaml");
		y.focus();
		y.value = `+js(text)+`;
		y.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	})()`)
}

// diagnostic is one li.diag of the editor, or one entry of `benchy validate --json`.
type diagnostic struct {
	Code   string `json:"code"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

func (d diagnostic) String() string { return fmt.Sprintf("%s@%d:%d", d.Code, d.Line, d.Column) }

func diagStrings(ds []diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.String()
	}
	sort.Strings(out)
	return out
}

// waitProblems waits until the editor shows n problems (n > 0) and returns its diagnostics.
func (b *browser) waitProblems(n int) []diagnostic {
	b.t.Helper()
	want := fmt.Sprintf("%d problem", n)
	raw := poll[string](b, "the editor to show "+want+"(s)", `(() => {
		const s = document.getElementById("compile-state");
		const items = document.querySelectorAll("#diagnostics li.diag");
		if (!s || !s.textContent.trim().startsWith(`+js(want)+`) || items.length !== `+strconv.Itoa(n)+`) return false;
		return JSON.stringify([...items].map(li => ({code: li.dataset.code, line: +li.dataset.line, column: +li.dataset.column})));
	})()`, 10*time.Second, editorStateJS)
	var ds []diagnostic
	if err := json.Unmarshal([]byte(raw), &ds); err != nil {
		b.t.Fatal(err)
	}
	return ds
}

// waitValid waits until the editor compiled its text without a problem and shows the IR hash
// want ("" for any); it returns the hash shown.
func (b *browser) waitValid(want string) string {
	b.t.Helper()
	return poll[string](b, "the editor to compile to "+want, `(() => {
		const s = document.getElementById("compile-state"), h = document.getElementById("ir-hash");
		if (!s || s.textContent.trim() !== "valid" || !h) return false;
		const hash = h.textContent.trim();
		return (`+js(want)+` === "" || hash === `+js(want)+`) && hash;
	})()`, 10*time.Second, editorStateJS)
}

const editorStateJS = `(() => {
	const text = id => { const e = document.getElementById(id); return e ? JSON.stringify(e.textContent.trim()) : "none"; };
	const diags = [...document.querySelectorAll("#diagnostics li.diag")].map(li => li.dataset.code + "@" + li.dataset.line + ":" + li.dataset.column);
	return "#compile-state " + text("compile-state") + ", #ir-hash " + text("ir-hash") + ", diagnostics " + JSON.stringify(diags);
})()`

// writeTemp writes text to a file of the test's temporary directory.
func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// cliDiagnostics is what `benchy validate --json` says about text.
func cliDiagnostics(t *testing.T, text string) []diagnostic {
	t.Helper()
	file := writeTemp(t, "benchmark.yaml", text)
	out, stderr, _ := benchyCLI(t, filepath.Dir(file), "validate", "--json", file)
	var ds []diagnostic
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("benchy validate --json: %v\n%s%s", err, out, stderr)
	}
	return ds
}

// cliHash is what `benchy compile --hash` prints for text.
func cliHash(t *testing.T, text string) string {
	t.Helper()
	file := writeTemp(t, "benchmark.yaml", text)
	out, stderr, code := benchyCLI(t, filepath.Dir(file), "compile", "--hash", file)
	if code != 0 {
		t.Fatalf("benchy compile --hash: exit %d\n%s", code, stderr)
	}
	return strings.TrimSpace(out)
}

// offsetOf is the string index of line:col (1-based) in ASCII text.
func offsetOf(text string, line, col int) int {
	lines := strings.SplitAfter(text, "\n")
	off := 0
	for i := 0; i < line-1 && i < len(lines); i++ {
		off += len(lines[i])
	}
	return off + col - 1
}

// brokenInvoice is the invoice example with a misspelt task and the weight of total gone.
func brokenInvoice(t *testing.T) string {
	t.Helper()
	good := invoiceYAML(t)
	bad := strings.Replace(good, "task: extract", "task: extrct", 1)
	bad = strings.Replace(bad, "    total: 5\n", "", 1)
	if bad == good || strings.Count(bad, "\n") != strings.Count(good, "\n")-1 {
		t.Fatal("the invoice example changed: update brokenInvoice")
	}
	return bad
}

// TestBrowserDiagnosticsAppear pastes an invalid benchmark into the editor and expects the
// diagnostics `benchy validate --json` gives, then the valid one and expects the IR and hash
// of `benchy compile`; then types single keys that break and fix the file, timing each
// keystroke until the editor shows the new state.
func TestBrowserDiagnosticsAppear(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)

	bad := brokenInvoice(t)
	want := cliDiagnostics(t, bad)
	codes := map[string]bool{}
	for _, d := range want {
		codes[d.Code] = true
	}
	if !codes["unknown_task"] || !codes["missing_weight"] {
		t.Fatalf("benchy validate --json of the broken example: %v, want unknown_task and missing_weight", want)
	}
	b.setYAML(bad)
	got := b.waitProblems(len(want))
	if g, w := diagStrings(got), diagStrings(want); !slices.Equal(g, w) {
		t.Errorf("diagnostics in the browser: %v\nbenchy validate --json: %v", g, w)
	}
	if b.exists("#ir-hash") {
		t.Errorf("#ir-hash is shown for an invalid benchmark")
	}
	// Clicking a diagnostic puts the YAML's cursor at its line and column.
	last := want[len(want)-1]
	b.run(chromedp.Click(`#diagnostics li.diag:last-child`))
	caretAt := eval[int](b, `(() => { const y = document.getElementById("yaml"); return document.activeElement === y ? y.selectionStart : -1; })()`)
	if wantAt := offsetOf(bad, last.Line, last.Column); caretAt != wantAt {
		t.Errorf("clicking %s at %d:%d put the cursor at %d, want %d", last.Code, last.Line, last.Column, caretAt, wantAt)
	}
	b.screenshot("editor-diagnostics")

	good := invoiceYAML(t)
	b.setYAML(good)
	hash := b.waitValid(cliHash(t, good))
	file := writeTemp(t, "benchmark.yaml", good)
	pretty, _, _ := benchyCLI(t, filepath.Dir(file), "compile", "--pretty", file)
	if ir := eval[string](b, `document.getElementById("ir").textContent`); strings.TrimSpace(ir) != strings.TrimSpace(pretty) {
		t.Errorf("#ir differs from benchy compile --pretty:\n%s\n---\n%s", ir, pretty)
	}
	t.Logf("valid: #ir-hash %s = benchy compile --hash", hash)
	b.screenshot("editor-valid")

	// Keystrokes: after "task: extract" type "x" (unknown_task), then Backspace (valid).
	caret := strings.Index(good, "task: extract") + len("task: extract")
	eval[bool](b, `(() => {
		window.benchyKeys = {down: 0, changed: 0, state: ""};
		const y = document.getElementById("yaml");
		y.addEventListener("keydown", () => { window.benchyKeys.down = performance.now(); }, {capture: true});
		new MutationObserver(() => {
			const s = document.getElementById("compile-state");
			const text = s ? s.textContent.trim() : "";
			if (text !== window.benchyKeys.state) {
				window.benchyKeys.state = text;
				window.benchyKeys.changed = performance.now();
			}
		}).observe(document.body, {subtree: true, childList: true, characterData: true});
		return true;
	})()`)
	var inPage, roundTrip []float64
	for range 5 {
		for _, step := range []struct{ key, state string }{{"x", "1 problem"}, {kb.Backspace, "valid"}} {
			if step.key == "x" {
				eval[bool](b, fmt.Sprintf(`(() => { const y = document.getElementById("yaml"); y.focus(); y.setSelectionRange(%d, %d); return true; })()`, caret, caret))
			}
			start := time.Now()
			b.run(chromedp.SendKeys(chromedp.ID("yaml"), step.key))
			d := poll[float64](b, "the editor to show "+step.state+" after a keystroke", `(() => {
				const k = window.benchyKeys;
				return k.changed > k.down && k.state.startsWith(`+js(step.state)+`) && (k.changed - k.down);
			})()`, 5*time.Second, editorStateJS)
			roundTrip = append(roundTrip, ms(time.Since(start)))
			inPage = append(inPage, d)
		}
	}
	b.waitValid(hash)
	med, worst := stats(inPage)
	rtMed, rtWorst := stats(roundTrip)
	t.Logf("keystroke to updated diagnostics (%d keystrokes): median %.1f ms, max %.1f ms in the page (target ≤ 100 ms incl. debounce); %.1f / %.1f ms as the test saw it",
		len(inPage), med, worst, rtMed, rtWorst)
	if med > 500 {
		t.Errorf("keystroke to updated diagnostics: median %.0f ms, far over the 100 ms target", med)
	}
}

// stats returns the median and the maximum.
func stats(xs []float64) (median, worst float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)-1]
}

// setControl sets a form control's value as a user would, then sends input and change.
func (b *browser) setControl(selector, value string) {
	b.t.Helper()
	// A select's option may come with a list still loading (Open…): wait for it too.
	ok := poll[string](b, "the control "+selector+" with "+value, `(() => {
		const el = document.querySelector(`+js(selector)+`);
		if (!el) return false;
		if (el.tagName === "SELECT" && ![...el.options].some(o => o.value === `+js(value)+`)) return false;
		el.focus();
		el.value = `+js(value)+`;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		el.dispatchEvent(new Event("change", {bubbles: true}));
		el.blur();
		return "ok";
	})()`, 5*time.Second, `(() => {
		const el = document.querySelector(`+js(selector)+`);
		return !el ? "no such control" : el.tagName === "SELECT" ? "options " + JSON.stringify([...el.options].map(o => o.value)) : "";
	})()`)
	if ok != "ok" {
		b.t.Fatalf("setting %s to %q: %s", selector, value, ok)
	}
}

// count is the number of elements matching the CSS selector.
func (b *browser) count(selector string) int {
	b.t.Helper()
	return eval[int](b, fmt.Sprintf("document.querySelectorAll(%s).length", js(selector)))
}

// outputRow selects the n-th (from 1) top-level output field row.
func outputRow(n int) string { return fmt.Sprintf("#output-fields > li:nth-child(%d) > .field ", n) }

// TestBrowserFormOnly builds a benchmark with the form alone, from the extract template, and
// checks that the YAML the editor writes is canonical (`benchy fmt` leaves it as it is) and
// compiles with the real binary to the IR hash the browser shows.
func TestBrowserFormOnly(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	for _, sel := range []string{"#template", "#new", "#output-fields", "#add-output", "#weights", "#data-path", "#system-type", "#system-id"} {
		if !b.exists(sel) {
			t.Fatal("the editor has no " + sel)
		}
	}

	b.setControl("#template", "extract")
	b.run(chromedp.Click(chromedp.ID("new")))
	poll[bool](b, "a benchmark from the extract template", `document.querySelectorAll("#output-fields > li").length > 0`, 5*time.Second, editorStateJS)
	fields := b.count("#output-fields > li")

	// Each step must show in the YAML.
	step := func(what, contains string) {
		t.Helper()
		poll[bool](b, what+" to show in the YAML ("+contains+")", `document.getElementById("yaml").value.includes(`+js(contains)+`)`, 10*time.Second,
			`"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
	}
	b.setControl(outputRow(1)+"input.name", "invoice_id")
	step("renaming the first output field", "invoice_id:")
	// The button's own click, not a mouse event at its place: the panes beside the form may
	// still be laying out after the rename, and a click at stale coordinates missed it (once
	// in a loaded make test).
	eval[bool](b, `(document.getElementById("add-output").click(), true)`)
	poll[bool](b, "a new output field", fmt.Sprintf(`document.querySelectorAll("#output-fields > li").length === %d`, fields+1), 10*time.Second, editorStateJS)
	b.setControl(outputRow(fields+1)+"input.name", "currency")
	step("naming the new output field", "currency: ")
	b.setControl(outputRow(fields+1)+"select.type", "enum")
	for _, m := range []string{"EUR", "USD"} { // chips: each member typed, then Enter
		b.run(chromedp.SendKeys(chromedp.CSS(outputRow(fields+1)+"input.members"), m+kb.Enter))
	}
	for _, m := range []string{"a", "b"} { // the members an enum starts with
		b.clickJS(outputRow(fields+1) + `.chip-x[title="remove ` + m + `"]`)
	}
	step("making it an enum", "enum: [EUR, USD]")
	b.setControl(`#weights input[data-path="currency"]`, "2")
	step("weighting it", "currency: 2")
	b.setControl("#data-path", "./data/invoices.jsonl")
	step("setting the data path", "path: ./data/invoices.jsonl")
	b.setControl("#system-type", "external")
	b.setControl("#system-id", "invoice-extractor-v7")
	step("setting the AI-system", "id: invoice-extractor-v7")

	hash := b.waitValid("")
	yaml := eval[string](b, `document.getElementById("yaml").value`)
	file := writeTemp(t, "benchmark.yaml", yaml)
	formatted, stderr, code := benchyCLI(t, filepath.Dir(file), "fmt", file)
	if code != 0 {
		t.Fatalf("benchy fmt: exit %d\n%s", code, stderr)
	}
	if formatted != yaml {
		t.Errorf("the form's YAML is not canonical; benchy fmt changes it:\n%s\n---\n%s", yaml, formatted)
	}
	if want := cliHash(t, yaml); hash != want {
		t.Errorf("#ir-hash %s, benchy compile --hash %s", hash, want)
	}
	t.Logf("form-only benchmark: %d output fields, hash %s", fields+1, hash)
	b.screenshot("editor-form")
}

// TestBrowserOffline loads the app, lets the service worker take over, stops the server and
// reloads: the editor still renders and compiles. Then the server comes back on the same port.
func TestBrowserOffline(t *testing.T) {
	requireBrowser(t)
	srv := startServer(t, invoiceWorkspace(t, t.TempDir(), false))
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/"))
	b.waitServiceWorker()

	// Calls of the API fail while the server is down: through the service worker as
	// net::ERR_FAILED, without it as net::ERR_CONNECTION_REFUSED. Said before the stop:
	// the shell's probe (every 3 s) may fail the moment the server is gone.
	b.ignoreConsole("net::ERR_CONNECTION_REFUSED")
	b.ignoreConsole("net::ERR_FAILED " + srv.URL("/api/"))
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	b.resetNetwork()
	offline, _ := b.open(srv.URL("/"))
	t.Logf("offline reload: interactive in %.0f ms", ms(offline))
	if b.exists("#server-status") {
		poll[bool](b, "the status to say the server is offline", `document.getElementById("server-status").classList.contains("offline")`, 5*time.Second,
			`document.getElementById("server-status").textContent`)
	}
	for _, r := range b.finished("") {
		if r.FailedText != "" {
			t.Logf("offline: %s failed: %s", r.URL, r.FailedText)
		}
	}
	bad := brokenInvoice(t)
	want := cliDiagnostics(t, bad)
	b.setYAML(bad)
	got := b.waitProblems(len(want))
	if g, w := diagStrings(got), diagStrings(want); !slices.Equal(g, w) {
		t.Errorf("offline diagnostics: %v, want %v", g, w)
	}
	good := invoiceYAML(t)
	b.setYAML(good)
	b.waitValid(cliHash(t, good))
	// Opening a workspace file needs the server: the editor says so and keeps the text.
	b.open(srv.URL("/?path=benchmark.yaml"))
	poll[bool](b, "a note that the file cannot be opened", `(document.getElementById("editor-note") || {textContent: ""}).textContent.includes("cannot open")`, 5*time.Second, "")
	if kept := eval[string](b, `document.getElementById("yaml").value`); kept != good {
		t.Errorf("offline open replaced the kept text with %q", kept)
	}
	b.screenshot("offline")

	if err := srv.start(); err != nil {
		t.Fatal(err)
	}
	b.open(srv.URL("/"))
	// The text typed offline is still there after a reload.
	if kept := eval[string](b, `document.getElementById("yaml").value`); kept != good {
		t.Errorf("after a reload the editor shows %q, want the text typed before", kept)
	}
	if b.exists("#server-status") {
		poll[bool](b, "the status to say the server is back", `!document.getElementById("server-status").classList.contains("offline")`, 10*time.Second,
			`document.getElementById("server-status").textContent`)
	}
}

// TestBrowserRunFromBrowser starts a run of the invoice example from the runs page and
// compares its score with `benchy run` of the same benchmark; then screenshots the results,
// the ontology and, with two runs, the comparison.
func TestBrowserRunFromBrowser(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/runs?benchmark=benchmark.yaml"))
	if !b.exists("#start") {
		b.screenshot("runs")
		t.Fatal("the runs page has no #start")
	}

	want := cliScore(t)
	b.clickJS("#start") // the form may still move as the runtime file's bindings load (a model's options appear)
	poll[bool](b, "the run to complete", `(() => {
		const s = document.getElementById("run-status");
		return s !== null && s.textContent.trim() === "completed";
	})()`, 20*time.Second, `(() => { const s = document.getElementById("run-status"); return "#run-status " + (s ? s.textContent : "none"); })()`)
	done := eval[string](b, `(document.getElementById("run-done") || {}).textContent || ""`)
	total := eval[string](b, `(document.getElementById("run-total") || {}).textContent || ""`)
	if strings.TrimSpace(done) == "" || strings.TrimSpace(done) != strings.TrimSpace(total) {
		t.Errorf("#run-done %q, #run-total %q", done, total)
	}
	if width := eval[string](b, `(document.querySelector("#run-progress > div") || {style: {}}).style.width || ""`); width != "100%" {
		t.Errorf("progress bar at %q when the run completed, want 100%%", width)
	}
	// The score itself: #run-score may go on with its confidence interval.
	scoreText := eval[string](b, `(() => {
		const s = document.getElementById("run-score");
		if (!s) return "";
		return (s.querySelector(".score") || s).textContent.trim();
	})()`)
	score, err := parseScore(scoreText)
	if err != nil {
		t.Errorf("#run-score %q: %v", scoreText, err)
	} else if fmt.Sprintf("%.4f", score) != fmt.Sprintf("%.4f", want) {
		t.Errorf("#run-score %q, benchy run scored %.4f", scoreText, want)
	}
	t.Logf("run from the browser: %s/%s examples, score %q; benchy run: %.4f", done, total, scoreText, want)
	b.screenshot("runs")

	var list struct {
		Runs []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"runs"`
	}
	srv.getJSON(t, "/api/runs?benchmark=benchmark.yaml", &list)
	var ids []string
	for _, r := range list.Runs {
		if r.Status == "completed" {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		t.Fatalf("GET /api/runs lists no completed run: %+v", list.Runs)
	}
	id := ids[0]

	// The other pages, for the screenshots; the results page's table when it is written.
	b.open(srv.URL("/results?run=" + id))
	rows := poll[int](b, "rows in #results-table", `document.querySelectorAll("#results-table tr.result").length`, 10*time.Second, "")
	if rows != 10 {
		t.Errorf("#results-table has %d rows, want the run's 10 examples", rows)
	}
	// Each row shows the example's input and expected output (read from the dataset) beside
	// the prediction, its marks and statuses.
	head := eval[string](b, `document.querySelector("#results-table thead").textContent`)
	first := eval[string](b, `document.querySelector("#results-table tr.result").textContent`)
	for _, want := range []string{"Input", "Expected"} {
		if !strings.Contains(head, want) {
			t.Errorf("#results-table has no %s column: %q", want, head)
		}
	}
	if !strings.Contains(first, "invoice-001.png") || !strings.Contains(first, "F-001") {
		t.Errorf("the first row does not show example 0's input and expected output: %q", first)
	}
	statuses := eval[string](b, `[...document.querySelectorAll("#results-table tr.result")].map(r => r.dataset.status).sort().join(",")`)
	if want := "execution_error,execution_error,invalid_output,invalid_output,valid,valid,valid,valid,valid,valid"; statuses != want {
		t.Errorf("statuses %s, want %s", statuses, want)
	}
	t.Logf("results of %s: %d rows", id, rows)
	b.screenshot("results")
	b.open(srv.URL("/ontology"))
	b.screenshot("ontology")
	if len(ids) < 2 {
		var started struct {
			ID string `json:"id"`
		}
		srv.postJSON(t, "/api/runs", `{"benchmark": "benchmark.yaml"}`, &started)
		waitRun(t, srv, started.ID)
		ids = append([]string{started.ID}, ids...)
	}
	b.open(srv.URL("/compare?a=" + ids[1] + "&b=" + ids[0]))
	if b.settle("#comparison, #compare-error") {
		if b.exists("#compare-error") {
			t.Errorf("/compare of two runs: %s", eval[string](b, `document.getElementById("compare-error").textContent`))
		} else if b.exists("#compare-delta") {
			t.Logf("compare %s with %s: delta %s", ids[1], ids[0], eval[string](b, `document.getElementById("compare-delta").textContent`))
		}
	}
	b.screenshot("compare")
}

// settle waits up to 5 s for an element matching the CSS selector, for a screenshot of a
// page that loads its data after it renders; it reports whether one came.
func (b *browser) settle(selector string) bool {
	b.t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](fmt.Sprintf("document.querySelector(%s) !== null", js(selector)),
		chromedp.WithPollingTimeout(5*time.Second), chromedp.WithPollingInterval(20*time.Millisecond)))
	return err == nil
}

// waitRun waits until the server's run id completed.
func waitRun(t *testing.T, srv *benchyServer, id string) {
	t.Helper()
	var run struct {
		Status string `json:"status"`
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		srv.getJSON(t, "/api/runs/"+id, &run)
		if run.Status == "completed" {
			return
		}
	}
	t.Fatalf("run %s: %s after 30 s", id, run.Status)
}

var scoreLine = regexp.MustCompile(`score (\d+\.\d+)`)

// cliScore runs the invoice example with `benchy run` in a workspace of its own.
func cliScore(t *testing.T) float64 {
	t.Helper()
	dir := invoiceWorkspace(t, t.TempDir(), true)
	_, stderr, code := benchyCLI(t, dir, "run", "--no-store", "-o", filepath.Join(t.TempDir(), "results.json"), "benchmark.yaml")
	if code != 0 {
		t.Fatalf("benchy run: exit %d\n%s", code, stderr)
	}
	m := scoreLine.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("benchy run printed no score:\n%s", stderr)
	}
	score, _ := strconv.ParseFloat(m[1], 64)
	if m[1] != "0.4333" {
		t.Errorf("benchy run of the invoice example scored %s, want 0.4333", m[1])
	}
	return score
}

var number = regexp.MustCompile(`\d+(\.\d+)?`)

// parseScore reads a score as the page shows it: 0.4333, or 43.33%.
func parseScore(s string) (float64, error) {
	m := number.FindString(s)
	if m == "" {
		return 0, fmt.Errorf("no number")
	}
	v, err := strconv.ParseFloat(m, 64)
	if strings.Contains(s, "%") {
		v /= 100
	}
	return v, err
}

// TestBrowserCompileLarge times the browser's compile of a benchmark of 1,000 output fields.
func TestBrowserCompileLarge(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	if !b.exists("#compile-ms") {
		t.Fatal("the editor has no #compile-ms")
	}
	big := largeBenchmark(1000)
	want := cliHash(t, big)
	start := time.Now()
	b.setYAML(big)
	b.waitValid(want)
	wall := time.Since(start)
	text := eval[string](b, `document.getElementById("compile-ms").textContent`)
	compileMS, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil {
		t.Fatalf("#compile-ms %q: %v", text, err)
	}
	// Later compiles run code the browser has optimised by then: change the last weight.
	var again []float64
	for w := 2; w <= 6; w++ {
		edited := strings.Replace(big, "    field_0999: 1\n", "    field_0999: "+strconv.Itoa(w)+"\n", 1)
		if edited == big {
			t.Fatal("largeBenchmark changed: update the edit")
		}
		b.setYAML(edited)
		b.waitValid(cliHash(t, edited))
		v, _ := strconv.ParseFloat(strings.TrimSpace(eval[string](b, `document.getElementById("compile-ms").textContent`)), 64)
		again = append(again, v)
	}
	slices.Sort(again)
	t.Logf("1,000 output fields (%d bytes of YAML): compile in the browser %.1f ms the first time (#compile-ms), then median %.1f ms of %v; paste to IR shown %.0f ms",
		len(big), compileMS, again[len(again)/2], again, ms(wall))
}

// largeBenchmark is an extract benchmark with n string output fields, each weighted 1.
func largeBenchmark(n int) string {
	var s strings.Builder
	s.WriteString("version: \"1.0\"\nontology_version: \"1.0\"\nbenchmark:\n  task: extract\n  domain: finance\n  language: en\nprogram:\n  input:\n    text: string\n  output:\n")
	for i := range n {
		fmt.Fprintf(&s, "    field_%04d: string\n", i)
	}
	s.WriteString("scoring:\n  weights:\n")
	for i := range n {
		fmt.Fprintf(&s, "    field_%04d: 1\n", i)
	}
	s.WriteString("  aggregator: weighted_mean\ndata:\n  path: ./data/large.jsonl\nai-system:\n  type: external\n  id: large-system\n")
	return s.String()
}

package web_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// secondTab opens a second tab in b's browser: the same profile (its storage), its own page,
// as a user with two tabs of the editor has.
func (b *browser) secondTab() *browser {
	b.t.Helper()
	tab, _ := b.closableTab()
	return tab
}

// closableTab opens another tab as secondTab does and returns what closes it, as a user
// closing the tab would. Its console is checked at the end of the test, closed or not
// (a closed tab's was not).
func (b *browser) closableTab() (*browser, func()) {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	tab := &browser{t: b.t, ctx: ctx, output: b.output, requests: map[network.RequestID]*request{}}
	closeTab := func() {
		chromedp.Cancel(ctx) // closes the tab; the page gets its pagehide
		cancel()
	}
	if err := chromedp.Listen(ctx, tab.event); err != nil {
		closeTab()
		b.t.Fatalf("opening a tab: %v", err)
	}
	b.t.Cleanup(closeTab)   // at the end, if the test did not close it
	b.t.Cleanup(tab.finish) // first: its screenshot while open, its console either way
	tab.run(chromedp.EmulateViewport(1280, 900))
	return tab, closeTab
}

// waitEditorNote waits until the editor's note says want.
func (b *browser) waitEditorNote(want string) {
	b.t.Helper()
	poll[bool](b, "the note "+want, `(document.getElementById("editor-note") || {}).textContent === `+js(want), 10*time.Second,
		`"note: " + JSON.stringify((document.getElementById("editor-note") || {}).textContent)`)
}

// exactText is the text content of the element with id, untrimmed ("" when there is none).
func (b *browser) exactText(id string) string {
	b.t.Helper()
	return eval[string](b, `(document.getElementById(`+js(id)+`) || {}).textContent || ""`)
}

// TestBrowserSaveConflict: two tabs open one file; A saves; B's save of the version it
// opened is refused and B sees both texts, keeps its own, and the file has B's text; A,
// whose version is stale now, takes B's; a save under the name of another existing file
// asks before overwriting it. No save loses the draft.
func TestBrowserSaveConflict(t *testing.T) {
	requireBrowser(t)
	dir := invoiceWorkspace(t, t.TempDir(), false)
	srv := startServer(t, dir)
	file := filepath.Join(dir, "benchmark.yaml")
	onDisk := func() string {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	orig := onDisk()
	a := newBrowser(t, 90*time.Second)
	b := a.secondTab()
	for _, tab := range []*browser{a, b} {
		tab.ignoreConsole("status of 412 (Precondition Failed)") // the conflicts this test makes
		tab.open(srv.URL("/?path=benchmark.yaml"))
		tab.waitEditorNote("opened benchmark.yaml")
	}

	// A's line is long: the conflict panel shows it scrolled in its column, the page does
	// not scroll sideways (its column stuck out of the panel).
	fromA, fromB := orig+"# from tab A "+strings.Repeat("x", 400)+"\n", orig+"# from tab B\n"
	a.setYAML(fromA)
	a.clickJS("#save")
	a.waitEditorNote("saved benchmark.yaml")
	if got := onDisk(); got != fromA {
		t.Fatalf("after A's save the file holds %q", got)
	}

	b.setYAML(fromB)
	b.clickJS("#save")
	poll[bool](b, "B's conflict panel", `document.getElementById("take-theirs") !== null`, 10*time.Second, editorStateJS)
	if got := b.exactText("conflict-theirs"); got != fromA {
		t.Errorf("the conflict shows the file on disk as %q, want A's text", got)
	}
	if got := b.exactText("conflict-mine"); got != fromB {
		t.Errorf("the conflict shows the draft as %q, want B's text", got)
	}
	if got := onDisk(); got != fromA {
		t.Errorf("B's refused save changed the file: %q", got)
	}
	if got := eval[string](b, `document.getElementById("yaml").value`); got != fromB {
		t.Errorf("B's draft after the conflict: %q", got)
	}
	b.screenshot("editor-conflict")
	if w := eval[[]int](b, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
		t.Errorf("with the conflict panel the page is %d px wide in a %d px window", w[0], w[1])
	}
	b.clickJS("#keep-mine")
	b.waitEditorNote("saved benchmark.yaml")
	if got := onDisk(); got != fromB {
		t.Errorf("after keep mine the file holds %q, want B's text", got)
	}
	if b.exists("#conflict") {
		t.Error("the conflict panel stays after keep mine")
	}

	// A's version is stale now: its next save is a conflict too, and A takes B's text.
	a.setYAML(fromA + "# again\n")
	a.clickJS("#save")
	poll[bool](a, "A's conflict panel", `document.getElementById("take-theirs") !== null`, 10*time.Second, editorStateJS)
	a.clickJS("#take-theirs")
	poll[bool](a, "A to show B's text", `document.getElementById("yaml").value === `+js(fromB)+` && !document.getElementById("conflict") && !document.getElementById("unsaved")`, 5*time.Second, editorStateJS)
	if got := onDisk(); got != fromB {
		t.Errorf("take theirs changed the file: %q", got)
	}

	// Save as: a name the editor has no version of creates the file, and asks first when
	// there is one.
	other := filepath.Join(dir, "other.yaml")
	if err := os.WriteFile(other, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	b.setControl("#save-path", "other.yaml")
	b.clickJS("#save")
	poll[bool](b, "the overwrite question", `document.getElementById("confirm-overwrite") !== null && document.getElementById("conflict").dataset.exists === "true"`, 10*time.Second, editorStateJS)
	if data, _ := os.ReadFile(other); string(data) != orig {
		t.Errorf("a save as over an existing file wrote it before asking: %q", data)
	}
	if got := b.exactText("conflict-theirs"); got != orig {
		t.Errorf("the question shows the existing file as %q", got)
	}
	b.screenshot("editor-save-as-exists")
	b.clickJS("#confirm-overwrite")
	b.waitEditorNote("saved other.yaml")
	if data, _ := os.ReadFile(other); string(data) != fromB {
		t.Errorf("after the overwrite other.yaml holds %q, want B's text", data)
	}
	if got := eval[string](b, `location.search`); got != "?path=other.yaml" {
		t.Errorf("the URL names %q, want other.yaml", got)
	}

	// A new name creates the file without a question.
	b.setControl("#save-path", "fresh.yaml")
	b.clickJS("#save")
	b.waitEditorNote("saved fresh.yaml")
	if data, _ := os.ReadFile(filepath.Join(dir, "fresh.yaml")); string(data) != fromB {
		t.Errorf("fresh.yaml holds %q", data)
	}
}

// catchDownloadsJS makes the page keep what it hands the browser to download (the Blob
// of each object URL, and the name of each download link clicked) instead of saving it.
const catchDownloadsJS = `(() => {
	window.benchyBlobs = [];
	window.benchyNames = [];
	const create = URL.createObjectURL.bind(URL);
	URL.createObjectURL = b => { window.benchyBlobs.push(b); return create(b); };
	const click = HTMLAnchorElement.prototype.click;
	HTMLAnchorElement.prototype.click = function () {
		if (this.download) { window.benchyNames.push(this.download); return; }
		return click.call(this);
	};
	return true;
})()`

// lastDownload is the name and the bytes of the last download the page made.
func (b *browser) lastDownload() (string, []byte) {
	b.t.Helper()
	enc := eval[string](b, `(async () => {
		const buf = new Uint8Array(await window.benchyBlobs[window.benchyBlobs.length - 1].arrayBuffer());
		let s = "";
		for (const x of buf) s += String.fromCharCode(x);
		return btoa(s);
	})()`)
	data, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		b.t.Fatal(err)
	}
	return eval[string](b, `window.benchyNames[window.benchyNames.length - 1]`), data
}

// TestBrowserDownloadIR: "Download IR" gives the canonical bytes, whose sha256 is the IR
// hash the editor shows and `benchy compile` gives; "Download IR (pretty)" gives what
// `benchy compile --pretty` prints.
func TestBrowserDownloadIR(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	text := invoiceYAML(t)
	b.setYAML(text)
	shown := b.waitValid(cliHash(t, text))
	eval[bool](b, catchDownloadsJS)

	b.clickJS("#download-ir")
	poll[bool](b, "the IR download", `window.benchyBlobs.length === 1`, 5*time.Second, "")
	name, data := b.lastDownload()
	sum := sha256.Sum256(data)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != shown {
		t.Errorf("the downloaded IR (%d bytes) hashes to %s, the editor shows %s", len(data), got, shown)
	}
	src := writeTemp(t, "benchmark.yaml", text)
	canonical, _, _ := benchyCLI(t, filepath.Dir(src), "compile", src)
	if string(data) != canonical {
		t.Errorf("Download IR differs from benchy compile:\n%.300s\nwant\n%.300s", data, canonical)
	}
	if name != "benchmark.ir.json" {
		t.Errorf("downloaded as %q", name)
	}

	b.clickJS("#download-ir-pretty")
	poll[bool](b, "the pretty IR download", `window.benchyBlobs.length === 2`, 5*time.Second, "")
	prettyName, pretty := b.lastDownload()
	if prettyName != "benchmark.ir.pretty.json" { // not the canonical download's name
		t.Errorf("the pretty IR downloads as %q", prettyName)
	}
	want, _, _ := benchyCLI(t, filepath.Dir(src), "compile", "--pretty", src)
	if string(pretty) != want {
		t.Errorf("Download IR (pretty) differs from benchy compile --pretty:\n%.300s\nwant\n%.300s", pretty, want)
	}
	if !strings.Contains(string(pretty), "\n  ") {
		t.Error("the pretty IR is not indented")
	}
}

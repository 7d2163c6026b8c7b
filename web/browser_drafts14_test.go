package web_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// twoFiles is a workspace with the invoice example at invoices/benchmark.yaml and at
// speech/benchmark.yaml, and their text.
func twoFiles(t *testing.T) (dir, text string) {
	t.Helper()
	dir = invoiceWorkspace(t, t.TempDir(), false)
	orig, err := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"invoices", "speech"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sub, "benchmark.yaml"), orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, string(orig)
}

// waitKept waits until the YAML shows want and a draft in the browser holds it (under
// whatever key: the test is of what a reload or another tab shows).
func (b *browser) waitKept(want string) {
	b.t.Helper()
	poll[bool](b, "the draft kept", `document.getElementById("yaml").value === `+js(want)+` &&
		Object.keys(localStorage).some(k => k.startsWith("benchy-draft") && (JSON.parse(localStorage.getItem(k)) || {}).yaml === `+js(want)+`)`,
		5*time.Second, `"keys: " + Object.keys(localStorage).join(", ")`)
}

// TestBrowserDrafts14Tabs: two tabs edit two files; each reload brings back the tab's own
// edits at its own address (they shared one draft, so a reload showed the other tab's file);
// a new tab on a file another open tab has unsaved edits of opens the file from disk and
// says so (it showed the other tab's draft of another file), also when it is a duplicate
// of that tab. A success note is green.
func TestBrowserDrafts14Tabs(t *testing.T) {
	requireBrowser(t)
	dir, orig := twoFiles(t)
	srv := startServer(t, dir)
	a := newBrowser(t, 120*time.Second)
	b := a.secondTab()

	a.open(srv.URL("/?path=invoices/benchmark.yaml"))
	a.waitEditorNote("opened invoices/benchmark.yaml")
	if cls := eval[string](a, `document.getElementById("editor-note").className`); cls != "notice ok" {
		t.Errorf("the note of a file opened has class %q, want the success notice's \"notice ok\"", cls)
	}
	b.open(srv.URL("/?path=speech/benchmark.yaml"))
	b.waitEditorNote("opened speech/benchmark.yaml")

	fromA, fromB := orig+"# invoices: domain edited in A\n", orig+"# speech: language edited in B\n"
	a.setYAML(fromA)
	a.waitKept(fromA)
	b.setYAML(fromB)
	b.waitKept(fromB)

	for _, tc := range []struct {
		tab        *browser
		path, want string
	}{{a, "invoices/benchmark.yaml", fromA}, {b, "speech/benchmark.yaml", fromB}} {
		tc.tab.reload()
		if got := tc.tab.yamlText(); got != tc.want {
			t.Errorf("after reloading the tab of %s it shows: %s", tc.path, lineDiff(tc.want, got))
		}
		if got := tc.tab.address(); got != "/?path="+url.QueryEscape(tc.path) {
			t.Errorf("after reloading the tab of %s the URL is %q", tc.path, got)
		}
		tc.tab.waitEditorNote("your unsaved changes to " + tc.path + " are back; open it again to discard them")
	}

	// A new tab on speech, which B has unsaved edits of: the file as on disk, and a word.
	// It is a duplicate of B: Chromium copies the sessionStorage, B's tab id with it; the
	// id is B's while B is open, so it takes one of its own.
	bTab := eval[string](b, `JSON.parse(sessionStorage.getItem("benchy-tab")) || ""`)
	c := a.secondTab()
	c.open(srv.URL("/ontology"))
	eval[bool](c, `sessionStorage.setItem("benchy-tab", JSON.stringify(`+js(bTab)+`)), true`)
	c.open(srv.URL("/?path=speech/benchmark.yaml"))
	if got := eval[string](c, `JSON.parse(sessionStorage.getItem("benchy-tab")) || ""`); got == bTab || got == "" {
		t.Errorf("a duplicate of tab %q has the id %q, want one of its own", bTab, got)
	}
	c.waitEditorNote("opened speech/benchmark.yaml")
	if got := c.yamlText(); got != orig {
		t.Errorf("a new tab on speech shows: %s", lineDiff(orig, got))
	}
	if got := c.exactText("drafts-note"); got != "another tab has unsaved edits to speech/benchmark.yaml; this tab shows the file as saved" {
		t.Errorf("a new tab on a file another tab edits says %q", got)
	}
	if c.exists("#discard") {
		t.Error("a new tab asks about discarding edits it never had")
	}
	// B's draft is still B's.
	b.reload()
	if got := b.yamlText(); got != fromB {
		t.Errorf("after another tab opened speech, B shows: %s", lineDiff(fromB, got))
	}
}

// TestBrowserDrafts14Orphan: the unsaved edits of a tab closed come back in the next tab
// opening the same file, with a note, and are that tab's from then on (a reload keeps them).
// A tab opening another file does not take them.
func TestBrowserDrafts14Orphan(t *testing.T) {
	requireBrowser(t)
	dir, orig := twoFiles(t)
	srv := startServer(t, dir)
	a := newBrowser(t, 120*time.Second)
	a.open(srv.URL("/ontology")) // keeps the browser open, not an editor

	b, closeB := a.closableTab()
	b.open(srv.URL("/?path=invoices/benchmark.yaml"))
	b.waitEditorNote("opened invoices/benchmark.yaml")
	mine := orig + "# edited in a tab closed then\n"
	b.setYAML(mine)
	b.waitKept(mine)
	tab := eval[string](b, `JSON.parse(sessionStorage.getItem("benchy-tab")) || ""`)
	closeB()
	closed := time.Now()

	// The closed tab's heartbeat goes stale (said gone: 5 s; silent: 15 s).
	poll[bool](a, "the closed tab's heartbeat to go stale", `(b => !b || Date.now() - b.at > (b.instance ? 15500 : 5500))(JSON.parse(localStorage.getItem(`+js("benchy-tab/"+tab)+`)))`,
		20*time.Second, `localStorage.getItem(`+js("benchy-tab/"+tab)+`)`)
	t.Logf("the closed tab's draft is an orphan %.1f s after it closed", time.Since(closed).Seconds())

	// Another file: opened as on disk; the orphan stays for its own file.
	c := a.secondTab()
	c.open(srv.URL("/?path=speech/benchmark.yaml"))
	c.waitEditorNote("opened speech/benchmark.yaml")
	if got := c.yamlText(); got != orig {
		t.Errorf("a new tab on speech shows: %s", lineDiff(orig, got))
	}

	d := a.secondTab()
	d.open(srv.URL("/?path=invoices/benchmark.yaml"))
	d.waitEditorNote("your unsaved changes to invoices/benchmark.yaml from a closed tab are back")
	if got := d.yamlText(); got != mine {
		t.Fatalf("the new tab on invoices shows: %s", lineDiff(mine, got))
	}
	if !d.exists("#unsaved") {
		t.Error("the edits back have no unsaved badge")
	}
	if got := eval[bool](d, `localStorage.getItem(`+js("benchy-draft/"+tab)+`) === null`); !got {
		t.Error("the closed tab's draft is still kept after it was adopted")
	}
	d.reload()
	if got := d.yamlText(); got != mine {
		t.Errorf("after a reload the adopting tab shows: %s", lineDiff(mine, got))
	}
}

// TestBrowserDrafts14Full: when the browser's storage is full the editor says that the
// edits are not kept (a reload would lose them) instead of failing silently, and the word
// goes once a draft is kept again.
func TestBrowserDrafts14Full(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/"))
	text := b.yamlText()
	// Fill the origin's storage with filler until it refuses more.
	n := eval[int](b, `(() => {
		const chunk = "x".repeat(256 * 1024);
		let i = 0;
		try { for (; i < 1000; i++) localStorage.setItem("filler-" + i, chunk); } catch (e) {}
		try { for (let j = 0; j < 1000; j++) localStorage.setItem("filler-small-" + j, "x".repeat(1024)); } catch (e) {}
		return i;
	})()`)
	t.Logf("storage full after %d chunks of 256 KiB", n)
	big := text + "# " + strings.Repeat("an edit the full storage cannot keep ", 200) + "\n"
	b.setYAML(big)
	poll[bool](b, "the note that the edits are not kept", `(document.getElementById("editor-note") || {textContent: ""}).textContent.startsWith("the browser does not keep your edits")`,
		5*time.Second, `"note: " + (document.getElementById("editor-note") || {}).textContent`)
	if cls := eval[string](b, `document.getElementById("editor-note").className`); cls != "notice error" {
		t.Errorf("the note has class %q, want \"notice error\"", cls)
	}
	eval[bool](b, `Object.keys(localStorage).filter(k => k.startsWith("filler-")).forEach(k => localStorage.removeItem(k)), true`)
	b.setYAML(big + "# kept\n")
	b.waitKept(big + "# kept\n")
	poll[bool](b, "the note to go", `document.getElementById("editor-note") === null`, 5*time.Second, `"note: " + (document.getElementById("editor-note") || {}).textContent`)
}

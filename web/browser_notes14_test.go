package web_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserNotes14: the editor's notes say what kind they are: a save of a benchmark
// that still has problems is a warning, not a green success (all notes but errors were
// green); Ctrl+S with no name to save under puts the cursor where the name goes; undoing an
// Open… takes away the note "opened …" of the file no longer shown.
func TestBrowserNotes14(t *testing.T) {
	_, b := notesEditor(t)
	orig := invoiceYAML(t) // the workspace's benchmark.yaml

	// Nowhere to save: Ctrl+S says so and focuses the path.
	b.setYAML(orig + "# a draft\n")
	b.setControl("#save-path", "")
	eval[bool](b, `document.getElementById("yaml").dispatchEvent(new KeyboardEvent("keydown", {key: "s", ctrlKey: true, bubbles: true, cancelable: true}))`)
	poll[bool](b, "the path to have the focus", `document.activeElement === document.getElementById("save-path") &&
		(document.getElementById("editor-note") || {className: ""}).className.includes("error")`, 5*time.Second,
		`"focus " + document.activeElement.id + ", note " + (document.getElementById("editor-note") || {outerHTML: "none"}).outerHTML`)

	// Saved with a problem: a warning.
	b.setYAML(orig + "bogus: 1\n")
	b.setControl("#save-path", "draft.yaml")
	b.clickJS("#save")
	poll[string](b, "the saved note", `(() => { const n = document.getElementById("editor-note"); return n && n.textContent.startsWith("saved draft.yaml") && n.className; })()`, 10*time.Second, editorStateJS)
	if cls := eval[string](b, `document.getElementById("editor-note").className`); cls != "notice" {
		t.Errorf("a save with problems is noted as %q, want the warning's plain notice", cls)
	}

	// Opened, then undone: the note of the other file goes.
	b.setYAML(orig)
	b.clickJS("#save")
	b.waitEditorNote("saved draft.yaml")
	if cls := eval[string](b, `document.getElementById("editor-note").className`); cls != "notice ok" {
		t.Errorf("a clean save is noted as %q, want notice ok", cls)
	}
	b.setControl("#open", "benchmark.yaml")
	b.waitEditorNote("opened benchmark.yaml")
	b.clickJS("#undo")
	poll[bool](b, "the undo of Open…", `location.search === "?path=draft.yaml"`, 5*time.Second, `location.search`)
	if n := eval[string](b, `(document.getElementById("editor-note") || {textContent: ""}).textContent`); n != "" {
		t.Errorf("after undoing Open… the note says %q", n)
	}
}

// TestBrowserSavePathEnter: Enter in the path to save under saves there, as Save does.
func TestBrowserSavePathEnter(t *testing.T) {
	dir, b := notesEditor(t)
	orig := invoiceYAML(t) // the workspace's benchmark.yaml
	text := orig + "# entered\n"
	b.setYAML(text)
	b.run(chromedp.SendKeys(chromedp.ID("save-path"), "entered.yaml"+kb.Enter))
	b.waitEditorNote("saved entered.yaml")
	if data, err := os.ReadFile(filepath.Join(dir, "entered.yaml")); err != nil || string(data) != text {
		t.Errorf("entered.yaml holds %q, %v", data, err)
	}
}

// notesEditor is the editor on a workspace of the invoice example, at / (no file open):
// the workspace and the browser.
func notesEditor(t *testing.T) (string, *browser) {
	t.Helper()
	requireBrowser(t)
	dir := invoiceWorkspace(t, t.TempDir(), false)
	srv := startServer(t, dir)
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/")) // waits for the editor to be ready
	return dir, b
}

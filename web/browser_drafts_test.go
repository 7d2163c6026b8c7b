package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// reload loads the page at its current address again and waits until it is interactive.
func (b *browser) reload() {
	b.t.Helper()
	b.open(eval[string](b, `location.href`))
}

// yamlText is the editor's text as the textarea holds it.
func (b *browser) yamlText() string {
	b.t.Helper()
	return eval[string](b, `document.getElementById("yaml").value`)
}

// address is the path and query of the page's URL.
func (b *browser) address() string {
	b.t.Helper()
	return eval[string](b, `location.pathname + location.search`)
}

// waitAsk waits for the question before discarding edits.
func (b *browser) waitAsk() {
	b.t.Helper()
	poll[bool](b, "the question before discarding edits", `document.getElementById("discard-edits") !== null && document.getElementById("keep-editing") !== null`, 5*time.Second, editorStateJS)
}

// TestBrowserDraftsAskBeforeDiscard: New, Open… and a template act at once with nothing
// unsaved and ask first (in the page) with unsaved edits; "Keep editing" keeps them. The
// URL names what is open: after New at /?path=… it is /, so a reload keeps the new draft
// instead of opening the file again. Every draft with edits, saved or not, shows the
// unsaved badge and survives a reload, also one the URL names another file over.
func TestBrowserDraftsAskBeforeDiscard(t *testing.T) {
	requireBrowser(t)
	dir := invoiceWorkspace(t, t.TempDir(), false)
	orig, err := os.ReadFile(filepath.Join(dir, "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.yaml"), orig, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, dir)
	b := newBrowser(t, 90*time.Second)
	b.open(srv.URL("/?path=benchmark.yaml"))
	b.waitEditorNote("opened benchmark.yaml")

	// Nothing unsaved: New acts at once, and the URL says no file is open.
	b.clickJS("#new")
	poll[bool](b, "the new draft", `document.getElementById("yaml").value !== `+js(string(orig)), 5*time.Second, editorStateJS)
	if b.exists("#discard") {
		t.Error("New asked though nothing was unsaved")
	}
	if got := b.address(); got != "/" {
		t.Errorf("after New the URL is %q, want /", got)
	}
	template := b.yamlText()

	// A new draft with edits is unsaved, and a reload keeps it.
	mine := template + "# my edit\n"
	b.setYAML(mine)
	poll[bool](b, "the unsaved badge on a new draft", `document.getElementById("unsaved") !== null`, 5*time.Second, editorStateJS)
	b.reload()
	if got := b.yamlText(); got != mine {
		t.Fatalf("after a reload the editor shows %q, want the draft", got)
	}
	if !b.exists("#unsaved") {
		t.Error("after a reload the draft has no unsaved badge")
	}

	// With edits, each asks; Keep editing keeps them.
	for _, act := range []struct{ what, selector, value string }{
		{"New", "#new", ""},
		{"Open…", "#open", "other.yaml"},
		{"a template", "#template", "classify"},
	} {
		if act.value == "" {
			b.clickJS(act.selector)
		} else {
			b.setControl(act.selector, act.value)
		}
		b.waitAsk()
		if got := b.yamlText(); got != mine {
			t.Errorf("%s replaced the draft before asking: %q", act.what, got)
		}
		if act.what == "Open…" {
			b.screenshot("editor-discard-ask")
		}
		b.clickJS("#keep-editing")
		poll[bool](b, "the question to go", `document.getElementById("discard") === null`, 5*time.Second, editorStateJS)
		if got := b.yamlText(); got != mine {
			t.Errorf("%s, keep editing: the text is %q", act.what, got)
		}
	}
	if got := eval[string](b, `document.getElementById("open").value`); got != "" {
		t.Errorf("after keep editing Open… shows %q", got)
	}

	// Discard: the template applies.
	b.setControl("#template", "classify")
	b.waitAsk()
	b.clickJS("#discard-edits")
	poll[bool](b, "the classify template", `document.getElementById("yaml").value.includes("task: classify") && !document.getElementById("unsaved")`, 5*time.Second, editorStateJS)
	if got := b.address(); got != "/" {
		t.Errorf("after a template the URL is %q, want /", got)
	}

	// Nothing unsaved: Open… acts at once.
	b.setControl("#open", "other.yaml")
	b.waitEditorNote("opened other.yaml")
	if got := b.address(); got != "/?path=other.yaml" {
		t.Errorf("after Open… the URL is %q", got)
	}

	// Unsaved edits of other.yaml, then the address of another file: the edits show, and
	// the editor asks before opening it.
	edited := string(orig) + "# edited other\n"
	b.setYAML(edited)
	poll[bool](b, "the unsaved badge", `document.getElementById("unsaved") !== null`, 5*time.Second, editorStateJS)
	b.open(srv.URL("/?path=benchmark.yaml"))
	b.waitAsk()
	if got := b.yamlText(); got != edited {
		t.Errorf("at another file's address the draft became %q", got)
	}
	if got := b.address(); got != "/?path=other.yaml" {
		t.Errorf("the URL names %q while the draft of other.yaml shows", got)
	}
	b.clickJS("#discard-edits")
	b.waitEditorNote("opened benchmark.yaml")
	if got := b.yamlText(); got != string(orig) {
		t.Errorf("after discarding the editor shows %q", got)
	}
}

// TestBrowserDraftsCtrlS: Ctrl+S and Cmd+S save as the Save button does, and the browser's
// own save is prevented.
func TestBrowserDraftsCtrlS(t *testing.T) {
	requireBrowser(t)
	dir := invoiceWorkspace(t, t.TempDir(), false)
	file := filepath.Join(dir, "benchmark.yaml")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, dir)
	b := newBrowser(t, 60*time.Second)
	b.open(srv.URL("/?path=benchmark.yaml"))
	b.waitEditorNote("opened benchmark.yaml")
	for i, mod := range []string{"ctrlKey", "metaKey"} {
		text := string(orig) + "# saved with " + mod + "\n"
		b.setYAML(text)
		poll[bool](b, "the unsaved badge", `document.getElementById("unsaved") !== null`, 5*time.Second, editorStateJS)
		prevented := eval[bool](b, `!document.getElementById("yaml").dispatchEvent(new KeyboardEvent("keydown", {key: "s", `+mod+`: true, bubbles: true, cancelable: true}))`)
		if !prevented {
			t.Errorf("%s+S: the browser's own save is not prevented", mod)
		}
		poll[bool](b, mod+"+S to save", `document.getElementById("unsaved") === null && (document.getElementById("editor-note") || {}).textContent === "saved benchmark.yaml"`, 10*time.Second, editorStateJS)
		deadline := time.Now().Add(5 * time.Second)
		for data, _ := os.ReadFile(file); string(data) != text; data, _ = os.ReadFile(file) {
			if time.Now().After(deadline) {
				t.Fatalf("after %s+S (%d) the file holds %q", mod, i, data)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// A plain "s" is typing, not saving.
	if !eval[bool](b, `document.getElementById("yaml").dispatchEvent(new KeyboardEvent("keydown", {key: "s", bubbles: true, cancelable: true}))`) {
		t.Error("a plain s was prevented")
	}
}

// TestBrowserDraftsSuggestion: a diagnostic's "did you mean X?" applies with one click: the
// word at its line:column becomes X and nothing else changes.
func TestBrowserDraftsSuggestion(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	good := invoiceYAML(t)
	bad := strings.Replace(good, "task: extract", "task: extrct", 1)
	b.setYAML(bad)
	b.waitProblems(len(cliDiagnostics(t, bad)))
	poll[bool](b, "a suggestion to apply", `document.querySelector("#diagnostics li.diag button.apply") !== null`, 5*time.Second, editorStateJS)
	b.screenshot("editor-suggestion")
	b.clickJS("#diagnostics li.diag button.apply")
	b.waitValid(cliHash(t, good))
	if got := b.yamlText(); got != good {
		t.Errorf("after applying the suggestion the text is %q, want the fixed example", got)
	}
}

package web_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// press sends a key as the keyboard would, with modifiers, to the element with focus.
func (b *browser) press(key string, mods ...chromedp.Modifier) {
	b.t.Helper()
	b.run(chromedp.KeyEvent(key, chromedp.KeyModifiers(mods...)))
}

// typeInto focuses the element matching selector, selects its text (all of it, or with
// atEnd none, the cursor at the end) and types text into it with real key events.
func (b *browser) typeInto(selector, text string, atEnd bool) {
	b.t.Helper()
	poll[bool](b, selector, `(() => {
		const el = document.querySelector(`+js(selector)+`);
		if (!el) return false;
		el.focus();
		if (`+js(map[bool]string{true: "end"}[atEnd])+` === "end") el.setSelectionRange(el.value.length, el.value.length); else el.select();
		return true;
	})()`, 5*time.Second, "")
	b.run(chromedp.KeyEvent(text))
}

// waitText waits until the YAML shows want and the editor has compiled it (the draft kept
// in the browser holds it too).
func (b *browser) waitText(what, want string) {
	b.t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`(() => {
		const d = JSON.parse(localStorage.getItem("benchy-draft/" + JSON.parse(sessionStorage.getItem("benchy-tab"))) || "{}");
		return document.getElementById("yaml").value === `+js(want)+` && d.yaml === `+js(want)+`;
	})()`, chromedp.WithPollingTimeout(5*time.Second), chromedp.WithPollingInterval(5*time.Millisecond)))
	if err != nil {
		got := b.yamlText()
		b.t.Fatalf("%s: the YAML is not what it should be (%v):\n%s", what, err, lineDiff(want, got))
	}
}

// lineDiff names the first line where got differs from want.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ": want " + js(wl) + ", got " + js(gl)
		}
	}
	return "same lines"
}

// TestBrowserUndo14: undo and redo step through every change, whether typed in the YAML or
// made in the form, one step per burst of typing or per control: Ctrl+Z (and Cmd+Z) back,
// Ctrl+Shift+Z and Ctrl+Y forward, the toolbar's buttons the same and disabled when there
// is nothing to do; the form and the kept draft follow; a new edit after undos drops the
// redo branch; New and Open… are steps too, so edits discarded by mistake come back, with
// the file they belong to.
func TestBrowserUndo14(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 90*time.Second)
	editor(t, b, srv)
	weight, name := `#weights input[data-path="total"]`, outputRow(1)+"input.name"
	value := func(sel string) string { return eval[string](b, `document.querySelector(`+js(sel)+`).value`) }
	// shows waits for the form to show want in the control sel: it renders after the text.
	shows := func(what, sel, want string) {
		t.Helper()
		_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`document.querySelector(`+js(sel)+`).value === `+js(want),
			chromedp.WithPollingTimeout(3*time.Second), chromedp.WithPollingInterval(5*time.Millisecond)))
		if err != nil {
			t.Errorf("after %s the form shows %q in %s, want %q", what, value(sel), sel, want)
		}
	}
	// disabled reports whether the button is disabled once the page has rendered the last
	// change (it renders after the text and the draft are updated).
	disabled := func(id string) bool {
		eval[bool](b, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
		return eval[bool](b, `document.getElementById(`+js(id)+`).disabled`)
	}

	s0 := b.yamlText()
	w0, n0 := value(weight), value(name)
	if !disabled("undo") || !disabled("redo") {
		t.Error("undo or redo enabled before any edit")
	}

	// Three steps: typing in the YAML, a weight (two keys, one step), a field's name.
	b.typeInto("#yaml", "# my note\n", true)
	s1 := s0 + "# my note\n"
	b.waitText("typing in the YAML", s1)
	b.typeInto(weight, "12", false)
	poll[bool](b, "the weight typed", `document.getElementById("yaml").value.includes("    total: 12\n")`, 5*time.Second, editorStateJS)
	s2 := b.yamlText()
	b.typeInto(name, "invoice_no", false)
	poll[bool](b, "the field renamed", `document.getElementById("yaml").value.includes("invoice_no:")`, 5*time.Second, editorStateJS)
	s3 := b.yamlText()
	if disabled("undo") || !disabled("redo") {
		t.Errorf("after edits: undo disabled %v, redo disabled %v; want enabled, disabled", disabled("undo"), disabled("redo"))
	}
	b.screenshot("editor-undo")

	// Back, each step exactly, with the focus still in the name's input.
	b.press("z", chromedp.ModifierCtrl)
	b.waitText("Ctrl+Z of the name", s2)
	shows("undoing the name", name, n0)
	b.press("z", chromedp.ModifierMeta)
	b.waitText("Cmd+Z of the weight", s1)
	shows("undoing the weight", weight, w0)
	b.press("z", chromedp.ModifierCtrl)
	b.waitText("Ctrl+Z of the typing", s0)
	if !disabled("undo") || disabled("redo") {
		t.Errorf("at the start: undo disabled %v, redo disabled %v; want disabled, enabled", disabled("undo"), disabled("redo"))
	}
	b.press("z", chromedp.ModifierCtrl)
	time.Sleep(100 * time.Millisecond)
	b.waitText("Ctrl+Z with nothing to undo", s0)

	// Forward: Ctrl+Shift+Z, Ctrl+Y, then the Redo button; the Undo button back.
	b.press("Z", chromedp.ModifierCtrl, chromedp.ModifierShift)
	b.waitText("Ctrl+Shift+Z", s1)
	b.press("y", chromedp.ModifierCtrl)
	b.waitText("Ctrl+Y", s2)
	shows("redoing the weight", weight, "12")
	b.clickJS("#redo")
	b.waitText("the Redo button", s3)
	if !disabled("redo") {
		t.Error("redo enabled at the newest step")
	}
	b.clickJS("#undo")
	b.waitText("the Undo button", s2)

	// In the YAML too; then a new edit there drops what could be redone.
	b.typeInto("#yaml", "", true)
	b.press("z", chromedp.ModifierCtrl)
	b.waitText("Ctrl+Z in the YAML", s1)
	b.typeInto("#yaml", "#", true)
	b.waitText("a new edit after undos", s1+"#")
	if !disabled("redo") {
		t.Error("a new edit after undos left redo enabled")
	}
	b.press("Z", chromedp.ModifierCtrl, chromedp.ModifierShift)
	time.Sleep(100 * time.Millisecond)
	b.waitText("Ctrl+Shift+Z after the new edit", s1+"#")
	b.press("z", chromedp.ModifierCtrl)
	b.waitText("Ctrl+Z of the new edit", s1)

	// The kept draft is the text undone to: a reload shows it.
	b.reload() // the browser asks first (TestBrowserLeave14); the harness leaves
	if got := b.yamlText(); got != s1 {
		t.Errorf("after a reload: %s", lineDiff(s1, got))
	}
	if got := b.seenDialogs(); !slices.Equal(got, []page.DialogType{page.DialogTypeBeforeunload}) {
		t.Errorf("the reload over unsaved edits opened dialogs %v, want one beforeunload", got)
	}

	// New, its question answered "Discard my edits", is a step too: undo brings the edits back.
	b.clickJS("#new")
	b.waitAsk()
	b.clickJS("#discard-edits")
	poll[bool](b, "the new draft", `document.getElementById("yaml").value !== `+js(s1)+` && !document.getElementById("unsaved")`, 5*time.Second, editorStateJS)
	b.press("z", chromedp.ModifierCtrl)
	b.waitText("Ctrl+Z of New", s1)
	poll[bool](b, "the unsaved badge back", `document.getElementById("unsaved") !== null`, 5*time.Second, editorStateJS)

	// Open… too, and undoing it brings back the draft's file (none) with the text: a save
	// would not write the draft over the file opened since. Redo opens it again. (Open…
	// after "Discard my edits" used to open nothing: the fetched file was dispatched in the
	// context of the button, gone with the question.)
	b.setControl("#open", "benchmark.yaml")
	b.waitAsk()
	b.clickJS("#discard-edits")
	b.waitEditorNote("opened benchmark.yaml")
	opened := b.yamlText()
	b.press("z", chromedp.ModifierCtrl)
	b.waitText("Ctrl+Z of Open…", s1)
	if got, path := b.address(), value("#save-path"); got != "/" || path != "" {
		t.Errorf("after undoing Open… the URL is %q and the path to save to %q, want / and none", got, path)
	}
	b.press("y", chromedp.ModifierCtrl)
	b.waitText("Ctrl+Y of Open…", opened)
	poll[bool](b, "the file back, saved", `!document.getElementById("unsaved") && location.search === "?path=benchmark.yaml" && document.getElementById("save-path").value === "benchmark.yaml"`, 5*time.Second,
		`location.href + " save-path " + document.getElementById("save-path").value`)
}

// TestBrowserLeave14: with unsaved edits, leaving the page makes the browser ask
// (beforeunload); with nothing unsaved it does not.
func TestBrowserLeave14(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)

	// Nothing unsaved after real keystrokes (Chromium asks only after a user gesture): an
	// edit, undone. The page goes without a question.
	s0 := b.yamlText()
	b.typeInto("#yaml", "x", true)
	b.waitText("typing", s0+"x")
	b.press("z", chromedp.ModifierCtrl)
	b.waitText("undo", s0)
	b.open(srv.URL("/ontology"))
	if got := b.seenDialogs(); len(got) != 0 {
		t.Fatalf("leaving with nothing unsaved opened dialogs %v", got)
	}

	b.open(srv.URL("/"))
	b.typeInto("#yaml", "# unsaved\n", true)
	b.waitText("typing", s0+"# unsaved\n")
	b.open(srv.URL("/ontology"))
	if got := b.seenDialogs(); len(got) != 1 || got[0] != page.DialogTypeBeforeunload {
		t.Fatalf("leaving with unsaved edits opened dialogs %v, want one beforeunload", got)
	}
}

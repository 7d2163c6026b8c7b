package editor

import (
	"strconv"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/web/ui"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// listenKeys makes Ctrl+S (Cmd+S on a Mac) save, as the Save button does, instead of the
// browser's own "save page" dialog; Ctrl+Z undo and Ctrl+Shift+Z or Ctrl+Y redo, in the
// YAML and in the form alike, instead of the browser's undo of one input, which knows
// nothing of the form's rewrites of the text. The path to save to keeps the browser's undo:
// it is not part of the text. It returns what stops listening.
func (e *Page) listenKeys(ctx app.Context) func() {
	return ui.ListenWindow("keydown", func(ev app.Value) {
		if !(ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()) || ev.Get("altKey").Bool() {
			return
		}
		key, code, shift := strings.ToLower(ev.Get("key").String()), ev.Get("code").String(), ev.Get("shiftKey").Bool()
		var do func(app.Context, app.Event)
		switch {
		case key == "s":
			do = e.onSave
		case inSavePath(ev):
		case (key == "z" || code == "KeyZ") && !shift:
			do = e.onUndo
		case (key == "z" || code == "KeyZ") && shift, (key == "y" || code == "KeyY") && !shift:
			do = e.onRedo
		}
		if do != nil {
			ev.Call("preventDefault")
			ctx.Dispatch(func(ctx app.Context) { do(ctx, app.Event{Value: ev}) })
		}
	})
}

func inSavePath(ev app.Value) bool {
	t := ev.Get("target")
	return t.Truthy() && t.Get("id").String() == "save-path"
}

// typing is the kind of edit typing in the YAML is, for undo (history.record).
const typing = "yaml"

// onUndo goes back one step: the text, the form, the kept draft and, when the step was of
// another file (before Open… or New), the file follow.
func (e *Page) onUndo(ctx app.Context, ev app.Event) { e.travel(ctx, e.history.undo) }

// onRedo goes forward again after an undo.
func (e *Page) onRedo(ctx app.Context, ev app.Event) { e.travel(ctx, e.history.redo) }

func (e *Page) travel(ctx app.Context, step func() (string, bool)) {
	// Typed but not compiled yet: that is the last step. A save since the last step
	// changed its file.
	e.history.record(e.yaml, typing, e.file(), time.Now())
	text, ok := step()
	if !ok {
		return
	}
	e.edits++ // a compile of the typing still waiting would show it again
	e.setFile(e.history.fileOf())
	e.show(ctx, text, false)
	showText(text)
}

// showText puts text in the textarea, its cursor where it changed. go-app sets the value
// only when it differs from what it rendered last, and typing since then is not rendered.
func showText(text string) {
	y := app.Window().GetElementByID("yaml")
	if !y.Truthy() {
		return
	}
	old := y.Get("value").String()
	if old == text {
		return
	}
	at := 0
	for at < len(old) && at < len(text) && old[at] == text[at] {
		at++
	}
	y.Set("value", text)
	// selectionStart counts UTF-16 units; at counts bytes: the same for ASCII, near enough
	// for the rest.
	n := len([]rune(text[:at]))
	y.Call("setSelectionRange", n, n)
}

// control names the form control an edit came from, so that typing into one is one step
// for undo: its id, or its class and place among the form's inputs. A button, a list or a
// select gives "": each of their changes is a step of its own.
func control(src app.Value) string {
	if !src.Truthy() {
		return ""
	}
	if tag := src.Get("tagName").String(); tag != "INPUT" && tag != "TEXTAREA" {
		return ""
	}
	if id := src.Get("id").String(); id != "" {
		return "form:#" + id
	}
	inputs := app.Window().Get("document").Call("querySelectorAll", "#form input, #form textarea")
	for i := 0; i < inputs.Get("length").Int(); i++ {
		if inputs.Call("item", i).Equal(src) {
			return "form:" + src.Get("className").String() + "@" + strconv.Itoa(i)
		}
	}
	return "form:" + src.Get("className").String()
}

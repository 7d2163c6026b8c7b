package editor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/ui"
)

// New, Open… and a template replace the text. With unsaved edits they ask first, in the
// page (a window.confirm blocks the page and tests and tools cannot answer it); with
// nothing unsaved they act at once.

// pending is an action that would discard unsaved edits, waiting for the user's answer.
type pending struct {
	what string            // what it does, for the question: "open b.yaml"
	do   func(app.Context) // the action itself
}

// orAsk does action at once when nothing is unsaved, or asks first.
func (e *Page) orAsk(ctx app.Context, what string, action func(app.Context)) {
	if !e.unsaved() {
		e.ask = nil
		action(ctx)
		return
	}
	e.ask = &pending{what: what, do: action}
}

// onDiscard answers the question yes: the action runs and the edits are gone. It runs in
// the page's context, not the button's: the button goes with the question, and go-app
// drops what a gone element's context dispatches (the file Open… fetched, so Discard
// opened nothing).
func (e *Page) onDiscard(ctx app.Context, ev app.Event) {
	if a := e.ask; a != nil {
		e.ask = nil
		a.do(e.mounted)
	}
}

// onKeepEditing answers no: nothing changes; the pickers show again what is open.
func (e *Page) onKeepEditing(ctx app.Context, ev app.Event) {
	e.ask = nil
	setValue("open", e.path)
	setValue("template", e.template)
}

// setValue sets the value of the control with id as it shows (go-app renders a select's
// value only when its options change).
func setValue(id, v string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Set("value", v)
	}
}

func (e *Page) renderAsk() app.UI {
	where := "this draft"
	if e.path != "" {
		where = e.path
	}
	return app.Section().ID("discard").Class("panel").Body(
		app.Div().Class("row").Body(
			app.H2().Text("Unsaved edits to "+where),
			app.Span().Text("To "+e.ask.what+" your edits would be lost."),
		),
		app.Div().Class("row").Body(
			app.Button().ID("discard-edits").Class("danger").Text("Discard my edits").OnClick(e.onDiscard),
			app.Button().ID("keep-editing").Class("primary").Text("Keep editing").OnClick(e.onKeepEditing),
		),
	)
}

// showURL makes the address name what is open (/ for a draft of no file), so that a
// reload opens it again rather than a file the draft replaced.
func showURL(p string) {
	u := "/"
	if p != "" {
		u = ui.EditorURL(p)
	}
	app.Window().Get("history").Call("replaceState", nil, "", u)
}

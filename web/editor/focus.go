package editor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/form"
)

// add returns a handler that adds something to the document with f, rewrites the YAML and
// then focuses the control f names by a selector, its text selected, so that a new field's
// name can be typed at once.
func (p *formPanel) add(f func(d *form.Doc) (focus string)) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		d := p.Owner.current()
		if d == nil {
			return
		}
		sel := f(d)
		p.Owner.formChanged(ctx)
		focusAfter(sel)
	}
}

// fieldName is the selector of the name input of the field at side/at.
func fieldName(side string, at []int) string { return fieldSelector(side, at) + " input.name" }

// fieldSelector selects the row of the field at side/at.
func fieldSelector(side string, at []int) string { return `[data-field="` + fieldKey(side, at) + `"]` }

// focusAfter focuses the element selector names once the page shows the change being made,
// selecting a text input's text. It looks at the next frames, a few times, for the element
// (a part of the form may render a frame later), and not through ctx: go-app drops what
// an event's context defers once the element of the event is rendered again (the button
// of "+ parameter" is).
func focusAfter(selector string) {
	if selector != "" {
		nextFrame(func() { focusSoon(selector, 10) })
	}
}

func focusSoon(selector string, tries int) {
	el := app.Window().Get("document").Call("querySelector", selector)
	if !el.Truthy() {
		if tries > 0 {
			nextFrame(func() { focusSoon(selector, tries-1) })
		}
		return
	}
	el.Call("focus")
	if el.Get("tagName").String() == "INPUT" {
		el.Call("select")
	}
}

// nextFrame runs fn before the browser paints the next frame.
func nextFrame(fn func()) {
	var cb app.Func
	cb = app.FuncOf(func(this app.Value, args []app.Value) any {
		cb.Release()
		fn()
		return nil
	})
	app.Window().Call("requestAnimationFrame", cb)
}

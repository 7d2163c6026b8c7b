package editor

import (
	"github.com/benchy-eval/benchy/web/ui"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// askOnLeave makes the browser ask before the page goes (a reload, a link, the tab closed)
// while there are unsaved edits, as New and Open… ask in the page. The draft survives in
// the browser anyway, but a user leaving may not know that, and another tab may replace it.
// With nothing unsaved the page goes without a question. It returns what stops asking.
func (e *Page) askOnLeave() func() {
	return ui.ListenWindow("beforeunload", func(ev app.Value) {
		// The question must be decided now, in the event; the text typed but not yet
		// compiled counts (onYAML keeps it in e.yaml at once).
		if e.unsaved() {
			ev.Call("preventDefault")
			ev.Set("returnValue", "") // what older browsers need to ask
		}
	})
}

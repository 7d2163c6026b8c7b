package editor

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// askOnLeave makes the browser ask before the page goes (a reload, a link, the tab closed)
// while there are unsaved edits, as New and Open… ask in the page. The draft survives in
// the browser anyway, but a user leaving may not know that, and another tab may replace it.
// With nothing unsaved the page goes without a question. It returns what stops asking.
func (e *Page) askOnLeave() func() {
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		// The question must be decided now, in the event; the text typed but not yet
		// compiled counts (onYAML keeps it in e.yaml at once).
		if ev := args[0]; e.unsaved() {
			ev.Call("preventDefault")
			ev.Set("returnValue", "") // what older browsers need to ask
		}
		return nil
	})
	win := app.Window()
	win.Call("addEventListener", "beforeunload", fn)
	return func() {
		win.Call("removeEventListener", "beforeunload", fn)
		fn.Release()
	}
}

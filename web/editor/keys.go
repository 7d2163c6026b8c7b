package editor

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// listenKeys makes Ctrl+S (Cmd+S on a Mac) save, as the Save button does, instead of the
// browser's own "save page" dialog. It returns what stops listening.
func (e *Page) listenKeys(ctx app.Context) func() {
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		if k := ev.Get("key").String(); (k == "s" || k == "S") && (ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()) && !ev.Get("altKey").Bool() {
			ev.Call("preventDefault")
			ctx.Dispatch(func(ctx app.Context) { e.onSave(ctx, app.Event{Value: ev}) })
		}
		return nil
	})
	win := app.Window()
	win.Call("addEventListener", "keydown", fn)
	return func() {
		win.Call("removeEventListener", "keydown", fn)
		fn.Release()
	}
}

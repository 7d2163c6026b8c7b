package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// ListenWindow calls handle with each event called name on the window (keydown,
// beforeunload) until the function it returns is called, which removes the listener and
// releases the Go function the browser held.
func ListenWindow(name string, handle func(ev app.Value)) func() {
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		handle(args[0])
		return nil
	})
	win := app.Window()
	win.Call("addEventListener", name, fn)
	return func() {
		win.Call("removeEventListener", name, fn)
		fn.Release()
	}
}

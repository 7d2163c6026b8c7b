package ui

import (
	"encoding/json"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Placeholder is the value of a select's "choose…" option. An option's value cannot be
// empty in go-app (an empty value attribute is dropped, and the option's text becomes its
// value), so a placeholder has this one, which Selected reads as "".
const Placeholder = "-"

// Selected is the value of the select an event came from, "" for the Placeholder.
func Selected(ctx app.Context) string {
	v := ctx.JSSrc().Get("value").String()
	if v == Placeholder {
		return ""
	}
	return v
}

// ReadyFlag is the data-ready attribute of a page's root element: "1" once the page shows
// what its first requests answered (or why they failed), "" (no attribute) before and in
// the server's prerendering.
func ReadyFlag(ready bool) string {
	if ready && !app.IsServer {
		return "1"
	}
	return ""
}

// Clipping of JSON cells: what a cell shows, and what its title (the full value) may hold.
const (
	CellChars  = 80
	TitleChars = 4000
)

// JSONCell is a table cell of compact JSON, clipped, with the whole value in its title.
func JSONCell(class string, raw json.RawMessage) app.UI {
	s := CompactJSON(raw)
	if s == "" || s == "null" {
		return app.Td().Class(class + " muted").Text(NoValue)
	}
	short, clipped := Clip(s, CellChars)
	td := app.Td().Class("mono " + class).Text(short)
	if clipped {
		full, _ := Clip(s, TitleChars)
		td = td.Title(full)
	}
	return td
}

// SaveBytes hands data to the browser as a downloaded file.
func SaveBytes(name, mime string, data []byte) {
	w := app.Window()
	arr := w.Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(arr, data)
	blob := w.Get("Blob").New([]any{arr}, map[string]any{"type": mime})
	u := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", u)
	a.Set("download", name)
	w.Get("document").Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	w.Get("URL").Call("revokeObjectURL", u)
}

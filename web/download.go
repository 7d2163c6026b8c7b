package web

import (
	"context"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fetchBytes reads a whole API answer (an export), with the tab's token.
func fetchBytes(ctx context.Context, path string) ([]byte, string, error) {
	res, err := fetch(ctx, "GET", path, nil, nil)
	if err != nil {
		return nil, "", err
	}
	data, err := res.body(ctx)
	if err != nil {
		return nil, "", err
	}
	return data, res.value.Get("headers").Call("get", "Content-Type").String(), nil
}

// saveBytes hands data to the browser as a downloaded file.
func saveBytes(name, mime string, data []byte) {
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

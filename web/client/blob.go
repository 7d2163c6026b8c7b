package client

import (
	"context"
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A server that wants a token cannot be read through a plain <img src>, <audio src> or
// <a href>: the browser sends no Authorization header with them. The app fetches such a
// file itself, with the token, and shows it through a blob: URL of the tab's memory.

// MaxBlob bounds a file the app fetches into the tab's memory to show it: a larger one
// is refused before its body is read, and the page offers it to download instead.
const MaxBlob = 64 << 20

// TooBig is the error of a file larger than the page fetches into memory.
type TooBig struct {
	Size, Max int64
}

func (e *TooBig) Error() string {
	return fmt.Sprintf("the file is %s, more than the page fetches to show (%s)", MiB(e.Size), MiB(e.Max))
}

// MiB is a size in bytes for reading: "80.0 MiB".
func MiB(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// ObjectURL fetches the server's path with the tab's token and returns a blob: URL of
// its body, of the type the server answered. A body over max bytes (its Content-Length
// says so before it is read, or its size once read) is a *TooBig. The caller revokes the
// URL (RevokeObjectURL) when the page stops showing it.
func ObjectURL(ctx context.Context, path string, max int64) (string, error) {
	res, err := fetch(ctx, "GET", path, nil, nil)
	if err != nil {
		return "", err
	}
	if res.status >= 300 {
		data, err := res.bytes(ctx)
		if err != nil {
			return "", err
		}
		return "", decodeError(res.status, data)
	}
	if n := res.value.Get("headers").Call("get", "Content-Length"); n.Truthy() {
		if size, err := strconv.ParseInt(n.String(), 10, 64); err == nil && size > max {
			res.abort()
			return "", &TooBig{Size: size, Max: max}
		}
	}
	blob, err := await(ctx, res.value.Call("blob"), res.abort)
	if err != nil {
		return "", err
	}
	if size := int64(blob.Get("size").Float()); size > max {
		return "", &TooBig{Size: size, Max: max}
	}
	return app.Window().Get("URL").Call("createObjectURL", blob).String(), nil
}

// RevokeObjectURL frees the memory of a URL ObjectURL made.
func RevokeObjectURL(u string) {
	if u != "" && app.IsClient {
		app.Window().Get("URL").Call("revokeObjectURL", u)
	}
}

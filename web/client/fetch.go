package client

import (
	"context"
	"errors"
	"io"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The app talks to its server through the browser's fetch, not net/http: the HTTP client
// would link TLS, HTTP/2 and the rest of a network stack into app.wasm (megabytes) for
// requests that the browser makes anyway.

// errNotBrowser is returned when the API is called outside a browser (prerendering).
var errNotBrowser = errors.New("not in a browser")

// response is a fetch response whose body has not been read yet.
type response struct {
	status int
	value  app.Value // the JavaScript Response
	abort  func()
}

// fetch sends a request to the server's path, with the tab's token if it has one, and waits
// for the response's head. Cancelling ctx aborts it.
func fetch(ctx context.Context, method, path string, header map[string]string, body []byte) (*response, error) {
	if !app.IsClient {
		return nil, errNotBrowser
	}
	w := app.Window()
	controller := w.Get("AbortController").New()
	headers := map[string]any{}
	for k, v := range header {
		headers[k] = v
	}
	if t := token(); t != "" {
		headers["Authorization"] = "Bearer " + t
	}
	opts := map[string]any{"method": method, "headers": headers, "signal": controller.Get("signal"), "credentials": "same-origin", "cache": "no-store"}
	if body != nil {
		opts["body"] = string(body)
	}
	abort := func() { controller.Call("abort") }
	res, err := await(ctx, w.Call("fetch", origin()+path, opts), abort)
	reached(ctx, err)
	if err != nil {
		return nil, err
	}
	return &response{status: res.Get("status").Int(), value: res, abort: abort}, nil
}

// bytes reads the whole body.
func (r *response) bytes(ctx context.Context) ([]byte, error) {
	buf, err := await(ctx, r.value.Call("arrayBuffer"), r.abort)
	if err != nil {
		return nil, err
	}
	arr := app.Window().Get("Uint8Array").New(buf)
	out := make([]byte, arr.Get("length").Int())
	app.CopyBytesToGo(out, arr)
	return out, nil
}

// body reads the whole body of a successful answer; an error answer becomes an *Error.
func (r *response) body(ctx context.Context) ([]byte, error) {
	data, err := r.bytes(ctx)
	if err != nil {
		return nil, err
	}
	if r.status >= 300 {
		return nil, decodeError(r.status, data)
	}
	return data, nil
}

// stream returns the body as a reader of its chunks as they arrive.
func (r *response) stream(ctx context.Context) io.ReadCloser {
	return &bodyReader{ctx: ctx, reader: r.value.Get("body").Call("getReader"), abort: r.abort}
}

type bodyReader struct {
	ctx    context.Context
	reader app.Value
	abort  func()
	buf    []byte
	done   bool
}

func (b *bodyReader) Read(p []byte) (int, error) {
	for len(b.buf) == 0 {
		if b.done {
			return 0, io.EOF
		}
		chunk, err := await(b.ctx, b.reader.Call("read"), b.abort)
		if err != nil {
			return 0, err
		}
		if chunk.Get("done").Bool() {
			b.done = true
			continue
		}
		v := chunk.Get("value")
		b.buf = make([]byte, v.Get("length").Int())
		app.CopyBytesToGo(b.buf, v)
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

func (b *bodyReader) Close() error {
	if !b.done {
		b.abort()
	}
	return nil
}

// await waits for a JavaScript promise. When ctx ends first, abort is called (which makes
// the promise reject) and ctx's error returned once it has.
func await(ctx context.Context, promise app.Value, abort func()) (app.Value, error) {
	type result struct {
		v   app.Value
		err error
	}
	ch := make(chan result, 1)
	onResolve := app.FuncOf(func(this app.Value, args []app.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	onReject := app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "request failed"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	defer onResolve.Release()
	defer onReject.Release()
	promise.Call("then", onResolve, onReject)
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		abort()
		<-ch // the aborted promise settles; only then may its callbacks be released
		return nil, ctx.Err()
	}
}

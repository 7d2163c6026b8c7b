package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// tokenKey is where the browser keeps the server's token, for this tab only, when the
// server asks for one (a server listening beyond loopback).
const tokenKey = "benchy-token"

// APIError is an error answer of the server: {"error": {"code", "message"}}.
type APIError struct {
	Status  int
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *APIError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("the server answered %d", e.Status)
	}
	return e.Code + ": " + e.Message
}

// Offline reports whether err means the server could not be reached at all.
func Offline(err error) bool {
	_, isAPI := err.(*APIError)
	return err != nil && !isAPI
}

// origin is the server the page came from.
func origin() string {
	u := app.Window().URL()
	return u.Scheme + "://" + u.Host
}

func token() string {
	t := app.Window().Get("sessionStorage").Call("getItem", tokenKey)
	if t.Truthy() {
		return t.String()
	}
	return ""
}

// SetToken keeps the server's token for this tab.
func SetToken(t string) {
	app.Window().Get("sessionStorage").Call("setItem", tokenKey, t)
}

// call sends a request to the server's API and decodes a JSON answer into out (unless nil).
func call(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	header := map[string]string{"Accept": "application/json"}
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = b
		header["Content-Type"] = "application/json"
	}
	res, err := fetch(ctx, method, path, header, body)
	if err != nil {
		return err
	}
	data, err := res.body(ctx)
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// Get fetches path from the API into out.
func Get(ctx context.Context, path string, out any) error { return call(ctx, "GET", path, nil, out) }

// Send sends in with method to path and decodes the answer into out.
func Send(ctx context.Context, method, path string, in, out any) error {
	return call(ctx, method, path, in, out)
}

// Event is one Server-Sent Event.
type Event struct {
	Name string
	Data []byte
}

// Stream reads the Server-Sent Events of path, calling fn for each, until the stream ends,
// ctx is done, or fn returns false. It reads through fetch (not EventSource) so that the
// token goes in a header, never in a URL.
func Stream(ctx context.Context, path string, fn func(Event) bool) error {
	res, err := fetch(ctx, "GET", path, map[string]string{"Accept": "text/event-stream"}, nil)
	if err != nil {
		return err
	}
	if res.status >= 300 {
		_, err := res.body(ctx)
		return err
	}
	body := res.stream(ctx)
	defer body.Close()
	return readEvents(body, fn)
}

// readEvents parses a text/event-stream.
func readEvents(r io.Reader, fn func(Event) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var ev Event
	var data bytes.Buffer
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data.Len() > 0 || ev.Name != "" {
				ev.Data = bytes.TrimSuffix(data.Bytes(), []byte("\n"))
				if ev.Name == "" {
					ev.Name = "message"
				}
				if !fn(ev) {
					return nil
				}
			}
			ev, data = Event{}, bytes.Buffer{}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			ev.Name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			data.WriteByte('\n')
		}
	}
	return sc.Err()
}

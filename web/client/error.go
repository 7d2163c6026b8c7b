package client

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/benchy-eval/benchy/api"
)

// Error is an error answer of the server: its status and the api.Error body.
type Error struct {
	Status    int      // the HTTP status; 0 for an error the app made itself
	Code      api.Code // "" when the body was not an api.Error
	Message   string   // the server's sentence for people
	RequestID string   // the server's id of the request, when it sent one: quoted in reports
}

// Error is the code, the message and the request id, for logs and the editor's notes.
func (e *Error) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("the server answered %d", e.Status)
	}
	return string(e.Code) + ": " + e.Message + e.request()
}

// Text is what a page tells a person: the message, and the request id to report when the
// server gave one ("internal error (request 01J…)").
func (e *Error) Text() string {
	if e.Message == "" {
		return e.Error()
	}
	return e.Message + e.request()
}

// request names the request id, if the server sent one.
func (e *Error) request() string {
	if e.RequestID == "" {
		return ""
	}
	return " (request " + e.RequestID + ")"
}

// Offline reports whether err means the server could not be reached at all: an error
// that is not the server's answer.
func Offline(err error) bool {
	var e *Error
	return err != nil && !errors.As(err, &e)
}

// decodeError reads an error answer of status: the api.Error body, or only the status
// when the body is not one (a proxy's page, say).
func decodeError(status int, body []byte) *Error {
	var wire api.Error
	json.Unmarshal(body, &wire)
	d := wire.Error
	return &Error{Status: status, Code: d.Code, Message: d.Message, RequestID: d.RequestID}
}

// StatusIs reports whether err is the server's answer with HTTP status code.
func StatusIs(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == code
}

// CodeOf is the api code of err, "" for an error that is not the server's answer.
func CodeOf(err error) api.Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

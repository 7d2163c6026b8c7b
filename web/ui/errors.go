package ui

import (
	"strconv"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
)

// ErrText explains a failed API call for a page that needs the server: the server's
// message (with its request id, when it sent one), or that it cannot be reached.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	if client.Offline(err) {
		return "The server cannot be reached. This page needs it; the editor and the ontology work offline."
	}
	if e, ok := err.(*client.Error); ok && e.Message != "" {
		return e.Text()
	}
	return err.Error()
}

// ErrCode is the code of an API error, "" for any other error.
func ErrCode(err error) string { return string(client.CodeOf(err)) }

// RunError is why a run was aborted, as both the runs and the results page show it: the
// code and message, then where ("(data/rows.jsonl:3)") when the run knows it.
func RunError(e *api.RunError) string {
	if e == nil {
		return "The run was aborted."
	}
	msg := e.Code + ": " + e.Message
	if e.File != "" {
		msg += " (" + e.File
		if e.Line > 0 {
			msg += ":" + strconv.Itoa(e.Line)
		}
		msg += ")"
	}
	return msg
}

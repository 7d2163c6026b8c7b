package ui

import (
	"errors"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
)

// TestErrText: a page shows the server's message, with the request id when the server
// sent one, and a sentence of its own when the server cannot be reached.
func TestErrText(t *testing.T) {
	for _, c := range []struct {
		err        error
		text, code string
	}{
		{nil, "", ""},
		{errors.New("TypeError: Failed to fetch"), "The server cannot be reached. This page needs it; the editor and the ontology work offline.", ""},
		{&client.Error{Status: 404, Code: "not_found", Message: "no run 01A"}, "no run 01A", "not_found"},
		{&client.Error{Status: 500, Code: "internal", Message: "internal error", RequestID: "7f3a"}, "internal error (request 7f3a)", "internal"},
		{&client.Error{Status: 502}, "the server answered 502", ""},
	} {
		if got := ErrText(c.err); got != c.text {
			t.Errorf("ErrText(%v) = %q, want %q", c.err, got, c.text)
		}
		if got := ErrCode(c.err); got != c.code {
			t.Errorf("ErrCode(%v) = %q, want %q", c.err, got, c.code)
		}
	}
}

// TestRunError: an aborted run reads the same on the runs and the results page, with its
// place when the run knows it (the results page showed only the code and message).
func TestRunError(t *testing.T) {
	tests := []struct {
		e    *api.RunError
		want string
	}{
		{nil, "The run was aborted."},
		{&api.RunError{Code: "invalid_dataset_record", Message: "m", File: "data/rows.jsonl", Line: 3}, "invalid_dataset_record: m (data/rows.jsonl:3)"},
		{&api.RunError{Code: "missing_binding", Message: "m", File: "benchy.runtime.yaml"}, "missing_binding: m (benchy.runtime.yaml)"},
		{&api.RunError{Code: "data_not_found", Message: "m"}, "data_not_found: m"},
	}
	for _, tt := range tests {
		if got := RunError(tt.e); got != tt.want {
			t.Errorf("RunError(%+v) = %q, want %q", tt.e, got, tt.want)
		}
	}
}

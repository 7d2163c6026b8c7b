package client

import (
	"errors"
	"fmt"
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestDecodeError: every error answer decodes the same way, and what a person reads names
// the request id when the server sent one, so that it can be quoted in a report.
func TestDecodeError(t *testing.T) {
	for _, c := range []struct {
		status       int
		body         string
		code         api.Code
		text, errStr string
	}{
		{404, `{"error":{"code":"not_found","message":"no run 01A"}}`, api.NotFound, "no run 01A", "not_found: no run 01A"},
		{500, `{"error":{"code":"internal","message":"internal error","request_id":"7f3a9c"}}`, api.Internal,
			"internal error (request 7f3a9c)", "internal: internal error (request 7f3a9c)"},
		{502, `<html>Bad Gateway</html>`, "", "the server answered 502", "the server answered 502"},
		{401, ``, "", "the server answered 401", "the server answered 401"},
		{400, `{"error":{"code":"different_lengths"}}`, api.DifferentLengths, "different_lengths: ", "different_lengths: "},
		{503, `{"error":{"code":"internal","request_id":"7f3a"}}`, api.Internal, "internal:  (request 7f3a)", "internal:  (request 7f3a)"},
	} {
		e := decodeError(c.status, []byte(c.body))
		if e.Status != c.status || e.Code != c.code || e.Text() != c.text || e.Error() != c.errStr {
			t.Errorf("%d %s: %+v, text %q, error %q", c.status, c.body, e, e.Text(), e.Error())
		}
		if Offline(e) || !StatusIs(e, c.status) || CodeOf(fmt.Errorf("wrapped: %w", e)) != c.code {
			t.Errorf("%d: Offline %v, StatusIs %v, CodeOf %q", c.status, Offline(e), StatusIs(e, c.status), CodeOf(e))
		}
	}
	if !Offline(errors.New("TypeError: Failed to fetch")) || Offline(nil) || CodeOf(errors.New("x")) != "" {
		t.Error("a network error is offline; nil is not")
	}
}

package engine

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
)

// failing is an adapter whose every answer is an execution error with message msg.
type failing struct{ msg string }

func (f failing) Invoke(context.Context, int, map[string]any) (any, error) {
	return nil, ExecutionError(diag.AdapterError, "%s", f.msg)
}
func (failing) Close() error { return nil }

// TestResultKeepsAtMostMaxMessage: an AI-system's own error text, passed on whole by its
// adapter (a command's "error", up to a 64 MiB line), is kept in the result cut to
// MaxMessage bytes at a character's start, marked, so that a merge of shards (which
// refuses a longer message as no run writes one) takes every genuine line; a short
// message is kept as it is.
func TestResultKeepsAtMostMaxMessage(t *testing.T) {
	r := &runner{}
	ex := &example{index: 0, input: map[string]any{}}
	for _, msg := range []string{"short", strings.Repeat("é", MaxMessage), strings.Repeat("x", 3*MaxMessage)} {
		res := r.evaluate(context.Background(), failing{msg}, ex)
		got := res.Error.Message
		switch {
		case len(msg) <= MaxMessage && got != msg:
			t.Errorf("a %d-byte message became %q", len(msg), got)
		case len(got) > MaxMessage || !utf8.ValidString(got) || (len(msg) > MaxMessage && !strings.HasSuffix(got, "(cut)")):
			t.Errorf("a %d-byte message kept as %d bytes (valid UTF-8 %v), want at most %d, marked", len(msg), len(got), utf8.ValidString(got), MaxMessage)
		}
	}
}

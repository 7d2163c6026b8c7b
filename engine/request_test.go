package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBoundRequest: a rendered request is kept whole up to MaxRequest, and a longer one is
// cut at a character boundary with a marker naming its length.
func TestBoundRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		cut  bool
	}{
		{"empty", "", false},
		{"short", `{"model":"m"}`, false},
		{"at the bound", strings.Repeat("a", MaxRequest), false},
		{"over", strings.Repeat("a", MaxRequest+1), true},
		{"over inside a character", strings.Repeat("a", MaxRequest-1) + "é" + strings.Repeat("b", 10), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := boundRequest(tc.in)
			if !utf8.ValidString(got) {
				t.Fatalf("boundRequest cut a character: %q", got[len(got)-40:])
			}
			if !tc.cut {
				if got != tc.in {
					t.Fatalf("boundRequest changed a request of %d bytes", len(tc.in))
				}
				return
			}
			if len(got) > MaxRequest+64 || !strings.Contains(got, "(cut: the request was") {
				t.Fatalf("boundRequest(%d bytes) = %d bytes, tail %q", len(tc.in), len(got), got[len(got)-40:])
			}
		})
	}
}

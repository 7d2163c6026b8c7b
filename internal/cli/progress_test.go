package cli

import (
	"strings"
	"testing"
)

// TestLiveLine: on a terminal, text written while the bar is drawn goes on the bar's line
// cleared first, and the bar is drawn again below it once the text ends its line, not
// before: a line written in pieces stays whole.
func TestLiveLine(t *testing.T) {
	for _, tt := range []struct {
		name string
		ops  []string // "bar:TEXT" draws the bar, "end" ends it, anything else is written
		want string
	}{
		{"a line with no bar", []string{"a\n"}, "a\n"},
		{"a bar redrawn", []string{"bar:1", "bar:2", "end"}, "\r\x1b[K1\r\x1b[K2\n"},
		{"a line above the bar", []string{"bar:1", "log\n", "bar:2", "end", "after\n"},
			"\r\x1b[K1\r\x1b[Klog\n1\r\x1b[K2\nafter\n"},
		{"a line in pieces", []string{"bar:1", "lo", "bar:2", "g\n", "end"},
			"\r\x1b[K1\r\x1b[Klog\n2\n"},
		{"ended mid-line", []string{"bar:1", "lo", "end", "g\n"}, "\r\x1b[K1\r\x1b[Klog\n"},
	} {
		var out strings.Builder
		l := &liveLine{w: &out}
		for _, op := range tt.ops {
			switch {
			case strings.HasPrefix(op, "bar:"):
				l.draw(strings.TrimPrefix(op, "bar:"))
			case op == "end":
				l.end()
			default:
				l.Write([]byte(op))
			}
		}
		if out.String() != tt.want {
			t.Errorf("%s: wrote %q, want %q", tt.name, out.String(), tt.want)
		}
	}
}

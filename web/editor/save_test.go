package editor

import "testing"

// TestChangedLines: the conflict panel marks the lines between what two texts share at
// their start and at their end; each text is head, its span and tail.
func TestChangedLines(t *testing.T) {
	for _, c := range []struct{ a, b, head, aMid, bMid, tail string }{
		{"x\ny\n", "x\ny\n", "x\ny\n", "", "", ""},
		{"x\ny\n", "x\ny\n# B\n", "x\ny\n", "", "# B\n", ""},
		{"a\nb\nc\n", "a\nB\nc\n", "a\n", "b\n", "B\n", "c\n"},
		{"a\nb\nc\nd\n", "a\nB\nc\nD\n", "a\n", "b\nc\nd\n", "B\nc\nD\n", ""},
		{"", "new\n", "", "", "new\n", ""},
		{"a\nb", "a\nc", "a\n", "b", "c", ""},
	} {
		head, aMid, bMid, tail := changedLines(c.a, c.b)
		if head != c.head || aMid != c.aMid || bMid != c.bMid || tail != c.tail {
			t.Errorf("changedLines(%q, %q) = %q %q %q %q, want %q %q %q %q", c.a, c.b, head, aMid, bMid, tail, c.head, c.aMid, c.bMid, c.tail)
		}
		if head+aMid+tail != c.a || head+bMid+tail != c.b {
			t.Errorf("changedLines(%q, %q) does not put the texts back together", c.a, c.b)
		}
	}
}

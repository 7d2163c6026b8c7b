package provider

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// endless is a reader of x's that never ends: a result "line" with no newline.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += int64(len(p))
	return len(p), nil
}

// TestEachLine: the lines of a batch's results come one by one, blank ones skipped, each
// whole (a reused buffer does not bleed one into the next), one of exactly maxBody bytes
// kept; a line past maxBody ends the read with an error naming it, after reading little
// more than maxBody, rather than being held whole.
func TestEachLine(t *testing.T) {
	long := strings.Repeat("y", maxBody)
	var got []string
	err := eachLine(strings.NewReader("a longer first line\n\nb\n"+long+"\nlast"), func(line []byte) error {
		got = append(got, string(line))
		return nil
	})
	if err != nil || len(got) != 4 || got[0] != "a longer first line" || got[1] != "b" || got[2] != long || got[3] != "last" {
		t.Fatalf("%d lines %.20q, %v", len(got), got, err)
	}
	e := &endless{}
	err = eachLine(io.MultiReader(strings.NewReader("ok\n"), e), func([]byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 2 of the results is larger than 64 MiB") {
		t.Fatalf("an endless line: %v", err)
	}
	if e.read > maxBody+1<<20 {
		t.Errorf("read %d bytes of an endless line", e.read)
	}
	err = eachLine(bytes.NewReader(append([]byte(long), 'z')), func([]byte) error { return nil })
	if err == nil {
		t.Error("a last line of maxBody+1 bytes was read")
	}
}

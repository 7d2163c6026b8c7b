package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/engine"
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

// TestBarLine: the bar's line keeps within the terminal's width less one column, which it
// filled or passed at 80 columns (88 with 1200 examples): the bar shrinks first, then the
// rate, the ETA and the valid count go, then the bar; what still does not fit is cut.
func TestBarLine(t *testing.T) {
	p := engine.Progress{Done: 1082, Total: 1200, Summary: engine.Summary{Valid: 1080, InvalidOutputs: 2}}
	for _, tt := range []struct {
		columns int
		want    string
	}{
		{200, "[###########################...] 1082/1200 171.7/s eta 1s · valid 1080 · invalid 2 · errors 0"},
		{80, "[##############..] 1082/1200 171.7/s eta 1s · valid 1080 · invalid 2 · errors 0"},
		{70, "[############..] 1082/1200 eta 1s · valid 1080 · invalid 2 · errors 0"},
		{60, "[#########..] 1082/1200 · valid 1080 · invalid 2 · errors 0"},
		{50, "[############..] 1082/1200 · invalid 2 · errors 0"},
		{45, "1082/1200 · invalid 2 · errors 0"},
		{40, "1082/1200 · invalid 2 · errors 0"},
		{20, "1082/1200 · invalid"},
	} {
		got := barLine(p, 171.7, "1s", tt.columns)
		if got != tt.want {
			t.Errorf("%d columns: %q, want %q", tt.columns, got, tt.want)
		}
		if n := utf8.RuneCountInString(got); n >= tt.columns {
			t.Errorf("%d columns: %d wide", tt.columns, n)
		}
	}
}

// TestEscapeControls: on a terminal an adapter's stderr line shows its control characters
// as escapes, so it cannot move the cursor, clear the screen or set the title; a tab and
// the final line break stay; bytes that are not UTF-8 show as \xNN.
func TestEscapeControls(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain\ttext é ✓\n", "plain\ttext é ✓\n"},
		{"\x1b[2J\x1b[Hcleared\n", `\x1b[2J\x1b[Hcleared` + "\n"},
		{"50%\r100%\n", `50%\r100%` + "\n"},
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`},
		{"bad \xff\xc3 end\n", `bad \xff\xc3 end` + "\n"},
		{"c1 \u009b2J del \x7f nul \x00\n", `c1 \u009b2J del \x7f nul \x00` + "\n"},
		{"inner\nbreak\n", `inner\nbreak` + "\n"},
	} {
		if got := escapeControls([]byte(tt.in)); got != tt.want {
			t.Errorf("%q: shown as %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLiveLineStderrBounded: a run shows 10,000 lines of the adapters' stderr at most (or
// 1 MiB), above the bar; then it counts what each source writes, and says it once the
// source's stderr closes, or at the run's end for a source still open; the next run shows
// its own share.
func TestLiveLineStderrBounded(t *testing.T) {
	var out strings.Builder
	l := &liveLine{w: &out}
	l.draw("bar")
	for range stderrShownLines {
		l.Stderr("a[1]: ", []byte("line\n"))
	}
	l.Stderr("a[1]: ", []byte("hidden\n"))
	l.Stderr("b[1]: ", []byte("hidden too\n"))
	l.Stderr("a[1]: ", []byte("and\n"))
	l.StderrEnd("a[1]: ")
	l.end()
	l.Stderr("a[1]: ", []byte("next run\n"))
	got := out.String()
	if n := strings.Count(got, "a[1]: line\n"); n != stderrShownLines {
		t.Errorf("%d lines shown, want %d", n, stderrShownLines)
	}
	tail := got[strings.LastIndex(got, "a[1]: line\n")+len("a[1]: line\n"):]
	want := "bar\r\x1b[K… a[1]: 11 more bytes of stderr not shown\nbar\n… b[1]: 11 more bytes of stderr not shown\n" +
		"a[1]: next run\n"
	if tail != want {
		t.Errorf("after the lines shown: %q, want %q", tail, want)
	}
	var big strings.Builder
	l = &liveLine{w: &big}
	line := []byte(strings.Repeat("x", 999) + "\n")
	for range 2000 {
		l.Stderr("a[1]: ", line)
	}
	l.end()
	if n := strings.Count(big.String(), "a[1]: x"); n != 1042 || !strings.Contains(big.String(), "… a[1]: 958000 more bytes") {
		t.Errorf("%d lines of 1006 bytes shown, want 1042 (1 MiB), then the bytes not shown: %q", n, big.String()[big.Len()-100:])
	}
}

// TestLiveLineResized: a bar drawn for a wide terminal is cut to the width the terminal has
// when it is drawn again below a log line, not left to wrap.
func TestLiveLineResized(t *testing.T) {
	var out strings.Builder
	cols := 120
	l := &liveLine{w: &out, cols: func() int { return cols }}
	l.draw(strings.Repeat("#", 100))
	cols = 40
	l.Stderr("a[1]: ", []byte("log\n"))
	if want := "a[1]: log\n" + strings.Repeat("#", 39); !strings.HasSuffix(out.String(), want) {
		t.Errorf("wrote %q, want it to end with %q", out.String(), want)
	}
}

// TestSyncWriterStderr: the runs of several systems share the log through a syncWriter,
// which passes the adapters' stderr on apart to a terminal's liveLine (escaped there), and
// to anything else as any line, prefix first, bytes as they are.
func TestSyncWriterStderr(t *testing.T) {
	var term, pipe strings.Builder
	(&syncWriter{w: &liveLine{w: &term}}).Stderr("a[1]: ", []byte("\x1b[2J\n"))
	(&syncWriter{w: &pipe}).Stderr("a[1]: ", []byte("\x1b[2J\n"))
	if term.String() != `a[1]: \x1b[2J`+"\n" || pipe.String() != "a[1]: \x1b[2J\n" {
		t.Errorf("on a terminal %q, in a pipe %q", term.String(), pipe.String())
	}
}

// TestStderrFileBounded: a run's log of its adapters' stderr keeps 64 MiB at most, then says
// in it how much more there was.
func TestStderrFileBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "run.stderr.log")
	var out strings.Builder
	l := &liveLine{w: &out}
	l.stderr.file.path = path
	line := []byte(strings.Repeat("x", 1<<20-7) + "\n") // 1 MiB with the prefix
	for range 66 {
		l.Stderr("a[1]: ", line)
	}
	l.end()
	kept, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	note := fmt.Sprintf("… %d more bytes of stderr not kept: a run keeps 64 MiB\n", 2*len(line))
	if len(kept) != 64<<20+len(note) || !strings.HasSuffix(string(kept), note) {
		t.Errorf("the log holds %d bytes, want 64 MiB and %q; its end: %q", len(kept), note, kept[max(0, len(kept)-80):])
	}
	if !strings.Contains(out.String(), "(the run's stderr is in "+path+")") {
		t.Errorf("the terminal does not name the log: %q", out.String()[max(0, out.Len()-200):])
	}
}

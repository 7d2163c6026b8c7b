package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/adapter"
)

// How much of the adapters' stderr a run shows on a terminal. Past it, a command writing
// 100 MB of stderr held the terminal for seconds and pushed everything else out of sight;
// what is not shown is counted and said once its command's stderr closes.
const (
	stderrShownBytes = 1 << 20
	stderrShownLines = 10000
)

// stderrShown is how much of the adapters' stderr the run has shown (bytes as shown), what
// it held back from each source (a binding's worker, "sys[1]: "), and its log of all of it.
type stderrShown struct {
	bytes, lines int
	hidden       map[string]int
	file         stderrFile
}

// endStderr says what the run did not show of the stderr of each source not yet closed, and
// starts the next run's share, with l.mu held.
func (l *liveLine) endStderr() {
	for _, source := range slices.Sorted(maps.Keys(l.stderr.hidden)) {
		l.notShown(source)
	}
	l.stderr.file.close()
	l.stderr = stderrShown{}
}

// Stderr shows a line a command wrote to stderr (adapter.StderrLog), its control characters
// escaped, or counts its bytes once the run has shown its share (counted as shown, escapes
// and prefixes included, so that a line of control characters cannot show four times more).
// Once a source's line is held back, the rest of it is too: what shows is its beginning.
func (l *liveLine) Stderr(source string, line []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := &l.stderr
	s.file.write(source, line)
	var shown string
	if s.bytes+len(source)+len(line) <= stderrShownBytes && s.lines < stderrShownLines && s.hidden[source] == 0 {
		shown = source + escapeControls(line) // only a line that may show: escaping every line held back took seconds for 100 MB
	}
	if shown == "" || s.bytes+len(shown) > stderrShownBytes {
		if s.hidden == nil {
			s.hidden = map[string]int{}
		}
		s.hidden[source] += len(line)
		return
	}
	s.bytes += len(shown)
	s.lines++
	l.put([]byte(shown))
}

// StderrEnd says, once a command's stderr has closed, how much of it was not shown.
func (l *liveLine) StderrEnd(source string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notShown(source)
}

func (l *liveLine) notShown(source string) {
	if n := l.stderr.hidden[source]; n > 0 {
		delete(l.stderr.hidden, source)
		l.put(fmt.Appendf(nil, "… %s: %s of stderr not shown%s\n", strings.TrimSuffix(source, ": "), count(n, "more byte"), l.stderr.file.where()))
	}
}

// Stderr and StderrEnd pass the adapters' stderr on apart, when the runs of several systems
// share the log, to a terminal's liveLine; to anything else as any other line.
func (s *syncWriter) Stderr(source string, line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.w.(adapter.StderrLog); ok {
		l.Stderr(source, line)
		return
	}
	s.w.Write(append([]byte(source), line...))
}

func (s *syncWriter) StderrEnd(source string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.w.(adapter.StderrLog); ok {
		l.StderrEnd(source)
	}
}

// escapeControls is line as a terminal may show it: a control character other than a tab
// and the final line break, which would move the cursor (\r over the binding's name), clear
// the screen (ESC [ 2 J) or set the title or clipboard (OSC), is shown as an escape (\r,
// \x1b, \u009b), and a byte that is not UTF-8 as \xff. Only a terminal gets this: through
// a pipe the bytes go as written, for the file or program that reads them to judge.
func escapeControls(line []byte) string {
	if plain(line) {
		return string(line)
	}
	var b strings.Builder
	body, end := line, ""
	if n := len(line); n > 0 && line[n-1] == '\n' {
		body, end = line[:n-1], "\n"
	}
	for len(body) > 0 {
		r, size := utf8.DecodeRune(body)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, body[0])
		case r == '\t' || (r >= ' ' && r < 0x7f) || r > 0x9f:
			b.Write(body[:size])
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default: // C1 controls: U+009B is a CSI to some terminals
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		body = body[size:]
	}
	b.WriteString(end)
	return b.String()
}

// The logs that take the adapters' stderr apart.
var (
	_ adapter.StderrLog = (*liveLine)(nil)
	_ adapter.StderrLog = (*syncWriter)(nil)
)

// plain reports whether line is printable ASCII, tabs and a final line break: most lines,
// shown as they are without a look at each rune.
func plain(line []byte) bool {
	for i, c := range line {
		if (c < ' ' && c != '\t' && (c != '\n' || i != len(line)-1)) || c >= 0x7f {
			return false
		}
	}
	return true
}

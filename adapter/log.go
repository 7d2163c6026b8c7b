package adapter

import (
	"io"
	"sync"
)

// StderrLog is a run log that takes the commands' stderr apart from benchy's own lines, to
// show it as only the log's owner can know how: the CLI, on a terminal, escapes its control
// characters and bounds how much of it is shown. A log that is not one gets each stderr
// line as any other, its prefix first.
type StderrLog interface {
	io.Writer
	// Stderr takes one line a command wrote to stderr, its secrets masked, ending in a line
	// break; source names the binding and worker ("sys[1]: ").
	Stderr(source string, line []byte)
	// StderrEnd says that the stderr of source's process has closed.
	StderrEnd(source string)
}

// logSink is the run log that the processes of one binding share. Each write is one whole
// line under a lock, so lines from several workers interleave but never tear.
type logSink struct {
	mu     sync.Mutex
	w      io.Writer
	stderr StderrLog // w, when it takes stderr apart
	buf    []byte
}

func newLogSink(w io.Writer) *logSink {
	if w == nil {
		w = io.Discard
	}
	s := &logSink{w: w}
	s.stderr, _ = w.(StderrLog)
	return s
}

// line writes prefix, text and a line break if text lacks one. Errors are dropped: a full
// disk must not fail an example.
func (s *logSink) line(prefix string, text []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.write(prefix, text)
}

func (s *logSink) write(prefix string, text []byte) {
	s.buf = append(append(s.buf[:0], prefix...), text...)
	if len(text) == 0 || text[len(text)-1] != '\n' {
		s.buf = append(s.buf, '\n')
	}
	s.w.Write(s.buf)
}

// stderrLine is line for a line a command wrote to stderr.
func (s *logSink) stderrLine(prefix string, text []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stderr == nil {
		s.write(prefix, text)
		return
	}
	s.buf = append(s.buf[:0], text...)
	if len(text) == 0 || text[len(text)-1] != '\n' {
		s.buf = append(s.buf, '\n')
	}
	s.stderr.Stderr(prefix, s.buf)
}

// stderrEnd says that a process's stderr has closed, to a log that takes stderr apart.
func (s *logSink) stderrEnd(prefix string) {
	if s.stderr != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.stderr.StderrEnd(prefix)
	}
}

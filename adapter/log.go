package adapter

import (
	"io"
	"sync"
)

// logSink is the run log that the processes of one binding share. Each write is one whole
// line under a lock, so lines from several workers interleave but never tear.
type logSink struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func newLogSink(w io.Writer) *logSink {
	if w == nil {
		w = io.Discard
	}
	return &logSink{w: w}
}

// line writes prefix, text and a line break if text lacks one. Errors are dropped: a full
// disk must not fail an example.
func (s *logSink) line(prefix string, text []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(append(s.buf[:0], prefix...), text...)
	if len(text) == 0 || text[len(text)-1] != '\n' {
		s.buf = append(s.buf, '\n')
	}
	s.w.Write(s.buf)
}

package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// stderrFileMost bounds a run's log of its adapters' stderr: a command that writes without
// end must not fill the disk.
const stderrFileMost = 64 << 20

// stderrFile is a run's log of its adapters' stderr, bytes as written (their secrets were
// masked before), up to stderrFileMost: the terminal shows the beginning only
// (stderrShown), the log keeps the rest. It is the run's, in its workspace's store folder
// (.benchy/logs/RUN.stderr.log, see recorder.stderrLog), readable by its owner only, and
// made at the first line: a run whose adapters write nothing to stderr leaves none.
type stderrFile struct {
	path    string // "" when the run keeps no log (not stored, or not on a terminal)
	f       *os.File
	w       *bufio.Writer // over f: a line is no write of its own (100 MB of stderr is millions)
	kept    int           // bytes written
	dropped int           // bytes past stderrFileMost
	failed  bool          // it could not be made or written: the run goes on without it
}

// write keeps a line of source's stderr.
func (s *stderrFile) write(source string, line []byte) {
	if s.path == "" || s.failed {
		return
	}
	if s.f == nil {
		f, err := openStderrFile(s.path)
		if err != nil {
			s.failed = true
			return
		}
		s.f, s.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	if s.kept+len(source)+len(line) > stderrFileMost {
		s.dropped += len(line)
		return
	}
	s.w.WriteString(source)
	_, err := s.w.Write(line) // a write error sticks: this one reports the line's
	s.kept += len(source) + len(line)
	s.failed = err != nil

}

func openStderrFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
}

// where is what a note on stderr not shown adds: where the run keeps it, if it does.
func (s *stderrFile) where() string {
	if s.f == nil || s.failed {
		return ""
	}
	return " (the run's stderr is in " + s.path + ")"
}

// close ends the log, saying in it what it did not keep.
func (s *stderrFile) close() {
	if s.f == nil {
		return
	}
	if s.dropped > 0 {
		fmt.Fprintf(s.w, "… %s of stderr not kept: a run keeps %d MiB\n", count(s.dropped, "more byte"), stderrFileMost>>20)
	}
	s.w.Flush()
	s.f.Close()
}

// keepStderr keeps the run's adapters' stderr in the file at path ("": none), when the bar
// is drawn on a terminal, which shows only the beginning of it.
func (b *progressBar) keepStderr(path string) {
	if b.live != nil {
		b.live.mu.Lock()
		defer b.live.mu.Unlock()
		b.live.stderr.file.path = path
	}
}

// stderrLog is where the run keeps its adapters' stderr: beside the store, named by the
// run. A run that is not stored keeps none ("").
func (r *recorder) stderrLog() string {
	if r == nil {
		return ""
	}
	return filepath.Join(filepath.Dir(r.db), "logs", r.id+".stderr.log")
}

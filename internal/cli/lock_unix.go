//go:build unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// outputLock is an exclusive lock on the result files of one -o: an flock on a file beside
// them, which the kernel releases when its run ends in any way, kill -9 included.
type outputLock struct {
	f    *os.File
	path string
}

// lockOutput takes the lock of the result files streaming to stream, or says which run
// holds it.
func lockOutput(stream string) (*outputLock, error) {
	path := lockPath(stream)
	for range 10 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
		if err != nil {
			return nil, err
		}
		info, err := f.Stat()
		if st, ok := info.Sys().(*syscall.Stat_t); err != nil || !info.Mode().IsRegular() || !ok || st.Nlink != 1 {
			f.Close()
			return nil, fmt.Errorf("%s is not a lock file benchy made (a link?); remove it", path)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			holder := readHolder(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				if holder == "" {
					holder = "a process that is starting"
				}
				return nil, fmt.Errorf("%w (%s)", errOutputBusy, holder)
			}
			return nil, err
		}
		// A run that just ended removes its lock file: the lock is good only while the name
		// is still this file.
		if now, err := os.Lstat(path); err != nil || !os.SameFile(info, now) {
			f.Close()
			continue
		}
		host, _ := os.Hostname()
		f.Truncate(0)
		fmt.Fprintf(f, "process %d on %s, started %s\n", os.Getpid(), host, time.Now().Format(time.DateTime))
		return &outputLock{f: f, path: path}, nil
	}
	return nil, fmt.Errorf("%s keeps changing; is another run starting?", path)
}

// release removes the lock file, then lets the lock go.
func (l *outputLock) release() {
	if l == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
}

//go:build unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// outputLock is an exclusive lock on every file one run writes (its document and its
// stream): an flock on a file beside each, which the kernel releases when its run ends in
// any way, kill -9 included.
type outputLock struct {
	files []*os.File
	paths []string
}

// lockOutput takes the locks of the files a run writes, its document out and its stream,
// or says which run holds one of them. Each lock is taken without waiting, so two runs
// that want each other's files never deadlock: the second gets none of them. Locking by
// file name, not by -o, is what keeps apart runs whose files overlap although their -o
// differ: -o a.json streams to a.jsonl, the very document of -o a.jsonl.
func lockOutput(out, stream string) (*outputLock, error) {
	l := &outputLock{}
	for _, name := range []string{out, stream} {
		path := lockPath(name)
		f, err := lockFile(path, name)
		if err != nil {
			l.release()
			return nil, err
		}
		l.files, l.paths = append(l.files, f), append(l.paths, path)
	}
	return l, nil
}

// lockFile takes the lock at path, of the result file name, or says which run holds it.
func lockFile(path, name string) (*os.File, error) {
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
				return nil, fmt.Errorf("%w (%s, which writes %s)", errOutputBusy, holder, name)
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
		return f, nil
	}
	return nil, fmt.Errorf("%s keeps changing; is another run starting?", path)
}

// release removes the lock files, then lets the locks go.
func (l *outputLock) release() {
	if l == nil {
		return
	}
	for i, f := range l.files {
		os.Remove(l.paths[i])
		f.Close()
	}
	l.files, l.paths = nil, nil
}

//go:build unix

package shard

import (
	"errors"
	"os"
	"syscall"
)

// lock takes an exclusive flock on f without waiting: the kernel releases it when the
// process ends in any way, kill -9 included. errBusy when another process holds it.
func lock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errBusy
	}
	return err
}

// nonBlocking opens a file without waiting for a FIFO's other end (openJournalFile).
const nonBlocking = syscall.O_NONBLOCK

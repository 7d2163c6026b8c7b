//go:build unix

package server

import "syscall"

// openNonblock opens a FIFO without waiting for a writer.
const openNonblock = syscall.O_NONBLOCK

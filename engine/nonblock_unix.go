//go:build unix

package engine

import "syscall"

// nonBlocking opens a file without waiting for a writer: a FIFO opens at once (and is
// then refused as not regular); a regular file reads as usual.
const nonBlocking = syscall.O_NONBLOCK

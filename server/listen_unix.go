//go:build unix

package server

import "syscall"

// fdLimit is how many files the process may have open.
func fdLimit() (uint64, bool) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur == 0 {
		return 0, false
	}
	return uint64(lim.Cur), true
}

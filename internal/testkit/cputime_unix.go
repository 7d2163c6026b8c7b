//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time the process has used, user and system: on a shared machine a
// steadier measure than the wall clock of what a benchmark costs.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

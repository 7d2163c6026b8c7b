//go:build !unix

package testkit

import "time"

// CPUTime is unknown here; the benchmarks' per-CPU-second rates then read +Inf.
func CPUTime() time.Duration { return 0 }

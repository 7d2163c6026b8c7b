//go:build !unix

package store

import "time"

// cpuTime is unknown here; the benchmarks' per-CPU-second rates then read +Inf.
func cpuTime() time.Duration { return 0 }

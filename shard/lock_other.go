//go:build !unix

package shard

import "os"

// lock is a no-op where flock is not: two runs of one shard are then the user's to avoid.
func lock(*os.File) error { return nil }

// nonBlocking is 0 where opening a file cannot wait for a writer.
const nonBlocking = 0

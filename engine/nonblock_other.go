//go:build !unix

package engine

// nonBlocking is 0 where opening a file cannot wait for a writer.
const nonBlocking = 0

//go:build !unix

package server

// openNonblock: elsewhere there are no FIFOs to open by a workspace path.
const openNonblock = 0

//go:build !linux

package engine

import "io/fs"

// fileKey: outside Linux no change time is read, so no artifact digest is remembered and
// every artifact is hashed on every validation pass.
func fileKey(info fs.FileInfo) (versionKey, bool) { return versionKey{}, false }

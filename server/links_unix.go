//go:build unix

package server

import (
	"io/fs"
	"syscall"
)

// manyLinks reports whether the file of info has more than one name (a hard link).
func manyLinks(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 1
}

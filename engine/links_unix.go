//go:build unix

package engine

import (
	"io/fs"
	"syscall"
)

// ManyLinks reports whether the file of info has more than one name (a hard link): such a
// file may be another file's other name (the runtime file's, .env's, a script's, or a
// file's outside the workspace), which no path rule can see, so what Benchy serves or
// sends as text (an artifact, a benchmark through the API, a prompt) has one name only.
func ManyLinks(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 1
}

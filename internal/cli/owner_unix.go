//go:build unix

package cli

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the file info describes, where the user may
// (root may; others only their own groups): a root rewrite of another user's file leaves it
// theirs. A refusal is not an error: the file is still written, owned by the user.
func keepOwner(f *os.File, info fs.FileInfo) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		f.Chown(int(st.Uid), int(st.Gid))
	}
}

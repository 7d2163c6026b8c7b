package engine

import (
	"io/fs"
	"syscall"
	"time"
)

// fileKey names the version of the file info describes, and says whether it may be
// remembered.
func fileKey(info fs.FileInfo) (versionKey, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return versionKey{}, false
	}
	k := versionKey{dev: uint64(st.Dev), ino: uint64(st.Ino), size: info.Size(), mtime: info.ModTime().UnixNano(),
		ctime: time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)).UnixNano()}
	// A file changed within the last two seconds may change again within the timestamps'
	// resolution unseen: it is hashed, not remembered (git's "racily clean" rule).
	if time.Since(time.Unix(0, max(k.mtime, k.ctime))) < 2*time.Second {
		return k, false
	}
	return k, true
}

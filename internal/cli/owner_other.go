//go:build !unix

package cli

import (
	"io/fs"
	"os"
)

// keepOwner does nothing here: files have no Unix owner to keep.
func keepOwner(*os.File, fs.FileInfo) {}

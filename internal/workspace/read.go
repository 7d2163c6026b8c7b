package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// ReadFile's errors besides the file system's.
var (
	ErrTooLarge = errors.New("over the size limit")
	ErrLinkOut  = errors.New("a link leading out of the workspace")
)

// ErrRuntimeLink is LoadRuntime's error for a runtime file that is a link, wherever it
// leads: what it runs would be the file it names, which has another name and so none of
// the runtime file's protection (the server saves a .yaml of that name through its API).
var ErrRuntimeLink = errors.New("a link, and a runtime file is read only as a file of its own")

// ReadFile reads the regular file at slash path p inside root, of at most max bytes, with
// the version (size, modification time) it was read at. A link leading out of root, a
// FIFO, a device or a folder is refused before a byte is read (engine.ErrNotRegular, or
// os.Root's error); a file over max is ErrTooLarge, also one that grows while it is read.
func ReadFile(root *os.Root, p string, max int64) ([]byte, fs.FileInfo, error) {
	f, info, err := engine.OpenRegularIn(root, p)
	if err != nil {
		if linkOut(root, p) {
			err = ErrLinkOut
		}
		return nil, nil, err
	}
	defer f.Close()
	if info.Size() > max {
		return nil, nil, ErrTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > max {
		return nil, nil, ErrTooLarge
	}
	return data, info, nil
}

// linkOut reports whether p in root is a link that os.Root refuses to follow: one leading
// out of root (or a chain of them that does), told apart by following it outside os.Root.
func linkOut(root *os.Root, p string) bool {
	info, err := root.Lstat(filepath.FromSlash(p))
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return false
	}
	_, err = root.Stat(filepath.FromSlash(p))
	_, outside := os.Stat(filepath.Join(root.Name(), filepath.FromSlash(p)))
	return err != nil && outside == nil
}

// LoadRuntime reads and parses the runtime file at slash path p of the workspace root, as
// `benchy run` and `benchy serve` both read the one a benchmark binds through (Runtime):
// a regular file inside the workspace (ReadFile), not a link (ErrRuntimeLink), whose
// commands run in its folder. Its
// problems come back as diagnostics naming it as name (one over yamlnode.MaxSize too, read
// no further: adapter.ReadRuntimeFrom, as benchy run --runtime reads one); a file that
// cannot be read as the file system's error, wrapped.
func LoadRuntime(root *os.Root, p, name string) (*adapter.Runtime, error) {
	if info, err := root.Lstat(filepath.FromSlash(p)); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("the runtime file %s is %w; pass the file it leads to as --runtime FILE to use it", name, ErrRuntimeLink)
	}
	f, _, err := engine.OpenRegularIn(root, p)
	var src []byte
	if err == nil {
		src, err = adapter.ReadRuntimeFrom(f, name) // bounded as benchy run --runtime reads one
		f.Close()
	}
	var ds diag.List
	switch {
	case errors.As(err, &ds):
		return nil, err
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once, as name
		}
		return nil, fmt.Errorf("cannot read the runtime file %s: %w", name, err)
	}
	rt, err := adapter.ParseRuntime(src, filepath.Join(root.Name(), filepath.FromSlash(path.Dir(p))))
	if errors.As(err, &ds) {
		return nil, ds.In(name).Err()
	}
	return rt, err
}

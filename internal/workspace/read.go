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

// ErrTooLarge is ReadFile's error for a file over the size asked for.
var ErrTooLarge = errors.New("over the size limit")

// MaxRuntimeRead is the most of a runtime file read before it is parsed. The parser refuses
// more than 1 MiB itself, with a diagnostic that gives the size; the read stops at 8 MiB so
// that a runtime file that is a huge file costs no more than that.
const MaxRuntimeRead = 8 << 20

// ReadFile reads the regular file at slash path p inside root, of at most max bytes, with
// the version (size, modification time) it was read at. A link leading out of root, a
// FIFO, a device or a folder is refused before a byte is read (engine.ErrNotRegular, or
// os.Root's error); a file over max is ErrTooLarge, also one that grows while it is read.
func ReadFile(root *os.Root, p string, max int64) ([]byte, fs.FileInfo, error) {
	f, info, err := engine.OpenRegularIn(root, p)
	if err != nil {
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

// LoadRuntime reads and parses the runtime file at slash path p of the workspace root, as
// `benchy run` and `benchy serve` both read the one a benchmark binds through (Runtime):
// a regular file inside the workspace (ReadFile), whose commands run in its folder. Its
// problems come back as diagnostics naming it as name; a file that cannot be read as
// ReadFile's error, wrapped.
func LoadRuntime(root *os.Root, p, name string) (*adapter.Runtime, error) {
	src, _, err := ReadFile(root, p, MaxRuntimeRead)
	if err != nil {
		return nil, fmt.Errorf("cannot read the runtime file %s: %w", name, err)
	}
	rt, err := adapter.ParseRuntime(src, filepath.Join(root.Name(), filepath.FromSlash(path.Dir(p))))
	var ds diag.List
	if errors.As(err, &ds) {
		return nil, ds.In(name).Err()
	}
	return rt, err
}

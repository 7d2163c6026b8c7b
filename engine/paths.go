package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Paths confines the files a run reads as data: the dataset, its artifacts and a model's
// prompt file. Each must resolve, after symbolic links, inside Workspace (or anywhere,
// with AllowOutside), and none may be private: the runtime file, or a hidden file or a
// file in a hidden folder (a path component starting with '.', so .benchy/ and .env too).
// Private files are refused even with AllowOutside. A refusal's message names the path as
// written, never the file's content.
type Paths struct {
	// Workspace is the folder the files must lie in: the server's workspace, or the
	// workspace of the benchmark for the CLI. "" means the benchmark's own folder.
	Workspace string
	// AllowOutside lifts the confinement to Workspace (benchy run --allow-outside).
	AllowOutside bool
	// Hint ends the message of a path refused for lying outside: how to allow it.
	Hint string
	// Private names more files never read, by any name or link: the runtime file when it
	// has another name than RuntimeFile (benchy run --runtime FILE).
	Private []string
}

// RuntimeFile is the name of the runtime file (adapter.RuntimeFile), never read as data:
// it says where every AI-system is and how to reach it.
const RuntimeFile = "benchy.runtime.yaml"

// PathKind says why a PathError refused a path.
type PathKind int

const (
	PathMissing    PathKind = iota // nothing is there
	PathOutside                    // it resolves outside the workspace
	PathPrivate                    // the runtime file, or hidden
	PathNotRegular                 // a directory, FIFO, device or socket
	PathUnreadable                 // it exists but cannot be opened or read
)

// PathError is a file a run will not read. Its message holds the name as written and the
// reason, never a byte of the file.
type PathError struct {
	Name   string // as written
	Kind   PathKind
	Reason string // "does not exist", "lies outside the workspace", ...
}

func (e *PathError) Error() string { return fmt.Sprintf("%q %s", clip(e.Name), e.Reason) }

// ReadFile reads the file name, slash-separated and relative to dir (the benchmark's
// folder), under the confinement of p: at most limit bytes (0: no limit). Any refusal is
// a *PathError.
func (p Paths) ReadFile(dir, name string, limit int64) ([]byte, error) {
	f, err := p.Open(dir, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.Reader(f)
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &PathError{Name: name, Kind: PathUnreadable, Reason: "cannot be read: " + unwrapPathError(err).Error()}
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, &PathError{Name: name, Kind: PathUnreadable, Reason: fmt.Sprintf("is larger than %d bytes", limit)}
	}
	return data, nil
}

// Open opens the file name as ReadFile reads it, under the same confinement, for a reader
// that streams it (the server's artifacts). Any refusal is a *PathError; close the file
// when done.
func (p Paths) Open(dir, name string) (*os.File, error) {
	fsys, err := p.open(dir)
	if err != nil {
		return nil, &PathError{Name: name, Kind: PathUnreadable, Reason: "cannot be read: " + err.Error()}
	}
	defer fsys.Close()
	base, err := realDir(dir)
	if err != nil {
		return nil, &PathError{Name: name, Kind: PathUnreadable, Reason: "cannot be found: its folder cannot be resolved"}
	}
	f, _, perr := fsys.open(base, name)
	if perr != nil {
		return nil, perr
	}
	return f, nil
}

// confined opens the files of one run, inside its folder. Close it when done.
type confined struct {
	dir      string // the folder, absolute, symbolic links resolved
	what     string // "the workspace" or "the benchmark's directory", for messages
	hint     string
	anywhere bool
	private  []fs.FileInfo // the files of Paths.Private that exist, found once per run
	root     *os.Root      // dir, through which files inside it are opened
}

// open prepares the confinement of a run whose benchmark is in folder bench.
func (p Paths) open(bench string) (*confined, error) {
	c := &confined{what: "the workspace", hint: p.Hint, anywhere: p.AllowOutside}
	for _, q := range p.Private {
		if info, err := os.Stat(q); err == nil {
			c.private = append(c.private, info)
		}
	}
	dir := p.Workspace
	if dir == "" {
		dir, c.what = bench, "the benchmark's directory"
	}
	real, err := realDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %v", c.what, unwrapPathError(err))
	}
	if c.root, err = os.OpenRoot(real); err != nil {
		return nil, fmt.Errorf("cannot open %s: %v", c.what, unwrapPathError(err))
	}
	c.dir = real
	return c, nil
}

func (c *confined) Close() error { return c.root.Close() }

// realDir is dir absolute with its symbolic links resolved; "" is the working directory.
func realDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// open resolves name (as written: slash-separated, relative to base, an absolute folder
// with its links resolved) and opens it for reading: a regular file, inside the folder
// unless anywhere, not private. It returns the file and its resolved absolute path. A
// FIFO or a device is refused without being opened for blocking reads, so it cannot hang
// the run.
func (c *confined) open(base, name string) (*os.File, string, *PathError) {
	refuse := func(kind PathKind, reason string) (*os.File, string, *PathError) {
		return nil, "", &PathError{Name: name, Kind: kind, Reason: reason}
	}
	outside := func() (*os.File, string, *PathError) {
		reason := "lies outside " + c.what
		if c.hint != "" {
			reason += "; " + c.hint
		}
		return refuse(PathOutside, reason)
	}
	if name == "" {
		return refuse(PathMissing, "is empty")
	}
	local := filepath.FromSlash(name)
	if part := PrivatePart(local); part != "" {
		return refuse(PathPrivate, privateReason(part))
	}
	p := local
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	if _, in := within(c.dir, p); !in && !c.anywhere {
		return outside() // decided by the name alone: nothing outside is even looked at
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		// Say "outside" when the part that exists leads out, so that a link out of the
		// folder cannot tell which files exist beyond it.
		if _, in := within(c.dir, existingPrefix(p)); !in && !c.anywhere {
			return outside()
		}
		if errors.Is(err, fs.ErrNotExist) {
			return refuse(PathMissing, "does not exist")
		}
		return refuse(PathUnreadable, "cannot be found: "+unwrapPathError(err).Error())
	}
	rel, in := within(c.dir, real)
	if !in && !c.anywhere {
		return outside()
	}
	check := rel
	if !in {
		check = real
	}
	if part := PrivatePart(check); part != "" {
		return refuse(PathPrivate, privateReason(part))
	}
	// Lstat before opening, so that a device is never opened (real has no links left: one
	// found now was put there since); open without blocking, so that a FIFO put in its place
	// cannot hang the run; and the file opened must be the one checked, so that nothing
	// swapped in between (a link to .env, say) is read.
	var info fs.FileInfo
	if in {
		info, err = c.root.Lstat(rel)
	} else {
		info, err = os.Lstat(real)
	}
	if err == nil && !info.Mode().IsRegular() {
		return refuse(PathNotRegular, "is not a regular file")
	}
	for _, qi := range c.private {
		if err == nil && os.SameFile(info, qi) {
			return refuse(PathPrivate, privateReason(RuntimeFile))
		}
	}
	var f *os.File
	if err == nil {
		if in {
			f, err = c.root.OpenFile(rel, os.O_RDONLY|nonBlocking, 0)
		} else {
			f, err = os.OpenFile(real, os.O_RDONLY|nonBlocking, 0)
		}
	}
	if err != nil {
		if in && strings.Contains(err.Error(), "escapes") {
			return outside() // a link put in the way since it was resolved
		}
		return refuse(PathUnreadable, "cannot be read: "+unwrapPathError(err).Error())
	}
	if opened, err := f.Stat(); err != nil || !opened.Mode().IsRegular() || !os.SameFile(info, opened) {
		f.Close()
		return refuse(PathNotRegular, "is not a regular file (or changed while it was opened)")
	}
	return f, real, nil
}

// ErrNotRegular is OpenRegular's error for a directory, FIFO, device or socket.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path for reading if it is a regular file: a device is never opened
// and a FIFO never waited on (one put in its place between the checks is opened without
// blocking, then refused). Anything else is ErrNotRegular.
func OpenRegular(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, err
	}
	if opened, err := f.Stat(); err != nil || !opened.Mode().IsRegular() || !os.SameFile(info, opened) {
		f.Close()
		return nil, ErrNotRegular
	}
	return f, nil
}

// OpenRegularIn is OpenRegular for slash path p inside root: a link that leads out of root
// is refused as os.Root refuses it, and what is not a regular file is ErrNotRegular,
// opened without blocking first so that a FIFO is never waited on.
func OpenRegularIn(root *os.Root, p string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(filepath.FromSlash(p), os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, ErrNotRegular
	}
	return f, info, nil
}

// within returns p relative to dir, and whether it lies inside dir (dir itself included).
// Both are absolute and clean.
func within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return rel, true
}

// existingPrefix is the longest leading part of p that exists, its links resolved.
func existingPrefix(p string) string {
	for {
		parent := filepath.Dir(p)
		if parent == p {
			return p
		}
		p = parent
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return real
		}
	}
}

// IsPrivate reports whether path (slash- or OS-separated) has a component a run never
// reads as data: hidden (starting with '.', other than . and ..) or the runtime file, in
// any case. The server refuses the same paths to pages and uploads.
func IsPrivate(path string) bool { return PrivatePart(path) != "" }

// PrivatePart returns the first component of path that is private: hidden (starting with
// '.', other than . and ..) or the runtime file. "" when there is none.
func PrivatePart(path string) string {
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if part == "." || part == ".." {
			continue
		}
		if strings.HasPrefix(part, ".") || strings.EqualFold(part, RuntimeFile) {
			return part
		}
	}
	return ""
}

func privateReason(part string) string {
	if strings.EqualFold(part, RuntimeFile) {
		return "is the runtime file, which is never read as data"
	}
	return fmt.Sprintf("is hidden or in a hidden folder (%s), which is never read as data", clip(part))
}

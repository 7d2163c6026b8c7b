package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// The result files of `benchy run` are its own: the document is written to a temporary
// file in its folder, synced and renamed over -o, and the stream is a new file from its
// first line (renamed into place, then appended to, so that it can be followed while the
// run goes and holds the results so far if the run dies). Neither is ever written through
// a name that already exists, so a hard link or a symbolic link at -o cannot carry the
// results into another file; and -o is refused outright when it names, by any path, a file
// the run reads. A lock beside each file keeps two runs from writing the same one.

// guarded is a file a run reads, which -o must not name.
type guarded struct {
	path string
	what string // for the message: "the dataset data/rows.jsonl"
}

// outputClash says why -o cannot be used, or "": standard output is not a file, and the
// result files must not be, by any path (a symbolic link, a linked folder, a hard link),
// the benchmark, its dataset or artifacts, the runtime file or the store, nor what
// forbidden says no output is. benchDir is the benchmark's folder, ws the folder the run is
// confined to (engine.Paths.Workspace).
func outputClash(out, stream, benchDir, ws string, b *ir.Benchmark, files []guarded) string {
	if out == "-" || out == "" {
		return "-o needs a file name: the result document is a file, with its JSONL stream beside it"
	}
	if why := readsClash("-o", out, []string{out, stream}, ws, benchDir, b, files); why != "" {
		return why
	}
	return folderClash("-o", out)
}

// readsClash says why the files written for flag out (paths: out itself, and for a run's
// -o its stream) cannot be written, or "": one is a folder, or one is what forbidden
// refuses in workspace ws, given files and the dataset of benchmark b, whose folder is
// benchDir; or one is an artifact the dataset names. Every file benchy writes at a name the
// user gives passes it: `benchy run`'s -o (outputClash) and --junit (junitClash), `benchy
// runs export -o` and `benchy report -o` (exportClash), so that none writes over what a
// run reads.
func readsClash(flag, out string, paths []string, ws, benchDir string, b *ir.Benchmark, files []guarded) string {
	dataset := filepath.Join(benchDir, filepath.FromSlash(b.Data.Path))
	files = append(files[:len(files):len(files)], guarded{dataset, "the dataset " + b.Data.Path})
	var existing []os.FileInfo
	var names []string
	for _, p := range paths {
		info, err := os.Stat(p) // through links: what writing p would have written
		if err == nil && info.IsDir() {
			return fmt.Sprintf("%s %s: %s is a folder", flag, out, p)
		}
		if err == nil && !info.Mode().IsRegular() {
			// The file is written new and renamed into place: over /dev/null, run as root,
			// that replaced the device with a regular file for the whole machine.
			return fmt.Sprintf("%s %s: %s is not a regular file (a device, a FIFO or a socket), which writing the results would replace with one; name a file", flag, out, p)
		}
		if why := forbidden(p, ws, files); why != "" {
			return fmt.Sprintf("%s %s %s", flag, out, why)
		}
		if err == nil {
			existing, names = append(existing, info), append(names, p)
		}
	}
	if len(existing) == 0 {
		return ""
	}
	if line, field, p := artifactClash(dataset, b, existing, names); line > 0 {
		return fmt.Sprintf("%s %s would overwrite an artifact of the dataset (line %d, %s is the same file as %s)", flag, out, line, field, p)
	}
	return ""
}

// folderClash says why the folder of p, a file to write for flag, cannot take it, or "":
// it does not exist, is not a folder, or cannot be written in. It is asked before a run
// starts, so that a missing folder does not fail the run after its last example, and says
// so in its own words, not those of the lock or temporary file that would have found it.
func folderClash(flag, p string) string {
	dir := filepath.Dir(p)
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Sprintf("%s %s: folder %s does not exist", flag, p, dir)
	case err != nil:
		return fmt.Sprintf("%s %s: folder %s: %v", flag, p, dir, reason(err))
	case !info.IsDir():
		return fmt.Sprintf("%s %s: %s is not a folder", flag, p, dir)
	}
	f, err := os.CreateTemp(dir, ".benchy-write-check-*")
	if err != nil {
		return fmt.Sprintf("%s %s: cannot write in folder %s: %v", flag, p, dir, reason(err))
	}
	f.Close()
	os.Remove(f.Name())
	return ""
}

// reason is err without the path it names (a temporary file's, say): "permission denied".
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// samePath tells whether a and b name one file: the same file when both exist, else the
// same absolute path once the links of their folders are resolved (a result file not
// written yet).
func samePath(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(ia, ib)
	}
	return realPath(a) == realPath(b)
}

// realPath is p absolute, its folder's links resolved as far as they exist.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs))
	}
	return abs
}

// forbidden is the one rule for a file benchy writes at a path the user names (the result
// files of `benchy run`, the export of `benchy runs export`): it says why p may not be
// written, or "". p may not be, by any path (a link, a linked folder, a hard link), one of
// files; nor, by name, a runtime file anywhere, nor a private file of workspace ws (hidden,
// or in a hidden folder such as .benchy, which holds the store): what engine.IsPrivate
// keeps a run from reading as data, no output replaces. ws is "" when there is none.
func forbidden(p, ws string, files []guarded) string {
	if info, err := os.Stat(p); err == nil {
		for _, g := range files {
			if gi, err := os.Stat(g.path); err == nil && os.SameFile(info, gi) {
				return fmt.Sprintf("would overwrite %s (%s is the same file)", g.what, p)
			}
		}
	}
	if strings.EqualFold(filepath.Base(p), adapter.RuntimeFile) {
		return fmt.Sprintf("would write a runtime file (%s, in any case), which is never an output", adapter.RuntimeFile)
	}
	if ws == "" {
		return ""
	}
	if rel, ok := inside(ws, p); ok && engine.IsPrivate(rel) {
		return fmt.Sprintf("would write %s in the workspace %s: a hidden file or folder (%s holds the run store) is never an output", rel, ws, store.Dir)
	}
	return ""
}

// inside returns p relative to folder ws and whether it lies there, both with their links
// resolved as far as they exist: a linked folder leads where writing through it would.
func inside(ws, p string) (string, bool) {
	abs, err1 := filepath.Abs(p)
	wsAbs, err2 := filepath.Abs(ws)
	if err1 != nil || err2 != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs))
	}
	if real, err := filepath.EvalSymlinks(wsAbs); err == nil {
		wsAbs = real
	}
	rel, err := filepath.Rel(wsAbs, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return rel, true
}

// storeFiles are the files of workspace ws's run store, which no output may be: the
// database and SQLite's write-ahead log and shared-memory index beside it, each named for
// what it is.
func storeFiles(ws string) []guarded {
	db := storePath(ws)
	return []guarded{
		{db, "the run store " + db},
		{db + "-wal", "the run store's write-ahead log " + db + "-wal"},
		{db + "-shm", "the run store's shared-memory index " + db + "-shm"},
	}
}

// artifactClash looks for an artifact of the dataset that is one of the existing files,
// and returns its line and field and the name of the output it is. The rows are read as
// the engine reads them only loosely: a row it would refuse aborts the run anyway.
func artifactClash(dataset string, b *ir.Benchmark, existing []os.FileInfo, names []string) (int, string, string) {
	type leaf struct {
		side string
		path []string
	}
	var leaves []leaf
	for _, side := range []struct {
		name  string
		field ir.Field
	}{{"input", b.Program.Input}, {"expected", b.Program.Output}} {
		for _, l := range side.field.Leaves() {
			if ir.IsArtifact(l.Field.Type) {
				leaves = append(leaves, leaf{side.name, l.Path})
			}
		}
	}
	if len(leaves) == 0 {
		return 0, "", ""
	}
	real, err := filepath.EvalSymlinks(dataset)
	if err != nil {
		return 0, "", ""
	}
	f, err := os.Open(real)
	if err != nil {
		return 0, "", ""
	}
	defer f.Close()
	dir := filepath.Dir(real)
	r := bufio.NewReaderSize(f, 256<<10)
	for line := 1; ; line++ {
		text, err := r.ReadBytes('\n')
		var row map[string]map[string]any
		if json.Unmarshal(text, &row) == nil {
			for _, l := range leaves {
				v, ok := lookup(row[l.side], l.path).(string)
				if !ok || v == "" || filepath.IsAbs(v) {
					continue
				}
				info, serr := os.Stat(filepath.Join(dir, filepath.FromSlash(v)))
				if serr != nil {
					continue
				}
				for i, e := range existing {
					if os.SameFile(info, e) {
						return line, l.side + "." + strings.Join(l.path, "."), names[i]
					}
				}
			}
		}
		if err != nil {
			return 0, "", ""
		}
	}
}

func lookup(m map[string]any, path []string) any {
	var v any = m
	for _, k := range path {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[k]
	}
	return v
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// createFresh makes a new, empty file at path: a temporary file in its folder renamed over
// it, so that whatever the name held before (a link to another file included) is replaced,
// never written to.
func createFresh(path string) (*os.File, error) {
	f, err := tempBeside(path)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// tempBeside makes the hidden temporary file that becomes path once renamed, in path's
// folder, readable as a file written plainly would be (CreateTemp's 0600 would outlive the
// rename: results nobody else can read).
func tempBeside(path string) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// lazyFile creates its file (fresh: see createFresh) on the first write, removing the stale
// result document the new results replace.
type lazyFile struct {
	path, stale string
	f           *os.File
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if l.f == nil {
		os.Remove(l.stale)
		f, err := createFresh(l.path)
		if err != nil {
			return 0, err
		}
		l.f = f
	}
	return l.f.Write(p)
}

func (l *lazyFile) Close() error {
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}

// assemble writes the result document from the report and the JSONL stream: into a
// temporary file beside out, synced, then renamed over out and the folder synced, so that
// out is always a whole document, the old one or the new. runID, when the run is stored,
// is written beside A.14's fields as "run_id", for a CI job to pass to benchy report and
// runs compare (jq -r .run_id) without reading the log.
func assemble(out, stream string, rep *engine.Report, runID string) error {
	in, err := os.Open(stream)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeDocument(out, rep, runID, func(w io.Writer) error { return engine.WriteDocument(w, rep, in) })
}

// writeDocument writes the result document write produces (of rep, with runID beside its
// fields when not "") into a temporary file beside out, synced, then renamed over out and
// the folder synced: out is always a whole document, the old one or the new. benchy run's
// document and benchy merge's are written so.
func writeDocument(out string, rep *engine.Report, runID string, write func(io.Writer) error) error {
	f, err := tempBeside(out)
	if err != nil {
		return err
	}
	tmp := f.Name()
	var w io.Writer = f
	if runID != "" {
		w, err = withRunID(f, rep, runID)
	}
	if err == nil {
		err = write(w)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(out))
}

// withRunID is w with "run_id" added to the document engine.WriteDocument writes of rep:
// the document begins with rep's JSON without its closing brace, so the member goes in
// once that many bytes have passed, before "results", and the engine keeps the one writer
// of the document.
func withRunID(w io.Writer, rep *engine.Report, runID string) (io.Writer, error) {
	head, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	member, _ := json.Marshal(runID)
	return &insertAt{w: w, at: len(head) - 1, text: append([]byte(`,"run_id":`), member...)}, nil
}

// insertAt writes text into what passes through it once at bytes have.
type insertAt struct {
	w    io.Writer
	at   int
	text []byte
	done bool
}

func (x *insertAt) Write(p []byte) (int, error) {
	if x.done {
		return x.w.Write(p)
	}
	if len(p) < x.at {
		x.at -= len(p)
		return x.w.Write(p)
	}
	n, err := x.w.Write(p[:x.at])
	if err != nil {
		return n, err
	}
	if _, err := x.w.Write(x.text); err != nil {
		return n, err
	}
	x.done = true
	m, err := x.w.Write(p[x.at:])
	return n + m, err
}

// errOutputBusy is wrapped by lockOutput's error when another run holds the lock.
var errOutputBusy = errors.New("another benchy run is writing these results")

// lockPath is the lock file of the result file name: hidden, beside it, in its folder with
// its links resolved, so that every path naming the file (a linked folder, say) shares
// it. A run locks each file it writes: -o a and -o a.json both write a.jsonl, and -o
// a.jsonl writes it too, as its document.
func lockPath(name string) string {
	dir := filepath.Dir(name)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, "."+filepath.Base(name)+".lock")
}

// readHolder is what the lock file says of the run that holds it.
func readHolder(f *os.File) string {
	b, _ := io.ReadAll(io.LimitReader(f, 200))
	return strings.TrimSpace(string(b))
}

// printSummaryIn is printSummary saying the run took elapsed, its time as its user waited
// (this execution's, a batch's wait included): the report's started_at and finished_at are
// its engine's last segment, some milliseconds for a resumed run or a batch's replies.
// The document keeps the report's times; only the line printed changes.
func printSummaryIn(w io.Writer, rep *engine.Report, out string, elapsed time.Duration) {
	if rep == nil {
		return
	}
	shown := *rep
	end := time.Now().UTC()
	shown.StartedAt, shown.FinishedAt = end.Add(-elapsed).Format(time.RFC3339Nano), end.Format(time.RFC3339Nano)
	printSummary(w, &shown, out)
}

package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// PhaseData names diagnostics about the dataset; PhaseSetup about binding the run.
const (
	PhaseData  = "data"
	PhaseSetup = "setup"
)

// Abort is a run-level failure (A.15): the run stops and gives no benchmark score. File
// names the file the diagnostic's line refers to.
type Abort struct {
	File       string
	Diagnostic diag.Diagnostic
}

func (a *Abort) Error() string {
	if a.File == "" { // a setup failure: no file to point into
		return fmt.Sprintf("%s: %s", a.Diagnostic.Code, a.Diagnostic.Message)
	}
	return strings.TrimSuffix(diag.List{a.Diagnostic}.Format(a.File), "\n")
}

func abort(file string, line int, code diag.Code, path []string, format string, args ...any) *Abort {
	if path == nil {
		path = []string{}
	}
	return &Abort{File: file, Diagnostic: diag.Diagnostic{
		Phase: PhaseData, Code: code, Path: path, Message: fmt.Sprintf(format, args...), Line: max(line, 1), Column: 1,
	}}
}

// example is one validated dataset row, artifacts resolved to absolute paths.
type example struct {
	index    int
	line     int
	input    map[string]any
	expected map[string]any
}

// dataset streams the examples of a JSONL file.
type dataset struct {
	b      *ir.Benchmark
	path   string // as opened
	dir    string // the JSONL file's directory, absolute
	root   string // the benchmark's directory, absolute: artifacts must stay inside it
	r      *bufio.Reader
	f      *os.File
	line   int
	index  int
	failed *Abort
}

// openDataset opens the dataset for a benchmark whose file is in root.
func openDataset(b *ir.Benchmark, root string) (*dataset, *Abort) {
	path := filepath.Join(root, filepath.FromSlash(b.Data.Path))
	if filepath.IsAbs(filepath.FromSlash(b.Data.Path)) {
		path = filepath.FromSlash(b.Data.Path) // only an IR written by hand has one; the compiler refuses it
	}
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		// Checked before opening: opening a FIFO would block for ever.
		return nil, abort(path, 1, diag.DataNotFound, []string{"data", "path"}, "the dataset %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, abort(path, 1, diag.DataNotFound, []string{"data", "path"}, "cannot read the dataset: %v", unwrapPathError(err))
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, abort(path, 1, diag.DataNotFound, []string{"data", "path"}, "the dataset %s is not a regular file", path)
	}
	absRoot, err := filepath.Abs(root)
	if err == nil {
		absRoot, err = filepath.EvalSymlinks(absRoot)
	}
	if err != nil {
		f.Close()
		return nil, abort(path, 1, diag.DataNotFound, nil, "cannot resolve the benchmark directory: %v", err)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err == nil {
		dir, err = filepath.Abs(dir)
	}
	if err != nil {
		f.Close()
		return nil, abort(path, 1, diag.DataNotFound, nil, "cannot resolve the dataset directory: %v", err)
	}
	return &dataset{b: b, path: path, dir: dir, root: absRoot, f: f, r: bufio.NewReaderSize(f, 256<<10)}, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (d *dataset) Close() error { return d.f.Close() }

// next returns the next example, or nil at the end. A bad row aborts: d.failed is set.
func (d *dataset) next() *example {
	for {
		raw, err := d.readLine()
		if err != nil {
			if err != io.EOF {
				d.failed = abort(d.path, d.line, diag.InvalidDatasetRecord, nil, "cannot read the dataset: %v", err)
			}
			return nil
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue // blank lines may be ignored (A.5)
		}
		ex, a := d.parse(raw)
		if a != nil {
			d.failed = a
			return nil
		}
		ex.index = d.index
		d.index++
		return ex
	}
}

// readLine returns the next line without its line break, however long.
func (d *dataset) readLine() ([]byte, error) {
	line, err := d.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = d.r.ReadSlice('\n')
			buf = append(buf, line...)
		}
		line = buf
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		return nil, err
	}
	d.line++
	if d.line == 1 {
		line = bytes.TrimPrefix(line, []byte("\ufeff")) // a byte order mark is not part of the row
	}
	return bytes.TrimRight(line, "\r\n"), nil
}

// parse decodes and validates one row: exactly input and expected, each fitting its schema.
func (d *dataset) parse(raw []byte) (*example, *Abort) {
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, abort(d.path, d.line, diag.InvalidDatasetRecord, nil, "line %d is not a JSON object: %v", d.line, err)
	}
	row, ok := v.(map[string]any)
	if !ok {
		return nil, abort(d.path, d.line, diag.InvalidDatasetRecord, nil, "line %d is %s, not an object with input and expected", d.line, kindOf(v))
	}
	for _, k := range []string{"input", "expected"} {
		if _, ok := row[k]; !ok {
			return nil, abort(d.path, d.line, diag.InvalidDatasetRecord, []string{k}, "line %d lacks %q; a row is exactly {\"input\": ..., \"expected\": ...}", d.line, k)
		}
	}
	if len(row) > 2 {
		for k := range row {
			if k != "input" && k != "expected" {
				return nil, abort(d.path, d.line, diag.InvalidDatasetRecord, []string{k}, "line %d has the key %q; a row is exactly {\"input\": ..., \"expected\": ...}", d.line, k)
			}
		}
	}
	ex := &example{line: d.line}
	for _, side := range []struct {
		key    string
		schema ir.Field
		into   *map[string]any
	}{{"input", d.b.Program.Input, &ex.input}, {"expected", d.b.Program.Output, &ex.expected}} {
		v, p := check(row[side.key], side.schema, []string{side.key}, d.resolveArtifact)
		if p != nil {
			code := diag.InvalidDatasetRecord
			if p.Code == diag.ArtifactNotFound {
				code = diag.ArtifactNotFound
			}
			return nil, abort(d.path, d.line, code, p.Path, "line %d: %s", d.line, p.Message)
		}
		*side.into = v.(map[string]any)
	}
	return ex, nil
}

// resolveArtifact turns a dataset artifact path into an absolute path (A.6): relative to the
// JSONL file's directory, normalised, inside the benchmark's directory tree (symbolic links
// included), a regular readable file.
func (d *dataset) resolveArtifact(value string, path []string) (string, *Problem) {
	if value == "" || filepath.IsAbs(value) || strings.HasPrefix(value, "/") || filepath.VolumeName(value) != "" {
		return "", problem(diag.ArtifactNotFound, path, "artifact path %q must be relative to the dataset file", clip(value))
	}
	p := filepath.Join(d.dir, filepath.FromSlash(value))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", problem(diag.ArtifactNotFound, path, "artifact %q does not exist", clip(value))
	}
	if rel, err := filepath.Rel(d.root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", problem(diag.ArtifactNotFound, path, "artifact %q lies outside the benchmark's directory", clip(value))
	}
	if info, err := os.Stat(real); err != nil || !info.Mode().IsRegular() {
		return "", problem(diag.ArtifactNotFound, path, "artifact %q is not a regular file", clip(value))
	}
	f, err := os.Open(real)
	if err != nil {
		return "", problem(diag.ArtifactNotFound, path, "artifact %q cannot be read: %v", clip(value), unwrapPathError(err))
	}
	info, err := f.Stat()
	f.Close()
	if err != nil || !info.Mode().IsRegular() {
		return "", problem(diag.ArtifactNotFound, path, "artifact %q is not a regular file", clip(value))
	}
	return real, nil
}

// outputArtifacts resolves the artifacts an AI-system produced: a local file that exists,
// given relative to the benchmark's directory or absolute, inside the benchmark's
// directory tree or the system's temporary directory. Elsewhere is refused, so a remote
// system cannot make Benchy probe or read any file on this machine.
func outputArtifacts(root string) resolver {
	allowed := []string{root, os.TempDir()}
	for i, dir := range allowed {
		if abs, err := filepath.Abs(dir); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				allowed[i] = real
			}
		}
	}
	return func(value string, path []string) (string, *Problem) {
		p := filepath.FromSlash(value)
		if !filepath.IsAbs(p) {
			p = filepath.Join(allowed[0], p)
		}
		real, err := filepath.EvalSymlinks(p)
		if value == "" || err != nil {
			return "", problem(diag.ArtifactNotFound, path, "the produced artifact %q does not exist", clip(value))
		}
		inside := false
		for _, dir := range allowed {
			if rel, err := filepath.Rel(dir, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				inside = true
			}
		}
		if !inside {
			return "", problem(diag.ArtifactNotFound, path, "the produced artifact %q lies outside the benchmark's directory and the temporary directory", clip(value))
		}
		if info, err := os.Stat(real); err != nil || !info.Mode().IsRegular() {
			return "", problem(diag.ArtifactNotFound, path, "the produced artifact %q is not a regular file", clip(value))
		}
		return real, nil
	}
}

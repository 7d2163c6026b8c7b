package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// PhaseData names diagnostics about the dataset; PhaseSetup about binding the run.
const (
	PhaseData  = "data"
	PhaseSetup = "setup"
)

// Abort is a run-level failure (A.15): the run stops and gives no benchmark score. Its
// diagnostic names the file its line refers to (the dataset), or none for a setup failure.
type Abort struct {
	Diagnostic diag.Diagnostic
}

func (a *Abort) Error() string {
	if a.Diagnostic.File == "" { // a setup failure: no file to point into
		return fmt.Sprintf("%s: %s", a.Diagnostic.Code, a.Diagnostic.Message)
	}
	return a.Diagnostic.String()
}

func abort(file string, line int, code diag.Code, path []string, format string, args ...any) *Abort {
	if path == nil {
		path = []string{}
	}
	return &Abort{Diagnostic: diag.Diagnostic{
		File: file, Phase: PhaseData, Code: code, Path: path, Message: fmt.Sprintf(format, args...), Line: max(line, 1), Column: 1,
	}}
}

// example is one validated dataset row, artifacts resolved to absolute paths.
type example struct {
	index    int
	line     int
	input    map[string]any
	expected map[string]any
	row      []byte // the line as the file wrote it (ExampleResult.Row)
}

// dataset streams the examples of a JSONL file.
type dataset struct {
	b      *ir.Benchmark
	path   string // as the benchmark names it, joined to its folder: for messages
	dir    string // the JSONL file's directory, absolute, links resolved: artifacts are relative to it
	files  *confined
	r      *bufio.Reader
	f      *os.File
	line   int
	index  int
	failed *Abort
	long   []byte // the buffer of lines longer than r's, kept for the next
	// longest is the longest row read, in bytes: what an InputChecker's RowsFit is told.
	longest int
	digest  *digester // set for the validation pass, which digests what it reads
	// expect, in the second pass, are the artifact versions the validation pass digested:
	// an artifact that is none of them changed since (nil: not checked).
	expect map[versionKey]struct{}
}

// openDataset opens the dataset for a benchmark whose file is in benchDir, within paths.
// With digest, every byte read and every artifact referenced is digested (validation).
func openDataset(b *ir.Benchmark, benchDir string, paths Paths, digest bool) (*dataset, *Abort) {
	name := b.Data.Path
	path := filepath.Join(benchDir, filepath.FromSlash(name))
	if filepath.IsAbs(filepath.FromSlash(name)) {
		path = filepath.FromSlash(name) // only an IR written by hand has one; the compiler refuses it
	}
	notFound := func(format string, args ...any) (*dataset, *Abort) {
		return nil, abort(path, 1, diag.DataNotFound, []string{"data", "path"}, format, args...)
	}
	files, err := paths.open(benchDir)
	if err != nil {
		return notFound("cannot read the dataset: %v", err)
	}
	base, err := realDir(benchDir)
	if err != nil {
		files.Close()
		return notFound("cannot resolve the benchmark directory: %v", unwrapPathError(err))
	}
	f, real, perr := files.open(base, name)
	if perr != nil {
		files.Close()
		return notFound("data.path %v", perr)
	}
	d := &dataset{b: b, path: path, dir: filepath.Dir(real), files: files, f: f}
	var r io.Reader = f
	if digest {
		d.digest = newDigester()
		r = io.TeeReader(f, d.digest.jsonl)
	}
	d.r = bufio.NewReaderSize(r, 256<<10)
	return d, nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (d *dataset) Close() error { return errors.Join(d.f.Close(), d.files.Close()) }

// next returns the next example, or nil at the end. A bad row aborts: d.failed is set.
func (d *dataset) next() *example {
	for {
		raw, err := d.readLine()
		if err != nil {
			if errors.Is(err, errRowTooLong) {
				d.failed = abort(d.path, d.line, diag.InvalidDatasetRecord, nil, "line %d is longer than %d MiB, the most a dataset row may be (an image, audio or document goes in a file the row names by path)", d.line, MaxRowBytes>>20)
				return nil
			}
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

// MaxRowBytes bounds a line of a dataset, its line break apart: 16 MiB. A row may hold a
// long document's text (a request carries at most 8 MiB of text, and a JSON writer's \u
// escapes can double its length); an image, audio or document is a file the row names by
// path, not bytes in it. A longer line stops the run at its line, read no further than the
// bound: a file of one endless line costs the bound, not the file.
const MaxRowBytes = 16 << 20

// errRowTooLong is readLine's error for a line longer than MaxRowBytes.
var errRowTooLong = errors.New("the line is longer than MaxRowBytes")

// readLine returns the next line without its line break, or errRowTooLong once it is past
// MaxRowBytes, having read at most that much of it. A long line is gathered in d.long,
// which doubles up to the bound and is kept for the next one: the line is valid until the
// next call.
func (d *dataset) readLine() ([]byte, error) {
	const most = MaxRowBytes + len("\ufeff") + len("\r\n") // a row, and what is trimmed from it
	line, err := d.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		buf := append(d.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = d.r.ReadSlice('\n')
			if len(buf)+len(line) > most {
				d.line++
				return nil, errRowTooLong
			}
			if cap(buf)-len(buf) < len(line) {
				buf = slices.Grow(buf, min(max(len(buf), len(line)), most-len(buf)))
			}
			buf = append(buf, line...)
		}
		line, d.long = buf, buf[:0]
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		return nil, err
	}
	d.line++
	if d.line == 1 {
		line = bytes.TrimPrefix(line, []byte("\ufeff")) // a byte order mark is not part of the row
	}
	line = bytes.TrimRight(line, "\r\n")
	if len(line) > MaxRowBytes {
		return nil, errRowTooLong
	}
	d.longest = max(d.longest, len(line))
	return line, nil
}

// parse decodes and validates one row: exactly input and expected, each fitting its schema.
func (d *dataset) parse(raw []byte) (*example, *Abort) {
	v, err := decodeStrict(raw)
	if err != nil {
		var strict *StrictError
		if errors.As(err, &strict) {
			return nil, abort(d.path, d.line, diag.InvalidDatasetRecord, nil, "line %d is not strict JSON (RFC 8259): %v; a dataset must be UTF-8 with unique keys", d.line, err)
		}
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
				return nil, abort(d.path, d.line, diag.InvalidDatasetRecord, nil, "line %d has a key besides input and expected; a row is exactly {\"input\": ..., \"expected\": ...}", d.line)
			}
		}
	}
	ex := &example{line: d.line}
	if d.digest == nil { // the pass that evaluates: the validation pass keeps no row
		// The line is the reader's buffer: the row keeps a copy, one allocation of the
		// line's length, for ExampleResult.Row.
		ex.row = bytes.Clone(bytes.TrimSpace(raw))
	}
	for _, side := range []struct {
		key    string
		schema ir.Field
		into   *map[string]any
	}{{"input", d.b.Program.Input, &ex.input}, {"expected", d.b.Program.Output, &ex.expected}} {
		v, p := check(row[side.key], side.schema, []string{side.key}, d.resolveArtifact)
		if p != nil {
			code := diag.InvalidDatasetRecord
			if p.Code == diag.ArtifactNotFound || p.Code == diag.DatasetChanged {
				code = p.Code
			}
			if p.Code == diag.ExtraField {
				p = unnamedExtra(p, side.schema)
			}
			return nil, abort(d.path, d.line, code, p.Path, "line %d: %s", d.line, p.Message)
		}
		*side.into = v.(map[string]any)
	}
	return ex, nil
}

// resolveArtifact turns a dataset artifact path into an absolute path (A.6): relative to the
// JSONL file's directory, normalised, a regular readable file inside the run's confinement
// (symbolic links resolved), not private (Paths). A refusal names the field, not the path.
func (d *dataset) resolveArtifact(value string, path []string) (string, *ResultError) {
	if value == "" || filepath.IsAbs(value) || strings.HasPrefix(value, "/") || filepath.VolumeName(value) != "" {
		return "", problem(diag.ArtifactNotFound, path, "%s must be an artifact path relative to the dataset file", pathName(path))
	}
	f, real, perr := d.files.open(d.dir, value)
	if perr != nil { // the reason alone: a message quotes no value of a row
		return "", problem(diag.ArtifactNotFound, path, "%s: the artifact %s", pathName(path), perr.Reason)
	}
	defer f.Close()
	if d.expect != nil {
		if info, err := f.Stat(); err == nil {
			if k, _ := fileKey(info); k != (versionKey{}) {
				if _, ok := d.expect[k]; !ok {
					return "", problem(diag.DatasetChanged, path, "%s: the artifact changed since the dataset was validated, so the run's digest would not name the exam its AI-system took; start the run again", pathName(path))
				}
			}
		}
	}
	if d.digest != nil {
		info, err := f.Stat()
		if err != nil {
			return "", problem(diag.ArtifactNotFound, path, "%s: the artifact cannot be read: %v", pathName(path), unwrapPathError(err))
		}
		d.digest.artifact(f, info)
		if d.digest.err != nil {
			return "", problem(diag.ArtifactNotFound, path, "%s: the artifact cannot be read: %v", pathName(path), unwrapPathError(d.digest.err))
		}
	}
	return real, nil
}

// outputArtifacts resolves the artifacts an AI-system produced: a local file that exists,
// given relative to the benchmark's directory or absolute, inside the benchmark's
// directory tree or the system's temporary directory. Elsewhere is refused, so a remote
// system cannot make Benchy probe or read any file on this machine.
func outputArtifacts(benchDir string) resolver {
	allowed := []string{benchDir, os.TempDir()}
	for i, dir := range allowed {
		if abs, err := filepath.Abs(dir); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				allowed[i] = real
			}
		}
	}
	return func(value string, path []string) (string, *ResultError) {
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

// unnamedExtra restates an extra field of a row without its name: a key of the file that
// the program does not declare is the file's content, which no message quotes (a file
// that is not a dataset must not leak through the error). The path stops at the object
// that has it.
func unnamedExtra(p *ResultError, schema ir.Field) *ResultError {
	parent := p.Path[:max(len(p.Path)-1, 0)]
	f := schema
	for _, name := range parent[min(1, len(parent)):] { // parent[0] is input or expected
		for _, sub := range f.Fields {
			if sub.Name == name {
				f = sub
				break
			}
		}
	}
	return problem(diag.ExtraField, parent, "%s has a field the program does not declare (it declares %s)", pathName(parent), fieldList(f))
}

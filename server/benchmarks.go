package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// lastRuns is how many of a benchmark's newest runs are searched for a completed full one:
// a user trying the first few examples again and again makes many partial runs.
const lastRuns = 50

// lastScore finds the newest completed full run of benchmark p among its lastRuns newest:
// of the file as it stands (its IR hash), so its own AI-system's, not that of another
// system a launch ran the file against (those are on its leaderboard). A run of the first
// N examples scores part of the dataset, not the benchmark: the newest one newer than the
// full run is LastPartial, shown as partial.
func (s *Server) lastScore(info *api.Benchmark) {
	runs, err := s.st.ListRuns(store.Filter{Benchmark: info.Path, IRHash: info.IRHash}, lastRuns)
	if err != nil {
		return
	}
	for _, run := range runs {
		switch {
		case run.Status != store.Completed:
		case !store.Full(run): // the first N examples only
			if info.LastPartial == nil {
				info.LastPartial = &api.PartialScore{ID: run.ID, Score: doneOf(run, s.dir).BenchmarkScore, Examples: run.Summary.Examples}
			}
		default:
			info.LastScore, info.LastRun = doneOf(run, s.dir).BenchmarkScore, run.ID
			info.LastFailed = failedInfra(run.Summary)
			return
		}
	}
}

// failedInfra says a run of summary sum failed as infrastructure, as health's
// Health.Failed does: more than half its examples execution errors. From the summary the
// listing already read, so it costs no query.
func failedInfra(sum *engine.Summary) bool {
	return sum != nil && api.FailedInfra(sum.Examples, sum.ExecutionErrors)
}

// skipDir names directories that hold no benchmarks.
func skipDir(name string) bool {
	return name != "." && (strings.HasPrefix(name, ".") || name == "node_modules")
}

func isBenchmarkPath(p string) bool {
	return (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) && path.Base(p) != RuntimeFile
}

var benchmarkExtensions = []string{".yaml", ".yml"}

// compileCache keeps each benchmark file's listing entry (its score aside) by the version
// of the file it was compiled from, its size and modification time: a listing compiles
// only the files that changed since the last one, and a save puts its own compile there.
type compileCache struct {
	mu       sync.Mutex
	m        map[string]compiledFile
	compiles atomic.Int64 // how many files were compiled, for tests
}

type compiledFile struct {
	size    int64
	mod     time.Time
	info    api.Benchmark
	runtime bool // the text is a runtime file's (runtimeLike): never listed
}

// get is p's entry as of version, and whether its text is a runtime file's.
func (c *compileCache) get(p string, version fs.FileInfo) (api.Benchmark, bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[p]
	if !ok || e.size != version.Size() || !e.mod.Equal(version.ModTime()) {
		return api.Benchmark{}, false, false
	}
	return e.info, e.runtime, true
}

func (c *compileCache) put(p string, version fs.FileInfo, info api.Benchmark, runtime bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]compiledFile{}
	}
	c.m[p] = compiledFile{version.Size(), version.ModTime(), info, runtime}
}

// keep forgets the files a listing did not see.
func (c *compileCache) keep(seen map[string]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := range c.m {
		if !seen[p] {
			delete(c.m, p)
		}
	}
}

// compileFile compiles version of benchmark file p, keeping its listing entry.
func (s *Server) compileFile(p string, src []byte, version fs.FileInfo) (api.Compiled, api.Benchmark, error) {
	s.lists.compiles.Add(1)
	res, b, err := compileYAML(src)
	if err != nil {
		return res, api.Benchmark{}, err
	}
	return res, s.listed(p, src, version, res, b), nil
}

// listed records in the listing the compile of the benchmark at p, as of version.
func (s *Server) listed(p string, src []byte, version fs.FileInfo, res api.Compiled, b *ir.Benchmark) api.Benchmark {
	info := api.Benchmark{Path: p, Valid: b != nil, Diagnostics: len(res.Diagnostics), IRHash: res.IRHash, BenchmarkHash: res.BenchmarkHash}
	if b != nil {
		info.Task, info.Domain = b.Benchmark.Task, b.Benchmark.Domain
		if lang, err := json.Marshal(b.Benchmark.Language); err == nil {
			info.Language = lang
		}
	}
	s.lists.put(p, version, info, runtimeLike(src, res.Diagnostics))
	return info
}

func (s *Server) listBenchmarks(w http.ResponseWriter, r *http.Request) error {
	list := []api.Benchmark{}
	seen := map[string]bool{}
	fs.WalkDir(s.wsRoot.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner of the workspace is skipped, not fatal
		}
		if d.IsDir() {
			if skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !validBenchmarkPath(p) || engine.IsPrivate(p) {
			return nil // links are not listed: a benchmark is listed under its own name
		}
		version, err := d.Info()
		if err != nil || engine.ManyLinks(version) {
			return nil // a hard link is not read (readBenchmark)
		}
		seen[p] = true
		info, runtime, ok := s.lists.get(p, version)
		if !ok {
			src, version, err := s.readRegular(p, s.maxBenchmarkFile())
			if err != nil || engine.ManyLinks(version) {
				return nil // unreadable, too large, no longer a regular file, or linked since
			}
			res, entry, err := s.compileFile(p, src, version)
			if err != nil {
				s.logf("%s: %v", p, err)
				entry = api.Benchmark{Path: p}
			}
			info, runtime = entry, runtimeLike(src, res.Diagnostics)
		}
		if runtime {
			return nil // a runtime file under another name (checkBenchmarkText)
		}
		s.lastScore(&info)
		list = append(list, info)
		return nil
	})
	s.lists.keep(seen)
	slices.SortFunc(list, func(a, b api.Benchmark) int { return strings.Compare(a.Path, b.Path) })
	return writeJSON(w, http.StatusOK, list)
}

// benchmarkPath checks a workspace path from a URL: relative, clean, a YAML file.
func benchmarkPath(r *http.Request) (string, error) {
	p := r.PathValue("path")
	if !validBenchmarkPath(p) {
		return "", refuse(http.StatusBadRequest, api.BadPath, badPathMessage)
	}
	return p, nil
}

const badPathMessage = "a benchmark path is relative to the workspace, without .. or hidden folders, and ends in .yaml"

func validBenchmarkPath(p string) bool {
	return fs.ValidPath(p) && p != "." && isBenchmarkPath(p) && !slices.ContainsFunc(strings.Split(p, "/"), skipDir)
}

// benchmarkFile is a benchmark's text with what it compiles to.
func benchmarkFile(p, yaml string, res api.Compiled) api.BenchmarkFile {
	return api.BenchmarkFile{Path: p, YAML: yaml, IR: res.IR, IRHash: res.IRHash, Diagnostics: res.Diagnostics}
}

func (s *Server) getBenchmark(w http.ResponseWriter, r *http.Request) error {
	p, err := benchmarkPath(r)
	if err != nil {
		return err
	}
	src, version, err := s.benchmarkSource(p)
	if err != nil {
		return err
	}
	res, _, err := s.compileFile(p, src, version)
	if err != nil {
		return internalError(err)
	}
	if err := checkBenchmarkText(p, src, res.Diagnostics); err != nil {
		return err
	}
	if !utf8.Valid(src) {
		return notUTF8(src, res.Diagnostics)
	}
	f := benchmarkFile(p, string(src), res)
	f.ETag = etagOf(src)
	w.Header().Set("ETag", f.ETag)
	return writeJSON(w, http.StatusOK, f)
}

// putBenchmark saves a benchmark atomically (a temporary file renamed over it). Saving an
// invalid benchmark is allowed: the answer carries its diagnostics. Its compile is kept
// for the listing. The save is conditional (checkPrecondition): over an existing file it
// names the version it replaces, and the check and the rename run under the path's lock,
// so a change saved since the client read the file is never overwritten unseen. The
// answer's etag (and ETag header) is the new version's.
func (s *Server) putBenchmark(w http.ResponseWriter, r *http.Request) error {
	p, err := benchmarkPath(r)
	if err != nil {
		return err
	}
	if refusal := s.writable(p, benchmarkExtensions); refusal != nil {
		return refusal
	}
	var req struct {
		YAML string `json:"yaml"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	src := []byte(req.YAML)
	s.lists.compiles.Add(1)
	res, b, err := compileYAML(src) // before writing: the compile says whether it is a runtime file
	if err != nil {
		return internalError(err)
	}
	if runtimeLike(src, res.Diagnostics) {
		return refuse(http.StatusForbidden, api.NotBenchmarkData, "%s would be a runtime file (bindings, providers or executors at its top): the API writes no runtime file, by any name (benchy run --runtime FILE reads one of any name)", p)
	}
	unlock := saveLocks.lock(filepath.Join(s.dir, filepath.FromSlash(p)))
	defer unlock()
	current, _, err := s.readRegular(p, s.maxBenchmarkFile())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		current = nil
	case err != nil:
		return fileError("benchmark", p, err)
	case current == nil:
		current = []byte{} // an empty file exists
	}
	if refusal := checkPrecondition(r.Header, p, current); refusal != nil {
		return refusal
	}
	version, err := s.writeAtomic(p, bytes.NewReader(src), nil) // its text was checked: runtimeLike
	if err != nil {
		return s.writeFailed(p, nil, err)
	}
	s.listed(p, src, version, res, b)
	f := benchmarkFile(p, req.YAML, res)
	f.ETag = etagOf(src)
	w.Header().Set("ETag", f.ETag)
	return writeJSON(w, http.StatusOK, f)
}

// runtimeLike reports whether a text saved as a benchmark would be a runtime file: the
// compiler found bindings, providers or executors at its top, unknown keys of a benchmark
// (adapter.RuntimeKey, the rule adapter.RuntimeText applies). A runtime file of another
// name is read by `benchy run --runtime FILE`, so saving one would let a client write the
// commands a run executes. It reads the compile the save makes anyway, so a 1 MB text
// costs no second parse. A text over the compiler's limit (yamlnode.MaxSize) compiles to
// too_large alone, which says nothing of its keys: it is judged by its first MiB, as an
// upload is (adapter.RuntimeText), since --runtime reads such a file's start all the same.
func runtimeLike(src []byte, ds []api.Diagnostic) bool {
	if len(src) > yamlnode.MaxSize {
		return adapter.RuntimeText(src)
	}
	return slices.ContainsFunc(ds, func(d api.Diagnostic) bool { return adapter.RuntimeKey(d.Code, d.Path) })
}

// notUTF8 is the answer to a read of a benchmark whose bytes, src, are not UTF-8: 422
// invalid_yaml, as the compiler calls it, at the first bad byte. JSON has no way to carry
// such bytes: encoding the text would replace them with U+FFFD, and an editor saving that
// text back would lose them without a word, so the text is not handed out at all.
func notUTF8(src []byte, ds []api.Diagnostic) *apiError {
	line, col := firstBadByte(src)
	for _, d := range ds { // the compiler's own position, when it got that far
		if d.Code == string(diag.InvalidYAML) && d.Message == yamlnode.NotUTF8 {
			line, col = d.Line, d.Column
			break
		}
	}
	return refuse(http.StatusUnprocessableEntity, api.InvalidYAML, "the file is not valid UTF-8 at line %d, column %d: fix it outside the editor, which would replace the bad bytes", line, col)
}

// firstBadByte is the line and column (in code points, as the compiler counts) of the
// first byte of src that is not part of UTF-8; 0, 0 when there is none.
func firstBadByte(src []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return line, col
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
		i += n
	}
	return 0, 0
}

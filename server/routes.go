package server

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ontology"
	"github.com/benchy-eval/benchy/store"
)

// RuntimeFile is the workspace's runtime file: bindings and providers.
const RuntimeFile = adapter.RuntimeFile

func (s *Server) routes() {
	s.mux.HandleFunc("GET /api/ontology", s.ontology)
	s.mux.HandleFunc("POST /api/compile", s.compile)
	s.mux.HandleFunc("GET /api/bindings", s.bindings)
	s.mux.HandleFunc("GET /api/benchmarks", s.listBenchmarks)
	s.mux.HandleFunc("GET /api/benchmarks/{path...}", s.getBenchmark)
	s.mux.HandleFunc("PUT /api/benchmarks/{path...}", s.putBenchmark)
	s.mux.HandleFunc("POST /api/runs", s.startRun)
	s.mux.HandleFunc("GET /api/runs", s.listRuns)
	s.mux.HandleFunc("PUT /api/files/{path...}", s.putFile)
	s.mux.HandleFunc("GET /api/runs/compare", s.compareRuns)
	s.mux.HandleFunc("GET /api/runs/{id}", s.getRun)
	s.mux.HandleFunc("GET /api/runs/{id}/results", s.runResults)
	s.mux.HandleFunc("GET /api/runs/{id}/events", s.runEvents)
	s.mux.HandleFunc("POST /api/runs/{id}/cancel", s.cancelRun)
	s.mux.HandleFunc("POST /api/runs/{id}/resume", s.resumeRun)
	s.mux.Handle("/", appUI())
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such API endpoint: "+r.Method+" "+r.URL.Path)
	})
}

func (s *Server) ontology(w http.ResponseWriter, r *http.Request) {
	reg, _ := ontology.Lookup(ontology.Version)
	writeJSON(w, http.StatusOK, reg)
}

// compileResult is what POST /api/compile answers: the same compiler and output as the CLI.
type compileResult struct {
	IR          json.RawMessage `json:"ir"`
	IRHash      string          `json:"ir_hash"`
	Diagnostics diag.List       `json:"diagnostics"`
}

func (s *Server) compile(w http.ResponseWriter, r *http.Request) {
	var req struct {
		YAML string `json:"yaml"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	writeJSON(w, http.StatusOK, compileYAML([]byte(req.YAML)))
}

func compileYAML(src []byte) compileResult {
	canonical, hash, ds := compiler.CompileCanonical(src)
	res := compileResult{IR: json.RawMessage("null"), IRHash: hash, Diagnostics: ds}
	if ds == nil {
		res.Diagnostics = diag.List{}
		res.IR = canonical
	}
	return res
}

// bindings lists the names of the workspace's bindings and providers: never their commands,
// URLs, environment or keys.
func (s *Server) bindings(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Bindings  []string `json:"bindings"`
		Providers []string `json:"providers"`
	}{[]string{}, []string{}}
	rt, ok := s.runtime(w)
	if !ok {
		return
	}
	out.Bindings, out.Providers = append(out.Bindings, rt.Names()...), append(out.Providers, rt.ProviderNames()...)
	writeJSON(w, http.StatusOK, out)
}

// runtime reads the workspace's runtime file; nil without error when there is none. It
// answers the request itself (and returns false) when the file is unreadable or invalid.
func (s *Server) runtime(w http.ResponseWriter) (*adapter.Runtime, bool) {
	src, err := s.root.ReadFile(RuntimeFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, true
	case err != nil:
		writeError(w, http.StatusInternalServerError, "runtime_unreadable", "cannot read "+RuntimeFile)
		return nil, false
	}
	rt, err := adapter.ParseRuntime(src, s.dir)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, string(diag.InvalidRuntime), RuntimeFile+" is not valid: "+err.Error())
		return nil, false
	}
	return rt, true
}

// benchmarkInfo describes one benchmark file of the workspace.
type benchmarkInfo struct {
	Path        string       `json:"path"`
	Valid       bool         `json:"valid"`
	Diagnostics int          `json:"diagnostics"`
	Task        string       `json:"task,omitempty"`
	Domain      string       `json:"domain,omitempty"`
	Language    *ir.Language `json:"language,omitempty"`
	IRHash      string       `json:"ir_hash,omitempty"`
	LastScore   *float64     `json:"last_score,omitempty"` // of its newest completed run
	LastRun     string       `json:"last_run,omitempty"`   // that run's id
}

// lastRuns is how many of a benchmark's newest runs are searched for a completed one.
const lastRuns = 20

// lastScore finds the newest completed run of benchmark p among its lastRuns newest.
func (s *Server) lastScore(info *benchmarkInfo) {
	runs, err := s.st.ListRuns(store.Filter{Benchmark: info.Path}, lastRuns)
	if err != nil {
		return
	}
	for _, run := range runs {
		if run.Status == store.Completed {
			info.LastScore, info.LastRun = doneOf(run, s.dir).BenchmarkScore, run.ID
			return
		}
	}
}

// skipDir names directories that hold no benchmarks.
func skipDir(name string) bool {
	return name != "." && (strings.HasPrefix(name, ".") || name == "node_modules")
}

func isBenchmarkPath(p string) bool {
	return (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) && path.Base(p) != RuntimeFile
}

func (s *Server) listBenchmarks(w http.ResponseWriter, r *http.Request) {
	list := []benchmarkInfo{}
	err := fs.WalkDir(s.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner of the workspace is skipped, not fatal
		}
		if d.IsDir() {
			if skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !isBenchmarkPath(p) {
			return nil
		}
		src, err := s.root.ReadFile(p)
		if err != nil {
			return nil
		}
		info := benchmarkInfo{Path: p}
		b, ds := compiler.Compile(src)
		info.Valid, info.Diagnostics = len(ds) == 0, len(ds)
		if b != nil {
			lang := b.Benchmark.Language
			info.Task, info.Domain, info.Language = b.Benchmark.Task, b.Benchmark.Domain, &lang
			if canonical, err := ir.Marshal(b); err == nil {
				info.IRHash = ir.Hash(canonical)
			}
		}
		s.lastScore(&info)
		list = append(list, info)
		return nil
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "walk_failed", err.Error())
		return
	}
	slices.SortFunc(list, func(a, b benchmarkInfo) int { return strings.Compare(a.Path, b.Path) })
	writeJSON(w, http.StatusOK, list)
}

// benchmarkPath checks a workspace path from a URL: relative, clean, a YAML file.
func benchmarkPath(w http.ResponseWriter, r *http.Request) (string, bool) {
	p := r.PathValue("path")
	if !validBenchmarkPath(p) {
		writeError(w, http.StatusBadRequest, "bad_path", badPathMessage)
		return "", false
	}
	return p, true
}

const badPathMessage = "a benchmark path is relative to the workspace, without .. or hidden folders, and ends in .yaml"

func validBenchmarkPath(p string) bool {
	return fs.ValidPath(p) && p != "." && isBenchmarkPath(p) && !slices.ContainsFunc(strings.Split(p, "/"), skipDir)
}

// benchmarkFile is a benchmark's text with its diagnostics.
type benchmarkFile struct {
	Path string `json:"path"`
	YAML string `json:"yaml"`
	compileResult
}

func (s *Server) getBenchmark(w http.ResponseWriter, r *http.Request) {
	p, ok := benchmarkPath(w, r)
	if !ok {
		return
	}
	src, err := s.root.ReadFile(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			writeError(w, http.StatusNotFound, "not_found", "no benchmark "+p)
		} else {
			writeError(w, http.StatusForbidden, "unreadable", "cannot read "+p+" inside the workspace")
		}
		return
	}
	writeJSON(w, http.StatusOK, benchmarkFile{Path: p, YAML: string(src), compileResult: compileYAML(src)})
}

// putBenchmark saves a benchmark atomically (a temporary file renamed over it). Saving an
// invalid benchmark is allowed: the answer carries its diagnostics.
func (s *Server) putBenchmark(w http.ResponseWriter, r *http.Request) {
	p, ok := benchmarkPath(w, r)
	if !ok {
		return
	}
	var req struct {
		YAML string `json:"yaml"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	if err := s.writeAtomic(p, []byte(req.YAML)); err != nil {
		writeError(w, http.StatusForbidden, "unwritable", "cannot save "+p+" inside the workspace")
		return
	}
	writeJSON(w, http.StatusOK, benchmarkFile{Path: p, YAML: req.YAML, compileResult: compileYAML([]byte(req.YAML))})
}

func (s *Server) writeAtomic(p string, data []byte) error {
	if info, err := s.root.Lstat(p); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", p) // a link is not replaced, nor followed
	}
	if dir := path.Dir(p); dir != "." {
		if err := s.root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var suffix [6]byte
	rand.Read(suffix[:])
	tmp := path.Join(path.Dir(p), "."+path.Base(p)+"."+hex.EncodeToString(suffix[:]))
	f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		s.root.Remove(tmp)
		return errors.Join(werr, cerr)
	}
	if err := s.root.Rename(tmp, p); err != nil {
		s.root.Remove(tmp)
		return err
	}
	return nil
}

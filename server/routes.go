package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ontology"
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
		writeError(w, http.StatusNotFound, api.NotFound, "no such API endpoint: "+r.Method+" "+r.URL.Path)
	})
}

func (s *Server) ontology(w http.ResponseWriter, r *http.Request) {
	reg, _ := ontology.Lookup(ontology.Version)
	writeJSON(w, http.StatusOK, reg)
}

func (s *Server) compile(w http.ResponseWriter, r *http.Request) {
	var req struct {
		YAML string `json:"yaml"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	res, _, err := compileYAML([]byte(req.YAML))
	if err != nil {
		s.internalError(w, api.Internal, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// compileYAML compiles a benchmark's text: the answer, and the IR when it is valid. An
// error is the compiler's bug: a valid benchmark whose IR does not serialise.
func compileYAML(src []byte) (api.Compiled, *ir.Benchmark, error) {
	b, ds := compiler.Compile(src)
	if len(ds) > 0 {
		return api.Compiled{IR: json.RawMessage("null"), Diagnostics: wireDiagnostics(ds)}, nil, nil
	}
	canonical, err := ir.Marshal(b)
	if err != nil {
		return api.Compiled{}, nil, fmt.Errorf("the IR of a valid benchmark does not serialise: %w", err)
	}
	return api.Compiled{IR: canonical, IRHash: ir.Hash(canonical), Diagnostics: []api.Diagnostic{}}, b, nil
}

// wireDiagnostics are diagnostics as the API sends them (an empty list, not null).
func wireDiagnostics(ds diag.List) []api.Diagnostic {
	out := make([]api.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, api.Diagnostic{Phase: d.Phase, Code: string(d.Code), Path: d.Path, Message: d.Message,
			Line: d.Line, Column: d.Column, Suggestion: d.Suggestion})
	}
	return out
}

// bindings lists the names of the workspace's bindings and providers: never their commands,
// URLs, environment or keys.
func (s *Server) bindings(w http.ResponseWriter, r *http.Request) {
	out := api.Bindings{Bindings: []string{}, Providers: []string{}}
	rt, ok := s.runtime(w, RuntimeFile)
	if !ok {
		return
	}
	out.Bindings, out.Providers = append(out.Bindings, rt.Names()...), append(out.Providers, rt.ProviderNames()...)
	writeJSON(w, http.StatusOK, out)
}

// runtime reads the runtime file at workspace path p, whose folder its commands run in; nil
// without error when there is none. It answers the request itself (and returns false) when
// the file is unreadable or invalid.
func (s *Server) runtime(w http.ResponseWriter, p string) (*adapter.Runtime, bool) {
	src, _, err := s.readRegular(p, s.cfg.MaxBody)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, true
	case err != nil:
		fileError(w, "runtime file", p, err)
		return nil, false
	}
	rt, err := adapter.ParseRuntime(src, filepath.Join(s.dir, filepath.FromSlash(path.Dir(p))))
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, api.Code(diag.InvalidRuntime), p+" is not valid: "+s.relative(err.Error()))
		return nil, false
	}
	return rt, true
}

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
	for pattern, h := range map[string]handler{
		"GET /api/ontology":             s.ontology,
		"POST /api/compile":             s.compile,
		"GET /api/bindings":             s.bindings,
		"GET /api/benchmarks":           s.listBenchmarks,
		"GET /api/benchmarks/{path...}": s.getBenchmark,
		"PUT /api/benchmarks/{path...}": s.putBenchmark,
		"POST /api/runs":                s.startRun,
		"GET /api/runs":                 s.listRuns,
		"PUT /api/files/{path...}":      s.putFile,
		"GET /api/runs/compare":         s.compareRuns,
		"GET /api/runs/{id}":            s.getRun,
		"GET /api/runs/{id}/results":    s.runResults,
		"GET /api/runs/{id}/events":     s.runEvents,
		"POST /api/runs/{id}/cancel":    s.cancelRun,
		"POST /api/runs/{id}/resume":    s.resumeRun,
		"/api/":                         s.noEndpoint,
	} {
		s.mux.Handle(pattern, s.handle(h))
	}
	s.mux.Handle("/", appUI())
}

func (s *Server) noEndpoint(w http.ResponseWriter, r *http.Request) error {
	return refuse(http.StatusNotFound, api.NotFound, "no such API endpoint: %s %s", r.Method, r.URL.Path)
}

func (s *Server) ontology(w http.ResponseWriter, r *http.Request) error {
	reg, _ := ontology.Lookup(ontology.Version)
	return writeJSON(w, http.StatusOK, reg)
}

func (s *Server) compile(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		YAML string `json:"yaml"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	res, _, err := compileYAML([]byte(req.YAML))
	if err != nil {
		return internalError(err)
	}
	return writeJSON(w, http.StatusOK, res)
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
func (s *Server) bindings(w http.ResponseWriter, r *http.Request) error {
	out := api.Bindings{Bindings: []string{}, Providers: []string{}}
	rt, err := s.runtime(RuntimeFile)
	if err != nil {
		return err
	}
	if rt != nil {
		out.Bindings, out.Providers = append(out.Bindings, rt.Names()...), append(out.Providers, rt.ProviderNames()...)
	}
	return writeJSON(w, http.StatusOK, out)
}

// runtime reads the runtime file at workspace path p, whose folder its commands run in; nil
// without error when there is none. A file that cannot be read or is not valid is an
// answer of its own (fileError, invalid_runtime).
func (s *Server) runtime(p string) (*adapter.Runtime, error) {
	src, _, err := s.readRegular(p, s.cfg.MaxBody)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fileError("runtime file", p, err)
	}
	rt, err := adapter.ParseRuntime(src, filepath.Join(s.dir, filepath.FromSlash(path.Dir(p))))
	if err != nil {
		var ds diag.List
		if errors.As(err, &ds) { // its problems, each at p:LINE:COL as the CLI prints them
			err = ds.In(p)
		}
		return nil, refuse(http.StatusUnprocessableEntity, api.Code(diag.InvalidRuntime), "%s is not valid: %s", p, s.relative(err.Error()))
	}
	return rt, nil
}

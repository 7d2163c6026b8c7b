package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	ws "github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ontology"
)

// RuntimeFile is the workspace's runtime file: bindings and providers.
const RuntimeFile = adapter.RuntimeFile

func (s *Server) routes() {
	for pattern, h := range map[string]handler{
		"GET /api/ontology":                              s.ontology,
		"POST /api/compile":                              s.compile,
		"GET /api/bindings":                              s.bindings,
		"GET /api/benchmarks":                            s.listBenchmarks,
		"GET /api/benchmarks/{path...}":                  s.getBenchmark,
		"PUT /api/benchmarks/{path...}":                  s.putBenchmark,
		"POST /api/runs":                                 s.startRun,
		"GET /api/runs":                                  s.listRuns,
		"PUT /api/files/{path...}":                       s.putFile,
		"GET /api/runs/compare":                          s.compareRuns,
		"GET /api/leaderboard":                           s.leaderboard,
		"GET /api/leaderboard/examples":                  s.grid,
		"GET /api/report":                                s.report,
		"GET /api/runs/{id}":                             s.getRun,
		"GET /api/runs/{id}/results":                     s.runResults,
		"GET /api/runs/{id}/results/{index}":             s.exampleDetail,
		"GET /api/runs/{id}/artifacts/{index}/{path...}": s.serveArtifact,
		"GET /api/runs/{id}/charts":                      s.charts,
		"GET /api/runs/{id}/events":                      s.runEvents,
		"POST /api/runs/{id}/cancel":                     s.cancelRun,
		"POST /api/runs/{id}/resume":                     s.resumeRun,
		"/api/":                                          s.noEndpoint,
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
	bh, err := ir.BenchmarkHash(canonical)
	if err != nil {
		return api.Compiled{}, nil, err
	}
	return api.Compiled{IR: canonical, IRHash: ir.Hash(canonical), BenchmarkHash: bh, Diagnostics: []api.Diagnostic{}}, b, nil
}

// wireDiagnostics are diagnostics as the API sends them (an empty list, not null).
func wireDiagnostics(ds diag.List) []api.Diagnostic {
	out := make([]api.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, wireDiagnostic(d))
	}
	return out
}

// bindings lists the names of the bindings and providers of the runtime file a benchmark
// (?benchmark=PATH) binds through, by the rule runs are started by (ws.Runtime), naming it;
// without ?benchmark, the workspace root's. Never their commands, URLs, environment or keys.
func (s *Server) bindings(w http.ResponseWriter, r *http.Request) error {
	out := api.Bindings{Bindings: []string{}, Providers: []string{}}
	p := RuntimeFile
	if r.URL.Query().Has("benchmark") {
		b := r.URL.Query().Get("benchmark")
		if !validBenchmarkPath(b) {
			return refuse(http.StatusBadRequest, api.BadPath, "%s", badPathMessage)
		}
		found := false
		if p, found = ws.Runtime(s.wsRoot.FS(), path.Dir(b)); !found {
			return writeJSON(w, http.StatusOK, out)
		}
		out.RuntimeFile = p
	}
	rt, err := s.runtime(p)
	if err != nil {
		return err
	}
	if rt != nil {
		out.Bindings, out.Providers = append(out.Bindings, rt.Names()...), append(out.Providers, rt.ProviderNames()...)
		out.Executors = wireExecutors(s.executors(p)) // executors.go
	}
	return writeJSON(w, http.StatusOK, out)
}

// runtime reads the runtime file at workspace path p as `benchy run` reads it
// (ws.LoadRuntime); nil without error when there is none. A file that cannot be read or
// is not valid is an answer of its own: fileError's, or invalid_runtime with each problem
// at its place in p.
func (s *Server) runtime(p string) (*adapter.Runtime, error) {
	rt, err := ws.LoadRuntime(s.wsRoot, p, p)
	var ds diag.List
	switch {
	case err == nil:
		return rt, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.As(err, &ds):
		return nil, refuse(http.StatusUnprocessableEntity, api.Code(diag.InvalidRuntime), "%s", s.relative(ds.Error()))
	}
	return nil, fileError("runtime file", p, err)
}

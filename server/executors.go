package server

import (
	"net/http"
	"path"
	"strings"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/adapter/runtimefile"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	ws "github.com/benchy-eval/benchy/internal/workspace"
)

// executors are the executors of the runtime file at workspace path p (runtimefile's
// executors: mapping), nil when there is none. A file that is not valid has none here:
// s.runtime, which binds the run, answers for its problems.
func (s *Server) executors(p string) []runtimefile.Executor {
	f, _, err := engine.OpenRegularIn(s.wsRoot, p)
	if err != nil {
		return nil
	}
	defer f.Close()
	src, err := adapter.ReadRuntimeFrom(f, p)
	if err != nil {
		return nil
	}
	file, ds := runtimefile.Parse(src)
	if len(ds) > 0 || file == nil {
		return nil
	}
	return file.Executors
}

// wireExecutors are executors as GET /api/bindings lists them: names and kinds only.
func wireExecutors(xs []runtimefile.Executor) []api.Executor {
	var out []api.Executor
	for _, x := range xs {
		out = append(out, api.Executor{Name: x.Name, Kind: x.Kind})
	}
	return out
}

// executorFor is the executor named name of the runtime file benchmark binds through, or
// the answer to a run naming one it does not define.
func (s *Server) executorFor(benchmark, name string) (runtimefile.Executor, string, error) {
	p, found := ws.Runtime(s.wsRoot.FS(), path.Dir(benchmark))
	var names []string
	if found {
		for _, x := range s.executors(p) {
			if x.Name == name {
				return x, p, nil
			}
			names = append(names, x.Name)
		}
	}
	switch {
	case !found:
		return runtimefile.Executor{}, "", refuse(http.StatusBadRequest, api.UnknownExecutor, "executor %q: %s binds through no runtime file, so it has no executors; leave executor out to run on this machine", name, benchmark)
	case len(names) == 0:
		return runtimefile.Executor{}, "", refuse(http.StatusBadRequest, api.UnknownExecutor, "executor %q: %s defines no executors; leave executor out to run on this machine", name, p)
	}
	return runtimefile.Executor{}, "", refuse(http.StatusBadRequest, api.UnknownExecutor, "unknown executor %q; %s defines %s", name, p, strings.Join(names, ", "))
}

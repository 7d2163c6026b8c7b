package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strconv"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	ws "github.com/benchy-eval/benchy/internal/workspace" // server_test.go has a workspace helper
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// Limits of the runs API.
const (
	maxPageLimit = 1000 // results per page
	maxListLimit = 1000 // runs per list
)

// MaxConcurrency is the most workers a run of the server may have: each worker may be an
// adapter process (a Python program, a model server's client) of its own, so the server
// caps them per run, and --max-runs caps the runs: 64 processes by default. (Two runs of
// 256 each started 512 processes, some 20 GB.) A per-run cap rather than a budget shared by
// the running runs, so that a run always has the workers it recorded, whatever runs beside
// it. A request over it is refused (400), naming it; a run's default is
// engine.DefaultConcurrency up to it, and a stored run resumed with more gets it.
const MaxConcurrency = 32

// workers is the concurrency a run of this server gets when it asks for n (0: the default).
func workers(n int) int {
	if n <= 0 {
		n = engine.DefaultConcurrency()
	}
	return min(n, MaxConcurrency)
}

// queueFullRetry is the Retry-After of a run refused for a full queue, in seconds.
const queueFullRetry = "10"

// startRun compiles a benchmark, binds its AI-system and queues a run of it. Nothing is
// recorded unless the run can start: an invalid benchmark or a missing binding is refused.
func (s *Server) startRun(w http.ResponseWriter, r *http.Request) {
	var req api.StartRun
	if !readJSON(w, r, &req) {
		return
	}
	if !validBenchmarkPath(req.Benchmark) {
		writeError(w, http.StatusBadRequest, api.BadPath, badPathMessage)
		return
	}
	if req.Limit < 0 || req.Concurrency < 0 || req.Concurrency > MaxConcurrency {
		writeError(w, http.StatusBadRequest, api.BadRequest, fmt.Sprintf("limit must be at least 0 and concurrency from 0 (the default) to %d, the most workers this server gives a run", MaxConcurrency))
		return
	}
	if s.runs.full() { // before the benchmark is read and compiled
		s.enqueueError(w, errQueueFull)
		return
	}
	src, _, err := s.readRegular(req.Benchmark, s.maxBenchmarkFile())
	if err != nil {
		fileError(w, "benchmark", req.Benchmark, err)
		return
	}
	b, ds := compiler.Compile(src)
	if len(ds) > 0 {
		msg := fmt.Sprintf("%s has %d problem(s); fix them before running it", req.Benchmark, len(ds))
		e := api.InvalidBenchmarkError{Error: api.Error{Error: api.ErrorDetail{Code: api.InvalidBenchmark, Message: msg}}, Diagnostics: wireDiagnostics(ds)}
		writeJSON(w, http.StatusBadRequest, e)
		return
	}
	canonical, err := ir.Marshal(b)
	if err != nil {
		s.internalError(w, api.Internal, err)
		return
	}
	hash := ir.Hash(canonical)
	benchDir, paths := s.benchmarkDir(req.Benchmark), s.paths()
	factory, binding, ok := s.bind(w, b, req.Benchmark, benchDir, paths)
	if !ok {
		return
	}
	j := newJob(b, factory, engine.Options{BenchmarkDir: benchDir, Paths: paths, IRHash: hash, Binding: binding, Concurrency: workers(req.Concurrency), Limit: req.Limit})
	spec := store.RunSpec{Benchmark: req.Benchmark, IR: canonical, IRHash: hash, AISystem: b.AISystem, Binding: binding,
		Options: store.Options{Limit: req.Limit, Concurrency: req.Concurrency}}
	id, err := s.runs.enqueue(j, func() (string, error) {
		run, err := s.st.CreateRun(spec)
		return run.ID, err
	})
	if err != nil {
		j.cancel(nil)
		s.enqueueError(w, err)
		return
	}
	w.Header().Set("Location", api.RunPath(id))
	writeJSON(w, http.StatusAccepted, api.Started{ID: id})
}

// benchmarkDir is the directory of a workspace benchmark: its data and artifacts resolve
// against it.
func (s *Server) benchmarkDir(p string) string {
	return filepath.Join(s.dir, filepath.FromSlash(path.Dir(p)))
}

// paths confines what a run reads (dataset, artifacts, prompt file) to the workspace, and
// keeps the workspace's runtime files (every one, by any name or hard link) and its top
// hidden files out of it (privateFiles).
func (s *Server) paths() engine.Paths {
	return engine.Paths{Workspace: s.dir, Private: s.privateFiles()}
}

// bind finds the adapter factory for b's AI-system, the benchmark at workspace path
// benchmark, in the runtime file it binds through (ws.Runtime: the nearest at or
// above its folder, as `benchy run` finds it), or answers why there is none (422) and
// returns false.
func (s *Server) bind(w http.ResponseWriter, b *ir.Benchmark, benchmark, benchDir string, paths engine.Paths) (engine.Factory, string, bool) {
	var rt *adapter.Runtime
	if p, found := ws.Runtime(s.wsRoot.FS(), path.Dir(benchmark)); found {
		var ok bool
		if rt, ok = s.runtime(w, p); !ok {
			return nil, "", false
		}
	}
	if rt == nil {
		writeError(w, http.StatusUnprocessableEntity, api.Code(diag.MissingBinding), ws.NoRuntime(b.AISystem))
		return nil, "", false
	}
	factory, binding, err := rt.FactoryIn(b, benchDir, paths, s.cfg.Log)
	switch {
	case errors.Is(err, engine.ErrMissingBinding):
		writeError(w, http.StatusUnprocessableEntity, api.Code(diag.MissingBinding), s.relative(err.Error()))
		return nil, "", false
	case err != nil: // a provider that is defined but cannot be used: its key's variable unset, say
		writeError(w, http.StatusUnprocessableEntity, api.BindingUnusable, s.relative(err.Error()))
		return nil, "", false
	}
	return factory, binding, true
}

func (s *Server) enqueueError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, errClosing):
		writeError(w, http.StatusServiceUnavailable, api.ShuttingDown, err.Error())
	case errors.Is(err, errQueueFull):
		w.Header().Set("Retry-After", queueFullRetry)
		writeError(w, http.StatusTooManyRequests, api.QueueFull, fmt.Sprintf("%d runs wait to start beside the %d running, the most this server queues; retry once one has started", MaxQueued, s.cfg.MaxRuns))
	case errors.Is(err, store.ErrTransition):
		writeError(w, http.StatusConflict, api.NotResumable, err.Error())
	default:
		s.internalError(w, api.StoreError, err)
	}
}

// view is a stored run as the API shows it: while this server runs it, total, summary
// and rate are the engine's live figures; done is always what the store holds.
func (s *Server) view(run store.Run) api.Run {
	run = s.settled(run)
	v := api.Run{ID: run.ID, Benchmark: run.Benchmark, IR: run.IR, IRHash: run.IRHash, AISystem: run.AISystem,
		Binding: run.Binding, Options: api.Options(run.Options), Status: string(run.Status),
		CreatedAt: run.CreatedAt, StartedAt: run.StartedAt, FinishedAt: run.FinishedAt, Total: run.Total,
		Done: run.Done, Summary: (*api.Summary)(run.Summary), Report: run.Report, Error: wireError(inWorkspace(run.Error, s.dir))}
	if run.Status != store.Running {
		return v
	}
	j := s.runs.get(run.ID)
	if j == nil {
		return v
	}
	if p, ok := j.events.snapshot(); ok {
		// done stays the stored count (committed: what a crash cannot take back); the
		// rest are the engine's live figures.
		v.Total, v.Summary, v.Rate = p.Total, &p.Summary, &p.Rate
	}
	return v
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, ok := intParam(w, q, "limit", 100, 1)
	if !ok {
		return
	}
	runs, err := s.st.ListRuns(store.Filter{Benchmark: q.Get("benchmark"), IRHash: q.Get("ir_hash")}, min(limit, maxListLimit))
	if err != nil {
		s.internalError(w, api.StoreError, err)
		return
	}
	out := api.Runs{Runs: make([]api.Run, 0, len(runs))}
	for _, run := range runs {
		out.Runs = append(out.Runs, s.view(run))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request) {
	run, err := s.st.GetRun(r.PathValue("id"))
	if err != nil {
		s.runError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.view(run))
}

// intParam reads an optional integer query parameter of at least least.
func intParam(w http.ResponseWriter, q url.Values, name string, def, least int) (int, bool) {
	v := q.Get(name)
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < least {
		writeError(w, http.StatusBadRequest, api.BadRequest, fmt.Sprintf("%s must be an integer of at least %d", name, least))
		return 0, false
	}
	return n, true
}

// runResults serves a page of a run's results (?status=&after=&limit=), or with ?format=
// all of them as a download.
func (s *Server) runResults(w http.ResponseWriter, r *http.Request) {
	id, q := r.PathValue("id"), r.URL.Query()
	if q.Has("format") {
		s.exportRun(w, id, q)
		return
	}
	pq := store.PageQuery{Status: engine.Status(q.Get("status"))}
	switch pq.Status {
	case "", engine.StatusValid, engine.StatusInvalidOutput, engine.StatusExecutionError:
	default:
		writeError(w, http.StatusBadRequest, api.BadRequest, "status is valid, invalid_output or execution_error")
		return
	}
	var ok bool
	if pq.After, ok = intParam(w, q, "after", store.First, store.First); !ok {
		return
	}
	if pq.Limit, ok = intParam(w, q, "limit", 100, 1); !ok {
		return
	}
	pq.Limit = min(pq.Limit, maxPageLimit)
	run, err := s.st.GetRun(id)
	if err != nil {
		s.runError(w, err)
		return
	}
	page, err := s.st.Page(id, pq)
	if err != nil {
		s.internalError(w, api.StoreError, err)
		return
	}
	writeJSON(w, http.StatusOK, s.withRows(run, page))
}

// exportTypes are the content types of the export formats.
var exportTypes = map[store.Format]string{
	store.JSON:  "application/json",
	store.JSONL: "application/x-ndjson",
	store.CSV:   "text/csv; charset=utf-8",
}

// exportRun streams every result of a run from the store, row by row.
func (s *Server) exportRun(w http.ResponseWriter, id string, q url.Values) {
	format := store.Format(q.Get("format"))
	ct, ok := exportTypes[format]
	if !ok {
		writeError(w, http.StatusBadRequest, api.BadFormat, "format is json, jsonl or csv")
		return
	}
	if q.Has("status") || q.Has("after") || q.Has("limit") {
		writeError(w, http.StatusBadRequest, api.BadRequest, "an export has every result: status, after and limit are for pages")
		return
	}
	out := &lazyResponse{w: w, header: func(h http.Header) {
		h.Set("Content-Type", ct)
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "benchy-"+id+"."+string(format)))
	}}
	err := s.st.Export(id, format, out)
	switch {
	case err == nil:
	case out.started:
		// Part of the body is out: break the connection rather than end it looking complete.
		panic(http.ErrAbortHandler)
	case errors.Is(err, store.ErrNoReport):
		writeError(w, http.StatusConflict, api.NotFinished, err.Error()+": the json document needs a completed run; jsonl and csv export any run")
	default:
		s.runError(w, err)
	}
}

// lazyResponse sends its header with the first byte of the body, so that an error found
// before any can still be answered as one.
type lazyResponse struct {
	w       http.ResponseWriter
	header  func(http.Header)
	started bool
}

func (l *lazyResponse) Write(p []byte) (int, error) {
	if !l.started {
		l.started = true
		l.header(l.w.Header())
		l.w.WriteHeader(http.StatusOK)
	}
	return l.w.Write(p)
}

// settled is run as it stands. A run the store shows queued or running, that this server
// does not execute and whose owner is gone (a `benchy run` killed with -9), is marked
// interrupted on the spot: it can be resumed at once, not only after the server restarts.
func (s *Server) settled(run store.Run) store.Run {
	if (run.Status != store.Queued && run.Status != store.Running) || s.runs.get(run.ID) != nil {
		return run
	}
	o, active, err := s.st.Owner(run.ID)
	if err != nil || !active || !o.Stale {
		return run
	}
	switch ok, err := s.st.Settle(run.ID); {
	case err != nil:
		s.logf("run %s: marking it interrupted: %v", run.ID, err)
	case ok:
		s.logf("run %s was %s in %s, which is gone: marked interrupted; resume it with POST /api/runs/%s/resume", run.ID, run.Status, o, run.ID)
		run.Status = store.Interrupted
	}
	return run
}

// elsewhere says who executes a queued or running run this server does not: "" when it is
// not one.
func (s *Server) elsewhere(run store.Run) string {
	if (run.Status != store.Queued && run.Status != store.Running) || s.runs.get(run.ID) != nil {
		return ""
	}
	o, active, err := s.st.Owner(run.ID)
	switch {
	case err != nil || !active:
		return ""
	case o.Mine:
		return "this server's store, but no run of this server" // only while its end is recorded
	}
	return o.String()
}

func (s *Server) cancelRun(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	switch err := s.runs.cancel(id); {
	case err == nil:
		writeJSON(w, http.StatusAccepted, api.Started{ID: id})
	case errors.Is(err, errNotExecuted):
		stored, err := s.st.GetRun(id)
		if err != nil {
			s.runError(w, err)
			return
		}
		run := s.settled(stored)
		switch owner := s.elsewhere(run); {
		case run.Status != stored.Status:
			writeError(w, http.StatusConflict, api.NotRunning, fmt.Sprintf("run %s was %s in a process that is gone: it is interrupted now; resuming it evaluates only what is missing", id, stored.Status))
		case owner != "":
			writeError(w, http.StatusConflict, api.OtherProcess, fmt.Sprintf("run %s is %s in %s, not in this server: stop it there (Ctrl-C where it runs)", id, run.Status, owner))
		default:
			writeError(w, http.StatusConflict, api.NotRunning, fmt.Sprintf("run %s is %s: only a queued or running run can be cancelled", id, run.Status))
		}
	default:
		s.internalError(w, api.StoreError, err)
	}
}

// resumeRun runs an interrupted or cancelled run again from its stored IR: the examples
// with a stored result are reused, only the missing ones go to the AI-system.
func (s *Server) resumeRun(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	run, err := s.st.GetRun(id)
	if err != nil {
		s.runError(w, err)
		return
	}
	run = s.settled(run) // a run whose process is gone is interrupted: resumable now
	if run.Status != store.Interrupted && run.Status != store.Cancelled {
		what := string(run.Status)
		if owner := s.elsewhere(run); owner != "" {
			what += " in " + owner
		} else if run.Status == store.Queued || run.Status == store.Running {
			what += " in this server"
		}
		writeError(w, http.StatusConflict, api.NotResumable, fmt.Sprintf("run %s is %s: only an interrupted or cancelled run can be resumed", id, what))
		return
	}
	dir := path.Dir(run.Benchmark)
	if !fs.ValidPath(dir) {
		writeError(w, http.StatusConflict, api.NotResumable, fmt.Sprintf("run %s's benchmark %s is not a workspace path", id, run.Benchmark))
		return
	}
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		s.internalError(w, api.StoreError, fmt.Errorf("run %s's stored IR: %w", id, err))
		return
	}
	if s.runs.full() {
		s.enqueueError(w, errQueueFull)
		return
	}
	benchDir, paths := s.benchmarkDir(run.Benchmark), s.paths()
	factory, binding, ok := s.bind(w, b, run.Benchmark, benchDir, paths)
	if !ok {
		return
	}
	j := newJob(b, factory, engine.Options{BenchmarkDir: benchDir, Paths: paths, IRHash: run.IRHash, Binding: binding,
		Concurrency: workers(run.Options.Concurrency), Limit: run.Options.Limit})
	j.resume, j.total = true, run.Total
	if _, err := s.runs.enqueue(j, func() (string, error) { return id, s.st.SetStatus(id, store.Queued) }); err != nil {
		j.cancel(nil)
		s.enqueueError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, api.Started{ID: id})
}

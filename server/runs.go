package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strconv"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	ws "github.com/benchy-eval/benchy/internal/workspace" // server_test.go has a workspace helper
	"github.com/benchy-eval/benchy/internal/yamlnode"
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
func (s *Server) startRun(w http.ResponseWriter, r *http.Request) error {
	var req api.StartRun
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if !validBenchmarkPath(req.Benchmark) {
		return refuse(http.StatusBadRequest, api.BadPath, badPathMessage)
	}
	if req.Limit < 0 || req.Concurrency < 0 || req.Concurrency > MaxConcurrency {
		return refuse(http.StatusBadRequest, api.BadRequest, "limit must be at least 0 and concurrency from 0 (the default) to %d, the most workers this server gives a run", MaxConcurrency)
	}
	if req.Systems != nil && len(req.Systems) == 0 {
		return refuse(http.StatusBadRequest, api.BadRequest, "systems is empty; leave it out to run the file's own AI-system")
	}
	if err := checkSystems(req.Systems); err != nil {
		return err
	}
	if err := checkModelOptions(req); err != nil {
		return err
	}
	if !s.runs.fits(max(1, len(req.Systems))) { // before the benchmark is read and compiled
		return errQueueFull
	}
	src, _, err := s.benchmarkSource(req.Benchmark) // a link or hard link to a runtime or hidden file: refused
	if err != nil {
		return err
	}
	if adapter.RuntimeText(src) { // refused as a read is, not compiled into diagnostics that show its keys
		return checkBenchmarkText(req.Benchmark, src, nil)
	}
	if req.Executor != "" && req.Executor != api.ExecutorLocal {
		return s.startCluster(w, req, src) // cluster.go
	}
	if len(req.Systems) > 0 {
		return s.startSystems(w, req, src)
	}
	plan, err := s.prepare(req.Benchmark, ws.Source{Name: req.Benchmark, Text: src, YAML: true}, req.Cache)
	if err != nil {
		return err
	}
	if err := checkBudget(plan, req); err != nil {
		return err
	}
	j := newJob(plan, jobOptions(storeOptions(req)))
	spec := plan.Spec(req.Benchmark, storeOptions(req))
	id, err := s.runs.enqueue(j, func() (string, error) {
		run, err := s.st.CreateRun(spec)
		return run.ID, err
	})
	if err != nil {
		j.cancel(nil)
		return enqueueFailed(err)
	}
	w.Header().Set("Location", api.RunPath(id))
	return writeJSON(w, http.StatusAccepted, api.Started{ID: id})
}

// Bounds of a request's systems (api.StartRun.Systems).
const (
	maxSystems    = 16               // systems per request: each is a run queued (MaxQueued)
	maxSystemName = 1 << 10          // bytes of a system's id or PROVIDER/MODEL
	maxSystemYAML = yamlnode.MaxSize // bytes of a system file's text, as of a benchmark's
)

// checkSystems bounds the systems of a request before anything is read: their number and
// the size of each field. What each names is WithSystem's to say.
func checkSystems(systems []api.SystemChoice) error {
	if len(systems) > maxSystems {
		return refuse(http.StatusBadRequest, api.BadRequest, "%d systems: a request runs at most %d", len(systems), maxSystems)
	}
	for i, c := range systems {
		switch {
		case len(c.System) > maxSystemName || len(c.Model) > maxSystemName:
			return refuse(http.StatusBadRequest, api.BadRequest, "systems[%d]: a system's id or model is at most %d bytes", i, maxSystemName)
		case len(c.YAML) > maxSystemYAML:
			return refuse(http.StatusBadRequest, api.BadRequest, "systems[%d]: the yaml is %d bytes; a system file is at most %d, as a benchmark file is", i, len(c.YAML), maxSystemYAML)
		}
	}
	return nil
}

// startSystems queues one run of the benchmark of text src per system of the request, each
// of its effective IR (ws.WithSystem, as benchy run's --system, --model and
// --system-file), in their order. Every system is resolved and bound first: one that
// cannot run refuses the whole request, naming it (0-based) and why, with nothing stored.
func (s *Server) startSystems(w http.ResponseWriter, req api.StartRun, src []byte) error {
	b, err := ws.Load(ws.Source{Name: req.Benchmark, Text: src, YAML: true})
	var ds diag.List
	switch {
	case errors.As(err, &ds):
		return invalidBenchmark(req.Benchmark, ds)
	case err != nil:
		return err
	}
	jobs := make([]*job, len(req.Systems))
	specs := make([]store.RunSpec, len(req.Systems))
	seen := map[string]int{} // system hash -> the item that named it first
	defer func() {
		for _, j := range jobs {
			if j != nil && j.id == "" {
				j.cancel(nil)
			}
		}
	}()
	for i, c := range req.Systems {
		choice := ws.Choice{System: c.System, Model: c.Model, Own: c.Own, File: fmt.Sprintf("systems[%d].yaml", i)}
		if c.YAML != "" {
			choice.YAML = []byte(c.YAML)
		}
		eff, err := ws.WithSystem(req.Benchmark, b, choice)
		var bad *ws.BadChoice
		switch {
		case errors.As(err, &bad):
			return refuse(http.StatusBadRequest, api.BadRequest, "systems[%d]: %s", i, bad.Reason)
		case errors.As(err, &ds):
			msg := fmt.Sprintf("systems[%d]: the system file has %d problem(s)", i, len(ds))
			e := refuse(http.StatusBadRequest, api.InvalidBenchmark, "%s", msg)
			e.body = api.InvalidBenchmarkError{Error: api.Error{Error: api.ErrorDetail{Code: api.InvalidBenchmark, Message: msg}}, Diagnostics: wireDiagnostics(ds)}
			return e
		case err != nil:
			return err
		}
		plan, err := s.prepare(req.Benchmark, eff, req.Cache)
		var refused *apiError
		switch {
		case errors.As(err, &refused):
			refused.message = fmt.Sprintf("systems[%d] (%s): %s", i, engine.Label(eff.IR.AISystem), refused.message)
			return refused
		case err != nil:
			return err
		}
		// Two items of one AI-system (its own and its id, say) would queue two identical runs.
		if first, dup := seen[plan.System.Hash]; dup {
			return refuse(http.StatusBadRequest, api.BadRequest, "systems[%d] and systems[%d] are the same AI-system (%s): name it once", first, i, plan.System.Label)
		}
		seen[plan.System.Hash] = i
		if err := checkBudget(plan, req); err != nil {
			if errors.As(err, &refused) {
				refused.message = fmt.Sprintf("systems[%d] (%s): %s", i, plan.System.Label, refused.message)
			}
			return err
		}
		jobs[i] = newJob(plan, jobOptions(storeOptions(req)))
		specs[i] = plan.Spec(req.Benchmark, storeOptions(req))
	}
	ids, err := s.runs.enqueueAll(jobs, func(i int) (string, error) {
		run, err := s.st.CreateRun(specs[i])
		return run.ID, err
	})
	if err != nil {
		return enqueueFailed(err)
	}
	w.Header().Set("Location", api.RunPath(ids[0]))
	return writeJSON(w, http.StatusAccepted, api.Started{ID: ids[0], IDs: ids})
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

// prepare plans a run of the benchmark at workspace path benchmark (src: its text, or a
// stored run's IR) with the run service `benchy run` uses (workspace.Prepare), bound
// through the runtime file the one rule names (workspace.Runtime: the nearest at or above
// the benchmark's folder). A benchmark that does not compile is a 400 with its
// diagnostics; one no runtime file binds, or whose binding cannot be used here, a 422.
func (s *Server) prepare(benchmark string, src ws.Source, cacheMode string) (*ws.Plan, error) {
	var runtimeFile string // the workspace path of the runtime file that binds it, if any
	plan, err := ws.Prepare(src, ws.Setup{Dir: s.benchmarkDir(benchmark), Paths: s.paths(), Log: s.cfg.Log, CacheMode: cacheMode,
		Cache: func() (provider.Cache, error) { return s.st.Cache(), nil }, // the response cache every run shares
		Runtime: func() (*adapter.Runtime, string, error) {
			p, found := ws.Runtime(s.wsRoot.FS(), path.Dir(benchmark))
			if !found {
				return nil, "", nil
			}
			runtimeFile = p
			rt, err := s.runtime(p)
			return rt, filepath.Join(s.dir, filepath.FromSlash(p)), err
		}})
	var ds diag.List
	var unusable *ws.Unusable
	switch {
	case err == nil:
		return plan, nil
	case errors.As(err, &unusable) && errors.As(err, &ds): // the prompt file's template: positioned in it
		return nil, s.invalidPrompt(benchmark, ds)
	case errors.As(err, &unusable): // a provider that is defined but cannot be used: its key's variable unset, say
		return nil, refuse(http.StatusUnprocessableEntity, api.BindingUnusable, "%s", s.relative(err.Error()))
	case errors.As(err, &ds) && ds.Has(diag.MissingBinding):
		msg := ds[0].Message
		if runtimeFile != "" { // which of the workspace's runtime files lacks it
			msg = runtimeFile + ": " + msg
		}
		return nil, refuse(http.StatusUnprocessableEntity, api.Code(diag.MissingBinding), "%s", s.relative(msg))
	case errors.As(err, &ds):
		return nil, invalidBenchmark(benchmark, ds)
	}
	return nil, err // the runtime file's answer (fileError, invalid_runtime), or the server's failure
}

// invalidBenchmark is the answer to a run of a benchmark that does not compile: 400, with
// its diagnostics.
func invalidBenchmark(benchmark string, ds diag.List) error {
	msg := fmt.Sprintf("%s has %d problem(s); fix them before running it", benchmark, len(ds))
	e := refuse(http.StatusBadRequest, api.InvalidBenchmark, "%s", msg)
	e.body = api.InvalidBenchmarkError{Error: api.Error{Error: api.ErrorDetail{Code: api.InvalidBenchmark, Message: msg}}, Diagnostics: wireDiagnostics(ds)}
	return e
}

// wireSystem is the AI-system as run, as the API sends it.
func wireSystem(s *engine.System) *api.System {
	if s == nil {
		return nil
	}
	def, err := json.Marshal(s.Definition)
	if err != nil {
		def = []byte("null")
	}
	return &api.System{Label: s.Label, Definition: def, PromptSHA256: s.PromptSHA256, Binding: s.Binding,
		BindingFingerprint: s.BindingFingerprint, Hash: s.Hash}
}

// enqueueFailed is the answer to a run the manager did not queue.
func enqueueFailed(err error) error {
	if errors.Is(err, store.ErrTransition) {
		return refuse(http.StatusConflict, api.NotResumable, "%s", err.Error()) // the store's sentence: the run's status
	}
	if errors.Is(err, errClosing) || errors.Is(err, errQueueFull) {
		return err
	}
	return storeError(err)
}

// view is a stored run as the API shows it: while this server runs it, total, summary
// and rate are the engine's live figures; done is always what the store holds.
func (s *Server) view(run store.Run) api.Run {
	run = s.settled(run)
	v := api.Run{ID: run.ID, Benchmark: run.Benchmark, IR: run.IR, IRHash: run.IRHash, AISystem: run.AISystem,
		BenchmarkHash: run.BenchmarkHash, DatasetDigest: run.DatasetDigest, System: wireSystem(run.System),
		Binding: run.Binding, Options: api.Options(run.Options), Status: string(run.Status),
		CreatedAt: run.CreatedAt, StartedAt: run.StartedAt, FinishedAt: run.FinishedAt, Total: run.Total,
		Done: run.Done, Summary: (*api.Summary)(run.Summary), Report: run.Report, Error: wireError(inWorkspace(run.Error, s.dir)), Reason: run.Reason}
	if run.Status != store.Running {
		return v
	}
	j := s.runs.get(run.ID)
	if j == nil {
		v.Waiting = s.waiting(run, nil) // its batches, when another process runs it
		return v
	}
	if p, ok := j.events.snapshot(); ok {
		// done stays the stored count (committed: what a crash cannot take back); the
		// rest are the engine's live figures.
		v.Total, v.Summary, v.Rate = p.Total, &p.Summary, &p.Rate
		v.Cluster = p.Cluster // a run on an executor: its shards' progress
	}
	v.Waiting = s.waiting(run, j)
	return v
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	limit, err := intParam(q, "limit", 100, 1)
	if err != nil {
		return err
	}
	for _, k := range []string{"benchmark", "ir_hash", "benchmark_hash", "dataset_digest", "status"} {
		if len(q[k]) > 1 { // Get reads the first: a list of one, a page naming another
			return refuse(http.StatusBadRequest, api.BadRequest, "?%s= is given %d times: name it once", k, len(q[k]))
		}
	}
	f := store.Filter{Benchmark: q.Get("benchmark"), IRHash: q.Get("ir_hash"), BenchmarkHash: q.Get("benchmark_hash"),
		DatasetDigest: q.Get("dataset_digest"), Status: store.Status(q.Get("status"))}
	for _, c := range []struct{ name, value string }{{"ir_hash", f.IRHash}, {"benchmark_hash", f.BenchmarkHash}, {"dataset_digest", f.DatasetDigest}} {
		if err := badHash(c.name, c.value); err != nil {
			return err
		}
	}
	switch f.Status {
	case "", store.Queued, store.Running, store.Completed, store.Aborted, store.Cancelled, store.Interrupted:
	default:
		return refuse(http.StatusBadRequest, api.BadRequest, "status must be queued, running, completed, aborted, cancelled or interrupted")
	}
	runs, err := s.st.ListRuns(f, min(limit, maxListLimit))
	if err != nil {
		return storeError(err)
	}
	out := api.Runs{Runs: make([]api.Run, 0, len(runs))}
	for _, run := range runs {
		v := s.view(run)
		s.health(&v, false)
		out.Runs = append(out.Runs, v)
	}
	return writeJSON(w, http.StatusOK, out)
}

// getRun is GET /api/runs/{id}. Like every /api/runs/{id}/... endpoint it takes a run's
// whole id (an id in a path names one run, for links and caches); only GET /api/report
// also takes a start or an end of one, as benchy report does.
func (s *Server) getRun(w http.ResponseWriter, r *http.Request) error {
	run, err := s.st.GetRun(r.PathValue("id"))
	if err != nil {
		return storeError(err)
	}
	v := s.view(run)
	s.health(&v, true)
	bs, err := s.st.Batches(run.ID)
	if err != nil {
		return storeError(err)
	}
	v.Batches = wireBatches(bs)
	return writeJSON(w, http.StatusOK, v)
}

// intParam reads an optional integer query parameter of at least least.
func intParam(q url.Values, name string, def, least int) (int, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < least {
		return 0, refuse(http.StatusBadRequest, api.BadRequest, "%s must be an integer of at least %d", name, least)
	}
	return n, nil
}

// runResults serves a page of a run's results under the filter of the query (api.Filter:
// status, imperfect, wrong, code, q, a confusion cell, sort; after, limit), or with
// ?format= all that it selects as a download. Each value is checked against the run's
// IR first: a refusal says what is allowed.
func (s *Server) runResults(w http.ResponseWriter, r *http.Request) error {
	id, q := r.PathValue("id"), r.URL.Query()
	run, err := s.st.GetRun(id)
	if err != nil {
		return storeError(err)
	}
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		return storeError(fmt.Errorf("run %s's stored IR: %w", id, err))
	}
	f, err := checkedFilter(q, b)
	if err != nil {
		return err
	}
	if q.Has("format") {
		return s.exportRun(w, run, b, f, q)
	}
	pq := store.PageQuery{Filter: f}
	if pq.After, err = intParam(q, api.QAfter, store.First, store.First); err != nil {
		return err
	}
	if pq.Limit, err = intParam(q, api.QLimit, 100, 1); err != nil {
		return err
	}
	pq.Limit, pq.MaxBytes = min(pq.Limit, maxPageLimit), maxPageBytes
	page, err := s.st.Page(id, pq) // each result clipped, the page cut at the bound
	if err != nil {
		return storeError(err)
	}
	out := api.ResultPage{Results: make([]api.Result, len(page.Results)), Next: page.Next, Total: page.Total, Scanned: page.Scanned}
	all := make([]int, len(page.Results)) // each result's bytes, its row's included
	var indices, sizes, at []int          // the results whose row the store has not: read from the dataset
	for i, sh := range page.Results {
		out.Results[i], all[i] = sh.Wire(), sh.Bytes()
		if sh.Input == nil {
			indices, sizes, at = append(indices, sh.Index), append(sizes, sh.Bytes()), append(at, i)
		}
	}
	rows, note := s.withRows(r.Context(), run, indices, sizes, maxPageBytes)
	for k, row := range rows {
		res := &out.Results[at[k]]
		res.Input, res.Expected, res.Clipped = row.Input, row.Expected, res.Clipped || row.Clipped
		all[at[k]] += len(row.Input) + len(row.Expected)
	}
	if n := fits(all, maxPageBytes); n < len(out.Results) { // the rows took it past the bound
		out.Results, out.Next, out.Scanned = out.Results[:n], out.Results[n-1].Index, false
	}
	if len(indices) > 0 {
		out.RowsNote = note
	}
	return writeJSON(w, http.StatusOK, out)
}

// maxPageBytes bounds a page of results as maxGridBytes does the grid's: each value is
// clipped (store.MaxShown) and a page stops before the result that takes it past the
// bound, with one at least. A page of 1,000 results of 4 MB predictions was a 224 MB body
// and 1.1 GB of memory; the export (?format=) has every value whole, streamed.
var maxPageBytes = 8 << 20 // a variable for its test

// exportTypes are the content types of the export formats.
var exportTypes = map[store.Format]string{
	store.JSON:  "application/json",
	store.JSONL: "application/x-ndjson",
	store.CSV:   "text/csv; charset=utf-8",
}

// exportRun streams the results of run that filter f selects (all of them for none),
// from the store, row by row, each with its input and expected output (CSV: a column per
// leaf of the program, input.x, expected.y, prediction.y, in declaration order): after and
// limit are for pages. A run stored before rows were recorded has them empty, said in the
// X-Benchy-Note trailer.
func (s *Server) exportRun(w http.ResponseWriter, run store.Run, b *ir.Benchmark, f store.ResultFilter, q url.Values) error {
	id := run.ID
	format := store.Format(q.Get("format"))
	ct, ok := exportTypes[format]
	if !ok {
		return refuse(http.StatusBadRequest, api.BadFormat, "format is json, jsonl or csv")
	}
	if q.Has(api.QAfter) || q.Has(api.QLimit) {
		return refuse(http.StatusBadRequest, api.BadRequest, "an export has every result the filter selects: after and limit are for pages")
	}
	eq := store.ExportQuery{Filter: f, Query: api.FilterOf(q).Values()} // the filter's keys, for the name and JSON's "filter"
	for _, l := range b.Program.Input.Leaves() {
		eq.Input = append(eq.Input, l.Path)
	}
	for _, l := range b.Program.Output.Leaves() {
		eq.Output = append(eq.Output, l.Path)
	}
	out := &lazyResponse{w: w, header: func(h http.Header) {
		h.Set("Content-Type", ct)
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", api.ExportFileName(id, string(format), eq.Query)))
		h.Set("Trailer", exportNote)
	}}
	note, err := s.st.ExportRows(id, format, eq, out)
	switch {
	case err == nil:
		if !out.started { // nothing selected, and a format with no head (jsonl)
			out.Write(nil)
		}
		if note != "" {
			w.Header().Set(exportNote, note)
		}
		return nil
	case out.started:
		// Part of the body is out: break the connection rather than end it looking complete.
		panic(http.ErrAbortHandler)
	case errors.Is(err, store.ErrNoReport): // the store's sentence: the run's status
		return refuse(http.StatusConflict, api.NotFinished, "%s: the json document needs a completed run; jsonl and csv export any run", err.Error())
	}
	return storeError(err)
}

// exportNote is the trailer of an export that says what it lacks (store.NoRowsNote).
const exportNote = "X-Benchy-Note"

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

func (s *Server) cancelRun(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	switch err := s.runs.cancel(id); {
	case err == nil:
		return writeJSON(w, http.StatusAccepted, api.Started{ID: id})
	case !errors.Is(err, errNotExecuted):
		return storeError(err)
	}
	stored, err := s.st.GetRun(id)
	if err != nil {
		return storeError(err)
	}
	run := s.settled(stored)
	switch owner := s.elsewhere(run); {
	case run.Status != stored.Status:
		return refuse(http.StatusConflict, api.NotRunning, "run %s was %s in a process that is gone: it is interrupted now; resuming it evaluates only what is missing", id, stored.Status)
	case owner != "":
		return refuse(http.StatusConflict, api.OtherProcess, "run %s is %s in %s, not in this server: stop it there (Ctrl-C where it runs)", id, run.Status, owner)
	}
	return refuse(http.StatusConflict, api.NotRunning, "run %s is %s: only a queued or running run can be cancelled", id, run.Status)
}

// resumeRun runs an interrupted or cancelled run again from its stored IR: the examples
// with a stored result are reused, only the missing ones go to the AI-system. It keeps the
// run's stored options (limit, records, cache mode, budget); its optional body (api.Resume)
// raises the budget, for a run its budget stopped (readResume).
func (s *Server) resumeRun(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	run, err := s.st.GetRun(id)
	if err != nil {
		return storeError(err)
	}
	run = s.settled(run) // a run whose process is gone is interrupted: resumable now
	if run.Status != store.Interrupted && run.Status != store.Cancelled {
		what := string(run.Status)
		if owner := s.elsewhere(run); owner != "" {
			what += " in " + owner
		} else if run.Status == store.Queued || run.Status == store.Running {
			what += " in this server"
		}
		return refuse(http.StatusConflict, api.NotResumable, "run %s is %s: only an interrupted or cancelled run can be resumed", id, what)
	}
	if !fs.ValidPath(path.Dir(run.Benchmark)) {
		return refuse(http.StatusConflict, api.NotResumable, "run %s's benchmark %s is not a workspace path", id, run.Benchmark)
	}
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		return storeError(fmt.Errorf("run %s's stored IR: %w", id, err))
	}
	opts, err := readResume(r, run)
	if err != nil {
		return err
	}
	if s.runs.full() {
		return errQueueFull
	}
	plan, err := s.prepare(run.Benchmark, ws.Source{Name: run.Benchmark, IR: b, Canonical: run.IR, IRHash: run.IRHash}, opts.Cache)
	if err != nil {
		return err
	}
	j := newJob(plan, jobOptions(opts))
	j.resume, j.total = true, run.Total
	if _, err := s.runs.enqueue(j, func() (string, error) {
		if opts != run.Options { // a raised budget: a later resume keeps it
			if err := s.st.SetOptions(id, opts); err != nil {
				return "", err
			}
		}
		return id, s.st.SetStatus(id, store.Queued)
	}); err != nil {
		j.cancel(nil)
		return enqueueFailed(err)
	}
	return writeJSON(w, http.StatusAccepted, api.Started{ID: id})
}

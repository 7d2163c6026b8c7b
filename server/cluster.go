package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/adapter/runtimefile"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/cluster/slurm"
	"github.com/benchy-eval/benchy/engine"
	ws "github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/shard"
	"github.com/benchy-eval/benchy/store"
)

// A run on an executor (issue 17) is one run of the store that the cluster evaluates: the
// server validates its dataset as the engine does (so its total is known and a bad dataset
// aborts it here, with no job submitted), submits its N shards as an array job
// (cluster/slurm.Submit, each task `benchy run --shard K/N`), and then watches it, reading
// the shards' journals every clusterPoll into progress events on the run's usual stream.
// Once every shard is complete it merges them into this same run (workspace.MergeInto, as
// `benchy merge --into-store` does), so the leaderboard, compare and the results pages show
// it as any completed run. A cancel runs scancel. A watched run takes none of --max-runs'
// slots: its work is the cluster's.
//
// What the server needs to watch it again after a restart is in .benchy/cluster/RUNID.json
// (clusterRecord): the store's MarkInterrupted at startup marks it interrupted, as every run
// whose process is gone, and New takes it back (resumeClusterRuns) while it is unsettled.

// clusterPoll is how often a watched run's journals and jobs are read; a variable for tests.
var clusterPoll = 2 * time.Second

// benchyPath is the benchy binary the cluster's tasks run: this one. A variable, so that a
// test, whose binary is not benchy, names one it built.
var benchyPath = func() (string, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	return exe, err
}

// clusterDir is the folder of the workspace's cluster runs: their records, and their shards
// unless the executor names an out_dir.
var clusterDir = filepath.Join(store.Dir, "cluster")

// clusterRecord is what the server keeps of a run on an executor, beside the store.
type clusterRecord struct {
	Executor string    `json:"executor"`
	Kind     string    `json:"kind"`
	OutDir   string    `json:"out_dir"` // absolute: DIR of the shards
	Shards   int       `json:"shards"`
	Array    string    `json:"array_job_id"`
	Merge    string    `json:"merge_job_id,omitempty"`
	Total    int       `json:"total"`
	Since    time.Time `json:"submitted"`
	Settled  bool      `json:"settled,omitempty"` // the watcher recorded the run's end
}

func (s *Server) recordPath(id string) string {
	return filepath.Join(s.dir, clusterDir, id+".json")
}

func (s *Server) writeRecord(id string, rec clusterRecord) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	p := s.recordPath(id)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// startCluster starts a run of the benchmark (text src) on the executor req names.
func (s *Server) startCluster(w http.ResponseWriter, req api.StartRun, src []byte) error {
	if req.Systems != nil {
		return refuse(http.StatusBadRequest, api.BadRequest, "systems cannot be run on an executor yet: run them on this machine, or one request per AI-system")
	}
	if req.Shards < 0 || req.Shards > runtimefile.MaxShards {
		return refuse(http.StatusBadRequest, api.BadRequest, "shards must be from 0 (the executor's default) to %d", runtimefile.MaxShards)
	}
	x, runtimePath, err := s.executorFor(req.Benchmark, req.Executor)
	if err != nil {
		return err
	}
	exe, err := benchyPath()
	if err != nil {
		return fmt.Errorf("finding benchy's own path for the cluster's tasks: %w", err)
	}
	plan, err := s.prepare(req.Benchmark, ws.Source{Name: req.Benchmark, Text: src, YAML: true}, req.Cache)
	if err != nil {
		return err
	}
	n := x.Shards
	if req.Shards > 0 {
		n = req.Shards
	}
	opts := storeOptions(req)
	run, err := s.st.CreateRun(plan.Spec(req.Benchmark, opts))
	if err != nil {
		return storeError(err)
	}
	id := run.ID
	started := func() error {
		w.Header().Set("Location", api.RunPath(id))
		return writeJSON(w, http.StatusAccepted, api.Started{ID: id})
	}
	// The dataset is checked here, whole, as every shard will check it: a bad one aborts the
	// run with no job submitted, as a local run aborts before its first AI call.
	v, verr := engine.DatasetDigest(context.Background(), plan.IR, plan.BenchmarkDir, plan.Paths)
	if verr != nil {
		if err := ws.Ending(context.Background(), nil, verr, nil).Record(s.st, id); err != nil {
			return storeError(err)
		}
		return started()
	}
	total := v.Total
	if req.Limit > 0 {
		total = min(total, req.Limit)
	}
	if err := s.st.MarkRunning(id, total); err != nil {
		return storeError(err)
	}
	if err := s.st.SetDataset(id, v.Digest); err != nil {
		s.st.SetStatus(id, store.Interrupted)
		return storeError(err)
	}
	base := filepath.Join(s.dir, clusterDir)
	if x.OutDir != "" {
		base = x.OutDir
		if !filepath.IsAbs(base) {
			base = filepath.Join(s.dir, filepath.FromSlash(base))
		}
	}
	j := slurm.Job{Benchy: exe, Bench: filepath.Join(s.dir, filepath.FromSlash(req.Benchmark)), Shards: n,
		OutDir: filepath.Join(base, id), WorkDir: s.dir, Limit: req.Limit,
		Partition: x.Partition, Time: x.Time, SbatchArgs: x.SbatchArgs}
	if runtimePath != "" {
		j.Runtime = filepath.Join(s.dir, filepath.FromSlash(runtimePath))
	}
	err = os.MkdirAll(filepath.Join(s.dir, clusterDir), 0o755)
	var sub slurm.Submission
	if err == nil {
		sub, err = slurm.Submit(context.Background(), j, nil)
	}
	if err != nil {
		if sub.Array != "" { // the merge job was refused: the array alone is no run of ours
			slurm.Cancel(context.Background(), j.OutDir)
		}
		s.st.SetStatus(id, store.Interrupted)
		return refuse(http.StatusBadGateway, api.SubmitFailed, "run %s on %s: %s", id, x.Name, s.relative(err.Error()))
	}
	rec := clusterRecord{Executor: x.Name, Kind: x.Kind, OutDir: j.OutDir, Shards: n, Array: sub.Array, Merge: sub.Merge, Total: total, Since: sub.Submitted}
	if err := s.writeRecord(id, rec); err != nil {
		s.logf("run %s: recording its jobs in %s: %v (a restarted server will not watch it)", id, s.recordPath(id), err)
	}
	s.logf("run %s: submitted to %s: array job %s (%d shards), merge job %s", id, x.Name, sub.Array, n, sub.Merge)
	if err := s.runs.watchCluster(id, submitted(rec), s.clusterWatcher(id, rec)); err != nil {
		slurm.Cancel(context.Background(), j.OutDir)
		s.st.SetStatus(id, store.Cancelled)
		return err
	}
	return started()
}

// watchCluster makes run id, which watcher follows to its end, active in the manager, outside the
// queue and its slots.
func (m *manager) watchCluster(id string, first api.Progress, watcher func(*job) func() error) error {
	j := newJob(nil, ws.Options{})
	j.events.setProgress(first) // what GET /api/runs/{id} shows before the first poll
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing {
		j.cancel(nil)
		return errClosing
	}
	j.id, j.started = id, true
	m.active[id] = j
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		end := watcher(j)
		m.mu.Lock()
		if end != nil {
			if err := end(); err != nil {
				fmt.Fprintf(m.log, "benchy: run %s: recording its end: %v\n", j.id, err)
			}
		}
		if m.active[j.id] == j {
			delete(m.active, j.id)
		}
		m.mu.Unlock()
		d := api.Done{Status: string(store.Running)} // a shutdown: the next server watches it
		if run, err := m.st.GetRun(j.id); err == nil {
			d = doneOf(run, m.dir)
		}
		j.events.finish(d)
		close(j.done)
		j.cancel(nil)
	}()
	return nil
}

// clusterWatcher follows run id on the cluster: its progress from the journals, until it
// is complete (merged), its array ended without it (interrupted: the shards to run again
// are logged), a user cancelled it (scancel, cancelled), or the server stops (left
// running for the next server). Its result records the end, under the manager's lock.
func (s *Server) clusterWatcher(id string, rec clusterRecord) func(*job) func() error {
	return func(j *job) func() error {
		tick := time.NewTicker(clusterPoll)
		defer tick.Stop()
		seen := false // squeue listed the array's tasks once
		settle := func(status store.Status) func() error {
			return func() error {
				rec.Settled = true
				s.writeRecord(id, rec)
				return s.st.SetStatus(id, status)
			}
		}
		for {
			st, err := slurm.Read(j.ctx, rec.OutDir)
			if err != nil && st.Shards == nil && j.ctx.Err() == nil {
				s.logf("run %s: reading its shards: %v", id, err)
			}
			c, tasks := clusterProgress(rec, st)
			if st.Shards != nil {
				j.events.setProgress(api.Progress{Done: c.Done, Total: rec.Total, Cluster: &c})
			}
			seen = seen || tasks > 0
			switch {
			case st.Shards != nil && c.Complete == rec.Shards:
				return s.mergeCluster(j, id, rec)
			case err == nil && arrayEnded(st, rec, seen):
				s.logf("run %s: the array job %s of %s ended with %d of %d shards complete: interrupted; the shards' folders are in %s", id, rec.Array, rec.Executor, c.Complete, rec.Shards, rec.OutDir)
				return settle(store.Interrupted)
			}
			select {
			case <-tick.C:
			case <-j.stop:
				return nil
			case <-j.ctx.Done():
				if !errors.Is(context.Cause(j.ctx), ws.ErrCancelled) {
					return nil // the server is going: the next one watches the run
				}
				ids, err := slurm.Cancel(context.Background(), rec.OutDir)
				if err != nil {
					s.logf("run %s: scancel %v: %v", id, ids, err)
				}
				return settle(store.Cancelled)
			}
		}
	}
}

// submitted is the progress of run rec before its journals are read: every shard pending.
func submitted(rec clusterRecord) api.Progress {
	c, _ := clusterProgress(rec, slurm.Status{})
	c.Pending = rec.Shards
	return api.Progress{Total: rec.Total, Cluster: &c}
}

// clusterProgress is what st says of run rec, and how many array tasks squeue lists.
func clusterProgress(rec clusterRecord, st slurm.Status) (api.Cluster, int) {
	c := api.Cluster{Executor: rec.Executor, Kind: rec.Kind, JobID: rec.Array, MergeJob: rec.Merge, Shards: rec.Shards, Total: rec.Total}
	for _, p := range st.Shards {
		c.Done += p.Done
		switch {
		case p.Complete:
			c.Complete++
		case p.Started:
			c.Running++
		default:
			c.Pending++
		}
	}
	tasks := 0
	for _, t := range st.Tasks {
		if t.Array == rec.Array && t.Index != "" {
			tasks++
		}
	}
	return c, tasks
}

// arrayEnded reports whether rec's array will run no more: every task squeue lists of it
// has ended, or squeue, which listed them, no longer does (or never did, long after the
// submission: ended jobs leave it after the cluster's MinJobAge).
func arrayEnded(st slurm.Status, rec clusterRecord, seen bool) bool {
	var states []string
	for _, t := range st.Tasks {
		if t.Array == rec.Array && t.Index != "" {
			states = append(states, t.State)
		}
	}
	if len(states) == 0 {
		return seen || time.Since(rec.Since) > 5*time.Minute
	}
	return !slices.ContainsFunc(states, func(s string) bool { return !slurm.Ended(s) })
}

// mergeCluster merges run id's complete shards into it, holding them to the run as it was
// created (workspace.WantRun): shards that ran another benchmark, AI-system, binding or
// dataset (the benchmark saved again between the submission and the tasks' start, say), or
// whose lines do not score as the benchmark does, end it aborted with a code naming what
// differs, rather than recording one AI-system's results as another's.
func (s *Server) mergeCluster(j *job, id string, rec clusterRecord) func() error {
	began := time.Now()
	set, err := shard.Open(rec.OutDir)
	var want *shard.Want
	if err == nil {
		var run store.Run
		if run, err = s.st.GetRun(id); err == nil {
			want, err = ws.WantRun(run, s.benchmarkDir(run.Benchmark), s.paths())
		}
	}
	if err == nil {
		_, _, err = ws.MergeInto(s.st, func() (string, error) { return id, nil }, set, want)
	}
	rec.Settled = true
	if err != nil {
		s.logf("run %s: merging the shards of %s: %v", id, rec.OutDir, err)
		refused := ws.Refusal(err)
		return func() error {
			s.writeRecord(id, rec)
			if refused != nil {
				return s.st.Abort(id, refused)
			}
			return s.st.SetStatus(id, store.Interrupted)
		}
	}
	s.logf("run %s: %d shards merged in %v", id, rec.Shards, time.Since(began).Round(time.Millisecond))
	return func() error { return s.writeRecord(id, rec) }
}

// resumeClusterRuns watches again the runs on executors that a previous server submitted
// and did not settle: MarkInterrupted has just marked them interrupted, their process
// being gone; their jobs may still be queued or running, or done and waiting to be merged.
func (s *Server) resumeClusterRuns() {
	entries, err := os.ReadDir(filepath.Join(s.dir, clusterDir))
	if err != nil {
		return
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.dir, clusterDir, e.Name()))
		var rec clusterRecord
		if err != nil || json.Unmarshal(data, &rec) != nil || rec.Settled || rec.Shards < 1 {
			continue
		}
		run, err := s.st.Peek(id)
		if err != nil || run.Status != store.Interrupted {
			continue
		}
		if err := s.st.MarkRunning(id, rec.Total); err != nil {
			s.logf("run %s on %s: taking it back: %v", id, rec.Executor, err)
			continue
		}
		if err := s.runs.watchCluster(id, submitted(rec), s.clusterWatcher(id, rec)); err != nil {
			continue
		}
		s.logf("run %s on %s: watching its array job %s again", id, rec.Executor, rec.Array)
	}
}

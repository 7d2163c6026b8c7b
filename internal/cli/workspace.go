package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/store"
)

// storePath is where workspace ws keeps its runs.
func storePath(ws string) string { return store.Path(ws) }

// recorder keeps one `benchy run` in its workspace's store, beside the result files. The
// files are the run's primary output, so every store failure is a warning, never the run's
// end. A nil recorder records nothing.
type recorder struct {
	log    io.Writer
	st     *store.Store
	db     string // the store file, for messages
	id     string
	w      *store.Writer
	total  bool // the stored run has its total
	broken bool // a write failed: the stored results are incomplete
}

// openRecorder creates the run in the workspace of the benchmark file, or returns nil when
// the benchmark is in no workspace or the store cannot be used.
func openRecorder(log io.Writer, benchmark string, spec store.RunSpec) *recorder {
	abs, err := filepath.Abs(benchmark)
	if err != nil {
		return nil
	}
	ws, ok := workspace.Find(filepath.Dir(abs))
	if !ok {
		return nil
	}
	rel, err := filepath.Rel(ws, abs)
	if err != nil {
		return nil
	}
	spec.Benchmark = filepath.ToSlash(rel)
	db := storePath(ws)
	st, err := store.Open(db)
	if err != nil {
		fmt.Fprintf(log, "benchy run: warning: this run is not recorded in the workspace: %v\n", err)
		return nil
	}
	run, err := st.CreateRun(spec)
	if err == nil {
		// Running from the start, with its total once the engine has checked the dataset.
		err = st.MarkRunning(run.ID, 0)
	}
	if err != nil {
		st.Close()
		fmt.Fprintf(log, "benchy run: warning: this run is not recorded in %s: %v\n", db, err)
		return nil
	}
	return &recorder{log: log, st: st, db: db, id: run.ID, w: st.ResultWriter(run.ID)}
}

func (r *recorder) warn(err error) {
	fmt.Fprintf(r.log, "benchy run: warning: run store %s: %v (the result files are unaffected)\n", r.db, err)
}

// progress stores the total the engine validated, on the first report.
func (r *recorder) progress(p engine.Progress) {
	if r == nil || r.total {
		return
	}
	r.total = true
	if err := r.st.MarkRunning(r.id, p.Total); err != nil {
		r.warn(err)
	}
}

// result stores one example result; after a failure it stops trying.
func (r *recorder) result(res engine.ExampleResult, _ bool) {
	if r == nil || r.broken {
		return
	}
	if err := r.w.Add(res); err != nil {
		r.broken = true
		r.warn(err)
	}
}

// end records how the run ended: completed with its report, aborted, cancelled, or
// interrupted when something else stopped it or its results could not all be stored (a
// resume completes it). It returns the status stored, or "" when none could be.
func (r *recorder) end(ctx context.Context, rep *engine.Report, runErr error) store.Status {
	if r == nil {
		return ""
	}
	if err := r.w.Close(); err != nil && !r.broken {
		r.broken = true
		r.warn(err)
	}
	var a *engine.Abort
	var status store.Status
	var err error
	switch {
	case runErr == nil && !r.broken:
		status, err = store.Completed, r.st.Finish(r.id, rep)
	case errors.As(runErr, &a):
		status, err = store.Aborted, r.st.Abort(r.id, a)
	case ctx.Err() != nil:
		status, err = store.Cancelled, r.st.Cancel(r.id)
	default:
		status, err = store.Interrupted, r.st.SetStatus(r.id, store.Interrupted)
	}
	if err != nil {
		r.warn(err)
		return ""
	}
	return status
}

// summary ends the run's report with where the run is stored, under the status end gave.
func (r *recorder) summary(w io.Writer, stored store.Status) {
	switch {
	case r == nil || stored == "":
	case stored == store.Completed:
		fmt.Fprintf(w, "run %s: results stored in %s\n", r.id, r.db)
	default:
		fmt.Fprintf(w, "run %s: recorded as %s in %s\n", r.id, stored, r.db)
	}
}

func (r *recorder) close() {
	if r == nil {
		return
	}
	r.w.Close()
	if err := r.st.Close(); err != nil {
		r.warn(err)
	}
}

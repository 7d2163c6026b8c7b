package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/store"
)

// storePath is where workspace ws keeps its runs.
func storePath(ws string) string { return store.Path(ws) }

// recorder keeps one `benchy run` in its workspace's store, beside the result files
// (workspace.Execute stores the results). The files are the run's primary output, so every
// store failure is a warning, never the run's end. A nil recorder records nothing.
type recorder struct {
	log io.Writer
	st  *store.Store
	db  string // the store file, for messages
	id  string
}

// openRecorder creates the run of the benchmark file in the store of its workspace ws, or
// returns nil when it is in none (ws "") or the store cannot be used.
func openRecorder(log io.Writer, benchmark, ws string, spec store.RunSpec) *recorder {
	if ws == "" {
		return nil
	}
	abs, err := filepath.Abs(benchmark)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs)) // as Find found ws
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
	return &recorder{log: log, st: st, db: db, id: run.ID}
}

func (r *recorder) warn(err error) {
	fmt.Fprintf(r.log, "benchy run: warning: run store %s: %v (the result files are unaffected)\n", r.db, err)
}

// record is where workspace.Execute stores the run: nowhere for a nil recorder.
func (r *recorder) record() workspace.Record {
	if r == nil {
		return workspace.Record{}
	}
	return workspace.Record{Store: r.st, ID: r.id}
}

// end records how the run ended (workspace.Ending) and returns the status stored, or ""
// when none could be.
func (r *recorder) end(end workspace.End) store.Status {
	if r == nil {
		return ""
	}
	if err := end.Record(r.st, r.id); err != nil {
		r.warn(err)
		return ""
	}
	return end.Status
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
	if err := r.st.Close(); err != nil {
		r.warn(err)
	}
}

package workspace

import (
	"context"
	"errors"
	"io"
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// ErrCancelled is the cause of a run's context cancelled by a user (Ctrl-C in the
// terminal, a cancel through the API): such a run ends cancelled. Any other end of its
// context (a shutdown, a failed store) interrupts it.
var ErrCancelled = errors.New("cancelled by a user")

// Options are the choices of one execution of a plan.
type Options struct {
	Concurrency int // workers; 0: engine.DefaultConcurrency
	Limit       int // only the first Limit examples; 0: all
	// RecordRequests is how many examples keep the request sent to a model:
	// engine.Options.RecordRequests (0: the first engine.DefaultRecordRequests).
	RecordRequests int
	Results        io.Writer // the JSONL stream of results (benchy run's), or nil
	// Prior gives the results stored by an earlier execution of the run, which are reused
	// (a resume); nil evaluates every example.
	Prior func(index int) (engine.ExampleResult, bool)
	// Stop, once closed, lets the examples started finish and starts no more (a server's
	// shutdown): engine.Options.Stop.
	Stop <-chan struct{}
	// Budget caps what the run spends on a model (engine.Options.Budget; nil: no cap). A
	// run it stops ends cancelled with reason budget, its report of the examples done in
	// End.Report; resumed with a larger budget it goes on.
	Budget *engine.Budget
}

// Record is the run's record in a store: a nil Store records nothing.
type Record struct {
	Store *store.Store
	ID    string
}

// Observer hears of a run as it goes; any of its functions may be nil. They are called
// from one goroutine.
type Observer struct {
	Progress func(engine.Progress)
	Result   func(res engine.ExampleResult, reused bool) // after it is stored
	// StoreFailed is told of the first result that could not be stored, after which no
	// more are tried. The run goes on unless StoreFailed stops it (the server cancels it,
	// the CLI warns), and ends interrupted: a resume evaluates what is missing.
	StoreFailed func(error)
	// Warn is told of a store failure that loses no result: the total not recorded.
	Warn func(error)
	// Validated is told, once the dataset is checked and before any example runs, how many
	// examples will run: a page shows 0 of N rather than "starting" while a slow system
	// thinks over its first answer.
	Validated func(engine.Validated)
	// Batches is told of a batch run's batches each time their states are known: once
	// submitted, then after each poll, while the run waits for them (batch.go).
	Batches func([]provider.BatchInfo)
}

// End is how an execution ended, as its record says it: Ending decides it, Record writes it.
type End struct {
	Status store.Status
	// Reason says why, when the status alone does not: engine.ReasonBudget for a run its
	// budget stopped (cancelled, resumable with a larger budget).
	Reason   string
	Report   *engine.Report // the engine's, when completed or stopped by its budget
	Err      error          // the engine's error: an *engine.Abort, a cancel, a stop
	StoreErr error          // the first result that could not be stored, if any
	// Workspace is the folder the plan read in: an abort's file is stored relative to it,
	// so that a run's record says the same wherever it was started from.
	Workspace string
}

// Execute runs the plan with the engine, storing each result it evaluates in rec as it
// comes and telling obs; it returns how the run ended, which the caller records
// (End.Record) where its own bookkeeping wants (the server under its lock). The run must
// be running in the store already: Execute records its total when the engine knows it.
func Execute(ctx context.Context, p *Plan, opts Options, rec Record, obs Observer) End {
	var w *store.Writer
	if rec.Store != nil {
		w = rec.Store.ResultWriter(rec.ID, store.Labels(store.EnumsOf(p.IR))) // its confusion matrices counted as stored
	}
	var storeErr error
	failed := func(err error) {
		if storeErr == nil {
			storeErr = err
			if obs.StoreFailed != nil {
				obs.StoreFailed(err)
			}
		}
	}
	totalKnown := false
	eopts := engine.Options{
		BenchmarkDir: p.BenchmarkDir, Paths: p.Paths, IRHash: p.IRHash, Binding: p.Binding,
		BenchmarkHash: p.BenchmarkHash, System: &p.System,
		Validated: func(v engine.Validated) error {
			if obs.Validated != nil {
				obs.Validated(v)
			}
			if rec.Store == nil {
				return nil
			}
			err := rec.Store.SetDataset(rec.ID, v.Digest)
			if errors.Is(err, store.ErrDatasetChanged) {
				return &engine.Abort{Diagnostic: diag.Diagnostic{Phase: engine.PhaseData, Code: diag.DatasetChanged, Path: []string{"data", "path"},
					Message: err.Error() + "; its results so far are of the old one: start a new run", Line: 1, Column: 1}}
			}
			if err != nil && obs.Warn != nil {
				obs.Warn(err) // the digest is in the report still
			}
			if opts.Limit > 0 && opts.Limit >= v.Rows {
				// The limit covers the dataset: the run takes it all, a full run.
				if err := rec.Store.CoverDataset(rec.ID); err != nil && obs.Warn != nil {
					obs.Warn(err)
				}
			}
			// The total is known now: recorded, a listing of the run shows 0 of N.
			if err := rec.Store.MarkRunning(rec.ID, v.Total); err != nil && obs.Warn != nil {
				obs.Warn(err)
			}
			totalKnown = true
			return nil
		},
		Concurrency: opts.Concurrency, Limit: opts.Limit, RecordRequests: opts.RecordRequests, Results: opts.Results, Prior: opts.Prior, Stop: opts.Stop, Budget: opts.Budget,
		Progress: func(pr engine.Progress) {
			if !totalKnown && rec.Store != nil {
				if err := rec.Store.MarkRunning(rec.ID, pr.Total); err != nil && obs.Warn != nil {
					obs.Warn(err)
				}
			}
			totalKnown = true
			if obs.Progress != nil {
				obs.Progress(pr)
			}
		},
		OnResult: func(res engine.ExampleResult, reused bool) {
			if !reused && w != nil && storeErr == nil {
				if err := w.Add(res); err != nil {
					failed(err)
				}
			}
			if obs.Result != nil {
				obs.Result(res, reused)
			}
		},
	}
	// A batch run first waits for its batches (batch.go): the engine then runs as ever, its
	// adapters answering from the replies, so that the results are the synchronous run's.
	factory, err := Batch(ctx, p, opts, rec, obs)
	var rep *engine.Report
	if err == nil {
		rep, err = engine.Run(ctx, p.IR, factory, eopts)
	}
	if w != nil {
		if cerr := w.Close(); cerr != nil {
			failed(cerr)
		}
	}
	end := Ending(ctx, rep, err, storeErr)
	end.Workspace = p.Paths.Workspace
	return end
}

// Ending is the one rule for how a run ended: completed with its report when the engine
// gave one and every result was stored; aborted when the dataset or the setup stopped it
// (engine.Abort); interrupted when results could not all be stored (a resume evaluates
// what is missing); cancelled with reason budget when its budget stopped it
// (engine.ErrBudget), with the report of the examples done; cancelled when a user
// cancelled it (ctx's cause is ErrCancelled);
// interrupted otherwise (stopped by a shutdown, or ended by anything else). A run that
// never started is ended with the error that kept it from starting.
func Ending(ctx context.Context, rep *engine.Report, runErr, storeErr error) End {
	e := End{Report: rep, Err: runErr, StoreErr: storeErr}
	var abort *engine.Abort
	switch {
	case runErr == nil && storeErr == nil:
		e.Status = store.Completed
	case errors.As(runErr, &abort):
		e.Status = store.Aborted
	case storeErr == nil && errors.Is(runErr, engine.ErrBudget):
		e.Status, e.Reason = store.Cancelled, engine.ReasonBudget
	case storeErr == nil && errors.Is(context.Cause(ctx), ErrCancelled):
		e.Status = store.Cancelled
	default:
		e.Status = store.Interrupted
	}
	return e
}

// Record writes the end to run id of st.
func (e End) Record(st *store.Store, id string) error {
	var abort *engine.Abort
	switch e.Status {
	case store.Completed:
		return st.Finish(id, e.Report)
	case store.Aborted:
		errors.As(e.Err, &abort)
		return st.Abort(id, e.stored(abort))
	case store.Cancelled:
		if e.Reason != "" {
			return st.CancelFor(id, e.Reason)
		}
	}
	return st.SetStatus(id, e.Status)
}

// stored is abort as a store records it: its file a slash path relative to the workspace
// when it lies inside it (benchy run names it relative to the working directory, the
// server by its absolute path), absolute otherwise.
func (e End) stored(abort *engine.Abort) *engine.Abort {
	if abort == nil || abort.Diagnostic.File == "" {
		return abort
	}
	file, err := filepath.Abs(abort.Diagnostic.File)
	if err != nil {
		return abort
	}
	if e.Workspace != "" {
		if ws, err := filepath.Abs(e.Workspace); err == nil {
			if rel, err := filepath.Rel(ws, file); err == nil && filepath.IsLocal(rel) {
				file = filepath.ToSlash(rel)
			}
		}
	}
	out := *abort
	out.Diagnostic.File = file
	return &out
}

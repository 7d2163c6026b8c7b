package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// Batch is the phase a run whose provider has batch: true goes through before the engine
// runs (Execute calls it): it renders the request of every example the run would evaluate
// and has no result or reply for yet (engine.Inputs; a resume's stored results are left
// out), submits them through the provider's batch API, split within its limits, and
// records each batch in rec's store as soon as the provider accepted it; it polls every
// batch not yet read, at growing intervals, until each ended, and records each example's
// reply or failure. The run waits meanwhile, its batches and their states in the store
// (store.Batches). It returns the factory the engine runs with: p.Factory for any other
// run, and for a batch run one whose adapters answer from the recorded replies, so that
// the results are the synchronous run's.
//
// A run started again (a restarted server, benchy run of the same run) finds its batches
// in the store and polls them rather than submitting their requests again. A run cancelled
// by a user (ctx's cause ErrCancelled) cancels its batches at the provider; one stopped
// otherwise (opts.Stop, a shutdown) leaves them running, to be polled by its resume.
func Batch(ctx context.Context, p *Plan, opts Options, rec Record, obs Observer) (engine.Factory, error) {
	// Only a model can be batched; the adapter that says whether it is, is made only for a
	// model (a value, no process), never for a command adapter, which would start one.
	if p.IR == nil || p.IR.AISystem.Type != ir.SystemModel {
		return p.Factory, nil
	}
	a, err := p.Factory()
	if err != nil {
		return nil, err
	}
	b, ok := provider.Batching(a)
	a.Close()
	if !ok {
		return p.Factory, nil
	}
	if rec.Store == nil {
		return nil, setupAbort("provider %q: batch: true keeps its batches in the workspace's run store, and this run has none: run the benchmark inside a workspace", b.Provider())
	}
	if bu := opts.Budget; bu != nil && (bu.MaxCostUSD > 0 || bu.MaxTokens > 0) {
		return nil, setupAbort("provider %q: a budget (--max-cost, --max-tokens) cannot stop a batch, which the provider bills once it is submitted: see what the run would cost with benchy run --estimate, or set batch: false", b.Provider())
	}
	st, run := rec.Store, rec.ID
	batches, err := loadBatches(st, run)
	if err != nil {
		return nil, err
	}
	if err := submit(ctx, p, opts, rec, b, batches, func(info provider.BatchInfo) { batches = append(batches, info) }); err != nil {
		return nil, err
	}
	tell := func() {
		if obs.Batches != nil {
			obs.Batches(append([]provider.BatchInfo(nil), batches...))
		}
	}
	tell()
	if err := wait(ctx, opts, rec, b, batches, tell); err != nil {
		return nil, err
	}
	return b.Factory(st.Replies(run)), nil
}

// loadBatches reads the batches run has in st.
func loadBatches(st *store.Store, run string) ([]provider.BatchInfo, error) {
	stored, err := st.Batches(run)
	if err != nil {
		return nil, fmt.Errorf("reading the run's batches: %w", err)
	}
	out := make([]provider.BatchInfo, 0, len(stored))
	for _, s := range stored {
		info := provider.BatchInfo{ID: s.ID, Provider: s.Provider, Kind: provider.Kind(s.Kind), State: s.State, Requests: s.Requests}
		if err := json.Unmarshal(s.Detail, &info.Detail); err != nil {
			return nil, fmt.Errorf("batch %s of the run: its record is not readable: %w", s.ID, err)
		}
		out = append(out, info)
	}
	return out, nil
}

// submit sends the requests of the examples that have neither a stored result, nor a
// reply, nor a place in a batch submitted before, telling added of each batch recorded.
func submit(ctx context.Context, p *Plan, opts Options, rec Record, b *provider.Batcher, batches []provider.BatchInfo, added func(provider.BatchInfo)) error {
	st, run := rec.Store, rec.ID
	replied := map[int]bool{}
	if err := st.BatchReplied(run, func(i int) { replied[i] = true }); err != nil {
		return fmt.Errorf("reading the run's batch replies: %w", err)
	}
	var prior func(int) (engine.ExampleResult, bool)
	if opts.Prior != nil {
		prior = st.Prior(run).Get // a reader of its own: the engine's reads from the start again
	}
	b.Submitted = func(info provider.BatchInfo) error {
		if err := st.AddBatch(run, stored(info)); err != nil {
			return fmt.Errorf("recording batch %s: %w (it was submitted: cancel it at the provider if this run is not resumed)", info.ID, err)
		}
		added(info)
		return nil
	}
	defer b.Close()
	v, err := engine.Inputs(ctx, p.IR, p.BenchmarkDir, p.Paths, opts.Limit, func(i int, input map[string]any) error {
		if replied[i] || inBatch(batches, i) {
			return nil
		}
		if prior != nil {
			if _, ok := prior(i); ok {
				return nil
			}
		}
		return b.Add(ctx, i, input)
	})
	if err != nil {
		return err
	}
	// The total is known: a listing shows 0 of N while the run waits for its batches.
	if err := st.MarkRunning(run, v.Total); err != nil {
		return fmt.Errorf("recording the run's total: %w", err)
	}
	return b.Flush(ctx)
}

// inBatch says a batch asks example i.
func inBatch(batches []provider.BatchInfo, i int) bool {
	for _, b := range batches {
		if b.Detail.Has(i) {
			return true
		}
	}
	return false
}

// stored is info as the store records it.
func stored(info provider.BatchInfo) store.Batch {
	detail, _ := json.Marshal(info.Detail)
	return store.Batch{ID: info.ID, Provider: info.Provider, Kind: string(info.Kind), State: info.State, Requests: info.Requests, Detail: detail}
}

// replyChunk is how many replies are recorded in one transaction.
const replyChunk = 1000

// wait polls the batches whose replies are not recorded until every one ended and its
// replies are, or ctx ends, or opts.Stop closes.
func wait(ctx context.Context, opts Options, rec Record, b *provider.Batcher, batches []provider.BatchInfo, tell func()) error {
	st, run := rec.Store, rec.ID
	for n := 0; ; n++ {
		left := 0
		for i := range batches {
			info := &batches[i]
			if info.Detail.Stored {
				continue
			}
			if !info.Ended() {
				if err := b.Poll(ctx, info); err != nil {
					return stopped(ctx, rec, b, batches, err)
				}
			}
			if info.Ended() {
				if err := read(ctx, st, run, b, info); err != nil {
					return stopped(ctx, rec, b, batches, err)
				}
			}
			if err := st.UpdateBatch(run, info.ID, info.State, stored(*info).Detail); err != nil {
				return fmt.Errorf("recording the state of batch %s: %w", info.ID, err)
			}
			if !info.Detail.Stored {
				left++
			}
		}
		tell()
		if left == 0 {
			return nil
		}
		t := time.NewTimer(b.Config().Wait(n))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return stopped(ctx, rec, b, batches, context.Cause(ctx))
		case <-opts.Stop:
			t.Stop()
			return fmt.Errorf("stopped while waiting for the provider's batches (a resume of the run polls them): %w", engine.ErrStopped)
		}
	}
}

// read records the replies of a batch that ended.
func read(ctx context.Context, st *store.Store, run string, b *provider.Batcher, info *provider.BatchInfo) error {
	var buf []store.BatchReply
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		err := st.PutBatchReplies(run, info.ID, buf)
		buf = buf[:0]
		return err
	}
	err := b.Results(ctx, *info, func(i int, reply []byte, msg string) error {
		buf = append(buf, store.BatchReply{Index: i, Reply: reply, Error: msg})
		if len(buf) >= replyChunk {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return err
	}
	info.Detail.Stored = true
	return nil
}

// stopped is the error of a wait that ended before its batches did. A user's cancel
// cancels the batches still running at the provider (their finished requests stay
// readable by a resume); any other end leaves them running.
func stopped(ctx context.Context, rec Record, b *provider.Batcher, batches []provider.BatchInfo, err error) error {
	if !errors.Is(context.Cause(ctx), ErrCancelled) {
		return err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	for i := range batches {
		if info := &batches[i]; !info.Ended() {
			if cerr := b.Cancel(cctx, info); cerr != nil {
				err = errors.Join(err, cerr)
				continue
			}
			if serr := rec.Store.UpdateBatch(rec.ID, info.ID, info.State, stored(*info).Detail); serr != nil {
				err = errors.Join(err, serr)
			}
		}
	}
	return err
}

// setupAbort is the abort of a batch run that cannot start: no AI-system was called.
func setupAbort(format string, args ...any) *engine.Abort {
	return &engine.Abort{Diagnostic: diag.Diagnostic{Phase: engine.PhaseSetup, Code: diag.AdapterError, Path: []string{},
		Message: fmt.Sprintf(format, args...), Line: 1, Column: 1}}
}

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
// by a user (ctx's cause ErrCancelled) cancels its batches at the provider, marked so: its
// resume keeps what they answered and submits the rest again. One stopped otherwise
// (opts.Stop, a shutdown) leaves them running, to be polled by its resume. A batch not
// ended BatchConfig.Age after its submission is cancelled and failed as an expired one; a
// provider that refuses a batch's creation (a 4xx) aborts the run.
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
	tell := func() {
		if obs.Batches != nil {
			obs.Batches(append([]provider.BatchInfo(nil), batches...))
		}
	}
	// The requests that lack a reply and a live batch are submitted, the batches waited
	// for, and again, until a round submits nothing: a batch the run cancelled when its
	// user cancelled it (a resume reads it) leaves the requests it did not process to send
	// again.
	check, _ := a.(engine.InputChecker)
	for {
		n := len(batches)
		if err := submit(ctx, p, opts, rec, b, check, batches, func(info provider.BatchInfo) { batches = append(batches, info) }); err != nil {
			return nil, refused(ctx, rec, b, batches, err)
		}
		tell()
		if len(batches) == n && allStored(batches) {
			break
		}
		if err := wait(ctx, opts, rec, b, batches, tell); err != nil {
			return nil, err
		}
	}
	return b.Factory(st.Replies(run)), nil
}

// allStored says every batch's replies are in the store.
func allStored(batches []provider.BatchInfo) bool {
	for _, b := range batches {
		if !b.Detail.Stored {
			return false
		}
	}
	return true
}

// refused is the error of a submit that failed. A provider that refused a batch (a 4xx
// on its upload or its creation: a bad key, a model it does not have, a request it cannot
// take) refuses it again on a resume: the run aborts with its message, and the batches
// it accepted before are cancelled, as nobody will read them. Any other failure (a 5xx
// after the retries, no connection, a store that failed) is the run's interruption, which
// a resume tries again.
func refused(ctx context.Context, rec Record, b *provider.Batcher, batches []provider.BatchInfo, err error) error {
	var r *provider.RefusedError
	if !errors.As(err, &r) {
		return err
	}
	msg := fmt.Sprintf("provider %q refused the run's batch: %s", b.Provider(), err)
	if cerr := cancelLive(ctx, rec, b, batches, false); cerr != nil {
		msg += fmt.Sprintf(" (and cancelling the batches it accepted before failed: %s; cancel them at the provider)", cerr)
	}
	return &engine.Abort{Diagnostic: diag.Diagnostic{Phase: engine.PhaseSetup, Code: diag.ProviderError, Path: []string{},
		Message: msg, Line: 1, Column: 1}}
}

// loadBatches reads the batches run has in st.
func loadBatches(st *store.Store, run string) ([]provider.BatchInfo, error) {
	stored, err := st.Batches(run)
	if err != nil {
		return nil, fmt.Errorf("reading the run's batches: %w", err)
	}
	out := make([]provider.BatchInfo, 0, len(stored))
	for _, s := range stored {
		info := provider.BatchInfo{ID: s.ID, Provider: s.Provider, Kind: provider.Kind(s.Kind), State: s.State, Requests: s.Requests, Run: run}
		if t, err := time.Parse(time.RFC3339Nano, s.CreatedAt); err == nil {
			info.Created = t
		}
		if err := json.Unmarshal(s.Detail, &info.Detail); err != nil {
			return nil, fmt.Errorf("batch %s of the run: its record is not readable: %w", s.ID, err)
		}
		out = append(out, info)
	}
	return out, nil
}

// submit sends the requests of the examples that have neither a stored result, nor a
// reply, nor a place in a batch whose replies are still to come, telling added of each
// batch recorded. A row check refuses (engine.InputChecker: request_too_large) stops the run
// before anything is submitted, as it stops a run before its first call.
func submit(ctx context.Context, p *Plan, opts Options, rec Record, b *provider.Batcher, check engine.InputChecker, batches []provider.BatchInfo, added func(provider.BatchInfo)) error {
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
		info.Run, info.Created = run, time.Now()
		if err := st.AddBatch(run, stored(info)); err != nil {
			return fmt.Errorf("recording batch %s: %w (it was submitted: cancel it at the provider if this run is not resumed)", info.ID, err)
		}
		added(info)
		return nil
	}
	defer b.Close()
	v, err := engine.CheckedInputs(ctx, p.IR, p.BenchmarkDir, p.Paths, opts.Limit, check, func(i int, input map[string]any) error {
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

// inBatch says a batch whose replies are not read yet asks example i. One read gave each
// of its examples a reply, but for those a batch cancelled by the run did not process.
func inBatch(batches []provider.BatchInfo, i int) bool {
	for _, b := range batches {
		if !b.Detail.Stored && b.Detail.Has(i) {
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

// A batch's replies are recorded in transactions of replyChunk replies or, for large
// replies, of about replyBytes: a reply may be up to 64 MiB, and a thousand held at once
// would be gigabytes.
const (
	replyChunk = 1000
	replyBytes = 8 << 20
)

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
					return stopped(ctx, rec, b, batches, err, tell)
				}
			}
			if !info.Ended() && !info.Created.IsZero() && time.Since(info.Created) > b.Config().Age() {
				if err := overdue(ctx, st, run, b, info); err != nil {
					return stopped(ctx, rec, b, batches, err, tell)
				}
			}
			if info.Ended() && !info.Detail.Stored {
				if err := read(ctx, st, run, b, info); err != nil {
					return stopped(ctx, rec, b, batches, err, tell)
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
			return stopped(ctx, rec, b, batches, context.Cause(ctx), tell)
		case <-opts.Stop:
			t.Stop()
			return fmt.Errorf("stopped while waiting for the provider's batches (a resume of the run polls them): %w", engine.ErrStopped)
		}
	}
}

// read records the replies of a batch that ended.
func read(ctx context.Context, st *store.Store, run string, b *provider.Batcher, info *provider.BatchInfo) error {
	var buf []store.BatchReply
	size := 0
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		err := st.PutBatchReplies(run, info.ID, buf)
		clear(buf) // the replies go now, not when the slots are written again
		buf, size = buf[:0], 0
		return err
	}
	err := b.Results(ctx, *info, func(i int, reply []byte, msg string) error {
		buf = append(buf, store.BatchReply{Index: i, Reply: reply, Error: msg})
		size += len(reply) + len(msg)
		if len(buf) >= replyChunk || size >= replyBytes {
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

// overdue ends the wait for a batch that has not ended MaxAge after it was submitted (the
// APIs' window is 24 hours: the provider lost it, or never ends it): it is cancelled at
// the provider and treated as an expired batch, its unanswered requests failed as
// such. One whose cancel ends it at once gives its results; any other gets no more polls,
// each of its requests failed.
func overdue(ctx context.Context, st *store.Store, run string, b *provider.Batcher, info *provider.BatchInfo) error {
	info.Detail.Overdue = true
	if err := b.Cancel(ctx, info); err != nil && ctx.Err() != nil {
		return err
	} // a cancel the provider refuses changes nothing: the batch is given up all the same
	if info.Ended() {
		return nil // read as any ended batch, the overdue message for what it left out
	}
	var buf []store.BatchReply
	if err := b.Abandon(*info, func(i int, _ []byte, msg string) error {
		buf = append(buf, store.BatchReply{Index: i, Error: msg})
		if len(buf) >= replyChunk {
			err := st.PutBatchReplies(run, info.ID, buf)
			buf = buf[:0]
			return err
		}
		return nil
	}); err != nil {
		return err
	}
	if err := st.PutBatchReplies(run, info.ID, buf); err != nil {
		return err
	}
	info.Detail.Stored = true
	return nil
}

// stopped is the error of a wait that ended before its batches did. A user's cancel
// cancels the batches still running at the provider, marked as cancelled by the run: a
// resume keeps their finished requests and sends the others again. Any other end leaves
// them running, for a resume to poll.
func stopped(ctx context.Context, rec Record, b *provider.Batcher, batches []provider.BatchInfo, err error, tell func()) error {
	if !errors.Is(context.Cause(ctx), ErrCancelled) {
		return err
	}
	if cerr := cancelLive(ctx, rec, b, batches, true); cerr != nil {
		err = errors.Join(err, cerr)
	}
	tell()
	return err
}

// cancelLive cancels at the provider every batch of the run that has not ended, byUs
// marking each as cancelled because the run's user cancelled the run.
func cancelLive(ctx context.Context, rec Record, b *provider.Batcher, batches []provider.BatchInfo, byUs bool) error {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	var err error
	for i := range batches {
		info := &batches[i]
		if info.Ended() || info.Detail.Stored {
			continue
		}
		if cerr := b.Cancel(cctx, info); cerr != nil {
			err = errors.Join(err, cerr)
			continue
		}
		info.Detail.CancelledByUs, info.JustCancelled = byUs, byUs
		if serr := rec.Store.UpdateBatch(rec.ID, info.ID, info.State, stored(*info).Detail); serr != nil {
			err = errors.Join(err, serr)
		}
	}
	return err
}

// setupAbort is the abort of a batch run that cannot start: no AI-system was called.
func setupAbort(format string, args ...any) *engine.Abort {
	return &engine.Abort{Diagnostic: diag.Diagnostic{Phase: engine.PhaseSetup, Code: diag.AdapterError, Path: []string{},
		Message: fmt.Sprintf(format, args...), Line: 1, Column: 1}}
}

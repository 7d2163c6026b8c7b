package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// Options configure a run.
type Options struct {
	BenchmarkDir string // the benchmark file's directory: data.path is relative to it
	Paths        Paths  // where the dataset and its artifacts may be read from
	IRHash       string // recorded in the report
	// BenchmarkHash (ir.BenchmarkHash) and System, the AI-system as bound, are recorded in
	// the report as they are given.
	BenchmarkHash string
	System        *System
	Binding       string // the name of the adapter binding, recorded in the report
	// Validated is told what the validation pass found, before any AI-system is called:
	// the examples to run and the dataset's digest. An error it returns ends the run with
	// it (a resumed run whose dataset changed). Nil: nothing is told.
	Validated   func(Validated) error
	Concurrency int // workers; 0 means DefaultConcurrency
	// RecordRequests is how many examples, from the first by index, keep the request sent
	// to a model (ExampleResult.Request): 0 means DefaultRecordRequests, RecordAll every
	// example, RecordNone none. By index, so that what is kept is the same at any
	// concurrency and on a resume.
	RecordRequests int
	Limit          int // run only the first Limit examples; 0 means all
	// Shard, when set, evaluates only its examples of the (limited) run (a sharded run,
	// Shard's rule): Results, OnResult and Progress see them alone, in index order. The
	// validation pass still reads the whole dataset, and the digest is the whole file's.
	// The zero Shard is the whole run.
	Shard    Shard
	Results  io.Writer      // receives one ExampleResult per line, in index order
	Progress func(Progress) // called after each example, from one goroutine
	// Prior returns the stored result of an example a previous, interrupted run already
	// evaluated: it is reused, not evaluated again (resume). Nil: evaluate every example.
	Prior func(index int) (ExampleResult, bool)
	// OnResult receives every result in index order, from one goroutine, with reused set
	// for results that came from Prior. Nil: none.
	OnResult func(res ExampleResult, reused bool)
	// Stop, once closed, stops the run at a clean edge (a graceful shutdown): no example
	// starts, reused or evaluated, the examples already started finish and are written, and
	// Run returns an error wrapping ErrStopped, or the report if every example was done.
	// Examples start in index order, so what is written is a prefix of the dataset and a
	// resumed run evaluates exactly the rest. Cancelling ctx still drops what is in flight.
	// Nil: the run is never stopped.
	Stop <-chan struct{}
	// Budget, when set, caps what the run spends (budget.go): no example starts whose
	// request could pass it, counting what is in flight, and the run ends with a
	// *BudgetError and the report of the examples done. It needs an adapter that is an
	// Estimator. Examples start in index order, so, as with Stop, what is written is a
	// prefix and a resumed run evaluates exactly the rest.
	Budget    *Budget
	Clock     func() time.Time // for tests; time.Now by default
	estimator Estimator        // Budget's, set by Run
}

// ErrStopped is wrapped by the error of a run ended through Options.Stop before its last
// example: the results written are complete up to the point it says, and none after.
var ErrStopped = errors.New("run stopped")

// stopped reports whether stop is closed.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// DefaultConcurrency is the number of workers when Options.Concurrency is 0.
func DefaultConcurrency() int { return max(4, runtime.NumCPU()) }

// Validated is what the validation pass found.
type Validated struct {
	Total  int        // the examples that will run (the limit and the shard applied)
	All    int        // the examples of the whole run (the limit applied), of every shard
	Rows   int        // the dataset's examples
	Digest string     // the dataset digest (see DigestVersion)
	file   versionKey // the JSONL file's version as digested; zero where unknown (not Linux)
	jsonl  string     // the JSONL file's resolved path
	// artifacts are the versions of the artifacts digested, each at its resolved path
	// (nil: too many, or unknown).
	artifacts []versionAt
	racy      bool // a version was too recent to vouch for: Unchanged says false
	longest   int  // the longest row, in bytes (checkInputs)
}

// Progress is the state of a running evaluation.
type Progress struct {
	Done, Total int
	Summary     Summary
	Elapsed     time.Duration
}

// Run evaluates b against the adapters factory makes. It returns the report, or an *Abort
// when the dataset or the setup stops the run before or while it starts: then no AI-system
// was called for a dataset problem. A failed example never stops the run; Options.Stop
// does (ErrStopped), and so does cancelling ctx. A run its Options.Budget stops returns
// both the report of the examples done and a *BudgetError.
func Run(ctx context.Context, b *ir.Benchmark, factory Factory, opts Options) (*Report, error) {
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	started := clock()
	workers := opts.Concurrency
	if workers <= 0 {
		workers = DefaultConcurrency()
	}
	if err := opts.Shard.Check(); err != nil {
		return nil, err
	}
	v, err := validateDataset(ctx, b, opts.BenchmarkDir, opts.Paths, opts.Limit)
	if err != nil {
		return nil, err
	}
	v.Total = opts.Shard.Count(v.All)
	if opts.Validated != nil {
		if err := opts.Validated(v); err != nil {
			return nil, err
		}
	}
	total := v.Total
	workers = min(workers, total)
	adapters := make([]Adapter, 0, workers)
	defer closeAdapters(&adapters)
	for range workers {
		// A cancelled run starts no more adapters (each may be a process): those made are
		// closed, and the run ends now rather than after starting the rest.
		if ctx.Err() != nil {
			return nil, fmt.Errorf("run cancelled while starting the AI-system's adapters (%d of %d started): %w", len(adapters), workers, context.Cause(ctx))
		}
		if stopped(opts.Stop) {
			return nil, fmt.Errorf("run stopped after 0 of %d examples, while starting the AI-system's adapters (%d of %d started): %w", total, len(adapters), workers, ErrStopped)
		}
		ad, err := factory()
		if err != nil {
			return nil, &Abort{Diagnostic: diag.Diagnostic{Phase: PhaseSetup, Code: diag.AdapterError, Path: []string{},
				Message: fmt.Sprintf("cannot start the AI-system's adapter: %v", err), Line: 1, Column: 1}}
		}
		adapters = append(adapters, ad)
	}
	if c, ok := firstChecker(adapters); ok {
		if err := checkInputs(ctx, b, opts.BenchmarkDir, opts.Paths, v, c, opts.Shard); err != nil {
			return nil, err
		}
	}
	if opts.Budget.active() {
		// The estimates are the dispatcher's, from an adapter of their own: a worker's is
		// used by that worker alone.
		ad, err := factory()
		if err != nil {
			return nil, &Abort{Diagnostic: diag.Diagnostic{Phase: PhaseSetup, Code: diag.AdapterError, Path: []string{},
				Message: fmt.Sprintf("cannot start the AI-system's adapter: %v", err), Line: 1, Column: 1}}
		}
		adapters = append(adapters, ad) // closed with the workers'
		est, a := budgetSetup(opts.Budget, ad)
		if a == nil {
			a = checkBounds(ctx, b, opts, est)
		}
		if a != nil {
			return nil, a
		}
		opts.estimator = est
	}
	r := &runner{b: b, opts: opts, total: total, totals: NewTotals(b, v.All), digest: v.Digest, file: v.file, artifacts: v.versions(), started: started, clock: clock, outputs: outputArtifacts(opts.BenchmarkDir)}
	r.weights, r.scale = totalWeight(b)
	if err := r.execute(ctx, adapters[:workers]); err != nil {
		var be *BudgetError
		if errors.As(err, &be) {
			rep := r.report(clock(), workers)
			rep.Stopped = &Stopped{Reason: ReasonBudget, Message: be.Error(), Done: be.Index, Total: be.Total}
			return rep, err
		}
		return nil, err
	}
	return r.report(clock(), workers), nil
}

// closeAdapters closes the adapters of a run, all at once: closing one may take a grace
// period (a process given time to exit), which many closed one after another would add up.
func closeAdapters(adapters *[]Adapter) {
	var wg sync.WaitGroup
	for _, ad := range *adapters {
		wg.Go(func() { ad.Close() })
	}
	wg.Wait()
}

// validateDataset is the first pass: every row of the (limited) dataset is read and checked
// before any AI-system call, and the dataset digested as it is read (DigestVersion): the
// whole file and every artifact, whatever the limit.
// With a limit, every row is still checked (a bad row anywhere aborts), and the first
// limit are run.
func validateDataset(ctx context.Context, b *ir.Benchmark, benchDir string, paths Paths, limit int) (Validated, error) {
	d, a := openDataset(b, benchDir, paths, true)
	if a != nil {
		return Validated{}, a
	}
	defer d.Close()
	n := 0
	for d.next() != nil {
		if n++; n%1024 == 0 && ctx.Err() != nil {
			return Validated{}, fmt.Errorf("run cancelled while checking the dataset: %w", context.Cause(ctx))
		}
	}
	if d.failed != nil {
		return Validated{}, d.failed
	}
	if n == 0 {
		return Validated{}, abort(d.path, 1, diag.InvalidDatasetRecord, nil, "the dataset has no examples")
	}
	file, settled := openVersion(d.f)
	v := Validated{Total: n, All: n, Rows: n, Digest: d.digest.sum(), file: file, jsonl: d.f.Name(), artifacts: d.digest.versions(), racy: d.digest.racy || !settled, longest: d.longest}
	if limit > 0 {
		v.Total = min(n, limit)
		v.All = v.Total
	}
	return v, nil
}

// DatasetDigest validates the dataset of b as a run would and returns its digest,
// without calling any AI-system: what a leaderboard of the benchmark as it now stands
// selects runs by. A dataset a run would refuse is its *Abort.
func DatasetDigest(ctx context.Context, b *ir.Benchmark, benchDir string, paths Paths) (Validated, error) {
	return validateDataset(ctx, b, benchDir, paths, 0)
}

// totalWeight sums the weights, and says what to divide each weight by first so that the
// sum stays finite: 1 (the weights as they are) unless finite weights add up past the
// largest double (A.3 allows them), then the largest weight, which bounds the sum by the
// number of dimensions. The weighted mean is unchanged, a ratio of the same weights.
func totalWeight(b *ir.Benchmark) (total, scale float64) {
	scale, largest := 1.0, 0.0
	for _, d := range b.Scoring.Dimensions {
		total += d.Weight
		largest = max(largest, d.Weight)
	}
	if !math.IsInf(total, 0) {
		return total, scale
	}
	total = 0
	for _, d := range b.Scoring.Dimensions {
		total += d.Weight / largest
	}
	return total, largest
}

type runner struct {
	b      *ir.Benchmark
	opts   Options
	total  int
	digest string     // the dataset's, from the validation pass
	file   versionKey // the JSONL file's version the digest is of (zero: unknown)
	// artifacts are the artifact versions the digest is of (nil: not checked)
	artifacts map[versionKey]struct{}
	weights   float64 // the sum of the weights, each divided by scale
	scale     float64 // 1, unless the weights' plain sum overflows (totalWeight)
	started   time.Time
	clock     func() time.Time

	outputs resolver // for artifacts the AI-system produces
	totals  *Totals  // of the results written, in index order
}

// job is an example to evaluate and its position among the run's (its index, unless the
// run is a shard's).
type job struct {
	ex  *example
	pos int
}

type outcome struct {
	pos    int // among the run's examples: the writer's order
	result ExampleResult
	reused bool // from Options.Prior
}

// execute is the second pass: examples go to the workers, results come back in any order
// and are written in index order. A window bounds how far dispatch runs ahead of writing, so
// memory stays flat however large the dataset. Dispatch is where Options.Stop acts: the
// workers finish what they took and the writer writes it all, in order.
func (r *runner) execute(ctx context.Context, adapters []Adapter) error {
	d, a := openDataset(r.b, r.opts.BenchmarkDir, r.opts.Paths, false)
	if a != nil {
		return a
	}
	defer d.Close()
	d.expect = r.artifacts
	if a := r.changed(d, "since it was validated"); a != nil {
		return a
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	jobs := make(chan job)
	outcomes := make(chan outcome, len(adapters))
	window := make(chan struct{}, 8*len(adapters))
	var led *ledger
	var ready chan struct{} // with a budget: a worker waits for a job (budget.go's ledger)
	if r.opts.estimator != nil {
		led = newLedger(*r.opts.Budget)
		ready = make(chan struct{}, len(adapters))
	}
	var wg sync.WaitGroup
	for _, ad := range adapters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if ready != nil {
					ready <- struct{}{}
				}
				j, ok := <-jobs
				if !ok {
					return
				}
				if led == nil {
					outcomes <- outcome{j.pos, r.evaluate(ctx, ad, j.ex), false}
					continue
				}
				res := r.evaluate(WithMeter(ctx, exampleMeter{led, j.ex.index}), ad, j.ex)
				led.settle(j.ex.index, &res) // before it waits for those before it to be written
				outcomes <- outcome{j.pos, res, false}
			}
		}()
	}
	var dataErr *Abort
	var budgetErr *BudgetError
	// unbounded stops a run whose request the budget cannot bound (Estimate.Unbounded).
	var unbounded *Abort
	stop := false // dispatch ended through Options.Stop
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		for pos := 0; pos < r.total; pos++ {
			// Stop takes precedence over a free worker: once it is closed, nothing starts.
			if stop = stopped(r.opts.Stop); stop {
				return
			}
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			case <-r.opts.Stop:
				stop = true
				return
			}
			ex := d.next()
			for ex != nil && !r.opts.Shard.Has(ex.index) {
				ex = d.next() // another shard's, read to be checked, not run
			}
			if ex == nil {
				dataErr = d.failed // the file changed since it was validated
				cancel()
				return
			}
			if r.opts.Prior != nil {
				if res, ok := r.opts.Prior(ex.index); ok {
					res.Index = ex.index
					if led != nil {
						led.spend(&res)
					}
					outcomes <- outcome{pos, res, true}
					continue
				}
			}
			if led != nil {
				// A hold is taken only once a worker is free to start it: a retry waiting for
				// room must never wait for a hold that waits for its worker.
				select {
				case <-ready:
				case <-ctx.Done():
					return
				case <-r.opts.Stop:
					stop = true
					return
				}
				est, a := r.estimate(ex)
				if a != nil {
					unbounded = a
					return
				}
				ok, waited := led.reserve(ctx, r.opts.Stop, ex.index, bound(est))
				switch {
				case waited:
					stop = stopped(r.opts.Stop)
					return
				case !ok:
					spent := led.total()
					budgetErr = &BudgetError{Budget: *r.opts.Budget, Index: pos, Total: r.total, SpentTokens: spent.tokens, SpentCost: spent.usd, Need: est}
					return
				}
			}
			select {
			case jobs <- job{ex, pos}:
			case <-ctx.Done():
				return
			case <-r.opts.Stop:
				stop = true // ex was read, not started
				return
			}
		}
	}()
	go func() { wg.Wait(); close(outcomes) }()

	var w *bufio.Writer
	var enc *resultEncoder
	if r.opts.Results != nil {
		w = bufio.NewWriterSize(r.opts.Results, 256<<10)
		enc = &resultEncoder{w: w}
	}
	// Results wait here for those before them. Dispatch takes a window slot per example and
	// writing frees it, so fewer than cap(window) are ever outstanding: position modulo
	// that is a free place.
	type slot struct {
		full   bool
		res    ExampleResult
		reused bool
	}
	pending := make([]slot, cap(window))
	next := 0
	var writeErr error
	for o := range outcomes {
		pending[o.pos%len(pending)] = slot{true, o.result, o.reused}
		for {
			s := &pending[next%len(pending)]
			if !s.full {
				break
			}
			if ctx.Err() != nil {
				break // results from here on may be the cancellation's doing: none is written
			}
			res, reused := s.res, s.reused
			*s = slot{}
			r.totals.Add(&res)
			if r.opts.OnResult != nil {
				r.opts.OnResult(res, reused)
			}
			if enc != nil && writeErr == nil {
				writeErr = enc.encode(&res)
			}
			next++
			<-window
			if r.opts.Progress != nil {
				r.opts.Progress(Progress{Done: next, Total: r.total, Summary: r.totals.Summary(), Elapsed: r.clock().Sub(r.started)})
			}
		}
		// With no other result waiting, what is written goes out now, so that a run killed
		// while the AI-system thinks loses nothing it scored; a fast system's results still
		// go out in large writes.
		if w != nil && writeErr == nil && len(outcomes) == 0 && w.Buffered() > 0 {
			writeErr = w.Flush()
		}
	}
	if w != nil && writeErr == nil {
		writeErr = w.Flush()
	}
	switch {
	case dataErr != nil:
		return dataErr
	case ctx.Err() != nil && next < r.total:
		return fmt.Errorf("run cancelled after %d of %d examples: %w", next, r.total, context.Cause(ctx))
	case writeErr != nil:
		return fmt.Errorf("writing results: %w", writeErr)
	case budgetErr != nil:
		return budgetErr
	case unbounded != nil:
		return unbounded
	case stop && next < r.total:
		return fmt.Errorf("run stopped after %d of %d examples: %w", next, r.total, ErrStopped)
	}
	if a := r.changed(d, "while the run read it"); a != nil {
		return a
	}
	return nil
}

// changed is the abort of a run whose JSONL file is no longer the version the validation
// pass digested (rewritten since, or while the examples were read): the digest would not
// name the exam the system took. The artifacts are not checked again here.
func (r *runner) changed(d *dataset, when string) *Abort {
	if r.file == (versionKey{}) || fileVersion(d.f) == r.file {
		return nil
	}
	return abort(d.path, 1, diag.DatasetChanged, []string{"data", "path"},
		"the dataset file changed %s, so its digest would not name the exam the AI-system took; start the run again", when)
}

// addCost adds c to a sum that is nil before the first priced example.
func addCost(sum *float64, c float64) *float64 {
	if sum == nil {
		return &c
	}
	v := *sum + c
	return &v
}

// evaluate invokes the AI-system on one example and scores its answer (A.10–A.13).
func (r *runner) evaluate(ctx context.Context, ad Adapter, ex *example) ExampleResult {
	res := ExampleResult{Index: ex.index, Row: ex.row, Expected: ex.expected}
	if !r.opts.recordsRequest(ex.index) {
		ctx = WithoutRequest(ctx)
	}
	out, err := invoke(ctx, ad, ex)
	if a, ok := out.(*Answer); ok {
		out, res.Usage, res.Request = a.Output, a.Usage, r.request(ex.index, a.Request)
	}
	if err != nil {
		f := failureOf(err)
		res.Status = f.Status
		res.Usage, res.Request = f.Usage, r.request(ex.index, f.Request)
		res.Error = &ResultError{Code: f.Code, Message: clipMessage(f.Message)}
		if f.Status == StatusInvalidOutput {
			res.Prediction = keptPrediction(encodable(f.Prediction))
			res.Error.Path = []string{}
		}
		return res
	}
	res.Prediction = out
	got, p := check(out, r.b.Program.Output, nil, r.outputs)
	if p != nil {
		res.Status = StatusInvalidOutput
		res.Prediction = keptPrediction(encodable(out))
		res.Error = p
		if res.Error.Path == nil {
			res.Error.Path = []string{}
		}
		return res
	}
	res.Status = StatusValid
	res.FieldScores = make([]FieldScore, len(r.b.Scoring.Dimensions))
	for i, dim := range r.b.Scoring.Dimensions {
		c := 0.0
		if equal(dim.Type, leaf(got, dim.Path), leaf(ex.expected, dim.Path)) {
			c = 1
		}
		res.FieldScores[i] = FieldScore{Path: dim.Path, Score: c, Weight: dim.Weight}
	}
	s := weightedMean(res.FieldScores, r.weights, r.scale)
	res.Score, res.Contribution = &s, s
	return res
}

// DefaultRecordRequests is how many examples keep their request by default: enough to
// see what a prompt template sends, not a copy of every request of a large run.
const DefaultRecordRequests = 20

// RecordAll and RecordNone are Options.RecordRequests for every example and for none.
const (
	RecordAll  = -1
	RecordNone = -2
)

// recordsRequest reports whether example index keeps its request (Options.RecordRequests).
func (o Options) recordsRequest(index int) bool {
	switch n := o.RecordRequests; {
	case n == 0:
		return index < DefaultRecordRequests
	case n == RecordAll:
		return true
	case n < 0:
		return false
	default:
		return index < n
	}
}

// request is what example index keeps of the request sent: sent cut at MaxRequest, or
// nothing when the run does not record its request (Options.RecordRequests).
func (r *runner) request(index int, sent string) string {
	if !r.opts.recordsRequest(index) {
		return ""
	}
	return boundRequest(sent)
}

// boundRequest cuts a rendered request at MaxRequest, at a character boundary, with a
// marker saying how long it was.
func boundRequest(s string) string {
	if len(s) <= MaxRequest {
		return s
	}
	cut := MaxRequest
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… (cut: the request was %d bytes)", len(s))
}

// encodable returns an invalid prediction as it is, or as text when JSON cannot hold it (an
// in-process adapter's NaN or channel), so that one bad answer cannot stop the results stream.
func encodable(v any) any {
	if _, err := json.Marshal(v); err != nil {
		return fmt.Sprint(v)
	}
	return v
}

// leaf follows path through nested objects.
func leaf(v any, path []string) any {
	for _, k := range path {
		v = v.(map[string]any)[k]
	}
	return v
}

// report assembles the run's report.
func (r *runner) report(finished time.Time, workers int) *Report {
	return r.totals.Report(Report{
		IRHash:        r.opts.IRHash,
		BenchmarkHash: r.opts.BenchmarkHash,
		DatasetDigest: r.digest,
		AISystem:      r.b.AISystem,
		System:        r.opts.System,
		Binding:       r.opts.Binding,
		StartedAt:     r.started.UTC().Format(time.RFC3339Nano),
		FinishedAt:    finished.UTC().Format(time.RFC3339Nano),
		Concurrency:   workers,
		Limit:         r.opts.Limit,
	})
}

// invoke calls the adapter, turning a panic into an adapter error: an adapter's failure is
// an execution error, never the end of the run (A.10).
func invoke(ctx context.Context, ad Adapter, ex *example) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, ExecutionError(diag.AdapterError, "the adapter panicked: %v", r)
		}
	}()
	return ad.Invoke(ctx, ex.index, ex.input)
}

// clipMessage cuts an error message an adapter passed on (an AI-system's own error text,
// up to a reply's 64 MiB) to MaxMessage bytes, at a character's start, marked: what a
// result keeps of it, and so what a merge of a sharded run takes.
func clipMessage(m string) string {
	const mark = " … (cut)"
	if len(m) <= MaxMessage {
		return m
	}
	cut := MaxMessage - len(mark)
	for cut > 0 && !utf8.RuneStart(m[cut]) {
		cut--
	}
	return m[:cut] + mark
}

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/internal/yamlnode"
	"github.com/benchy-eval/benchy/store"
)

func runRun(e *env, args []string) int {
	// A run allocates fast and keeps little (a window of examples in flight): a larger GC
	// target trades about 15 MB of heap for a fifth of its CPU against a fast model server
	// (bench/throughput). GOGC, when set, decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	fs := flags(e, "run")
	runtimePath := fs.String("runtime", "", "the runtime file binding AI-systems to adapters (default: the nearest "+adapter.RuntimeFile+" at or above the benchmark's folder within its workspace, else the working directory's)")
	out := fs.String("o", "results.json", "where to write the result document; results stream to the same name with .jsonl while the run goes. With several systems it must hold {system}, which each run replaces by its system's label made safe for a file name (letters, digits, - _ . kept, anything else such as the / of provider/model an _), and it defaults to results-{system}.json")
	concurrency := fs.Int("concurrency", engine.DefaultConcurrency(), "examples evaluated at once")
	limit := fs.Int("limit", 0, "evaluate only the first N examples (0: all)")
	noStore := fs.Bool("no-store", false, "do not record the run in its workspace's store (.benchy/benchy.db)")
	allowOutside := fs.Bool("allow-outside", false, "read the dataset, artifacts and prompt file from anywhere, not only from inside the benchmark's workspace (never the runtime file or hidden files such as .env and .benchy/)")
	var chosen systemFlags
	chosen.define(fs)
	parallel := fs.Int("parallel-systems", 1, "with several systems, `N` of them run at once (each with --concurrency workers)")
	var g gate
	g.define(fs)
	cacheMode := fs.String("cache", "", "model AI-systems' response cache, kept in the workspace's store: `MODE` off, use (replay the replies it holds, keep those of the requests sent), refresh (send every request, keep the new replies) or only (replay without the network: a request it holds no reply to is a cache_miss execution error) (default: each provider's cache: in the runtime file, else off)")
	recordAll := fs.Bool("record-requests", false, fmt.Sprintf("keep the request sent to a model (rendered, no secret, artifacts as markers) for every example, shown with its result (default: the first %d examples; --record-requests=false: none)", engine.DefaultRecordRequests))
	var bud budgetFlags
	bud.define(fs)
	var sh shardFlags
	sh.define(fs)
	junit := fs.String("junit", "", "write a JUnit XML report to `FILE`: one testcase per example, a failure for each one not valid or scoring below 1, its fields in the message (several systems: one testsuite each)")
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), runExitCodes) }
	pos, code, ok := parse(e, fs, args, 1)
	if !ok {
		return code
	}
	if *concurrency < 1 || *limit < 0 || *parallel < 1 {
		fmt.Fprintln(e.stderr, "benchy run: --concurrency must be at least 1, --limit at least 0 and --parallel-systems at least 1")
		return ExitUsage
	}
	if *cacheMode != "" && !slices.Contains(provider.CacheModes, *cacheMode) {
		fmt.Fprintf(e.stderr, "benchy run: --cache %q: want off, use, refresh or only\n", *cacheMode)
		return ExitUsage
	}
	if msg := bud.check(len(chosen.list)); msg != "" {
		fmt.Fprintf(e.stderr, "benchy run: %s\n", msg)
		return ExitUsage
	}
	if g.ci && !g.set {
		fmt.Fprintln(e.stderr, "benchy run: --fail-under-ci needs --fail-under X: the bound the interval's upper end must reach")
		return ExitUsage
	}
	src, err := readInput(e, pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}
	benchDir := filepath.Dir(pos[0])
	ws, _ := workspace.Find(benchDir) // once: the data's bounds, -o's guards and the store
	setup := workspace.Setup{
		Dir: benchDir, Paths: runPaths(benchDir, ws, *allowOutside), NoRuntime: ", or pass --runtime FILE", Log: e.stderr,
		Runtime:   func() (*adapter.Runtime, string, error) { return workspace.RuntimeFor(*runtimePath, pos[0]) },
		CacheMode: *cacheMode, Offline: bud.estimate,
	}
	if ws != "" { // the response cache is the workspace store's, opened if a provider uses it
		cache := workspace.NewStoreCache(ws)
		defer cache.Close()
		setup.Cache = cache.Open
	}
	settings := runSettings{bench: pos[0], ws: ws, out: *out, store: !*noStore && pos[0] != "-",
		opts: store.Options{Limit: *limit, Concurrency: *concurrency, RecordRequests: recordRequests(fs, *recordAll)}, gate: g, junit: *junit}
	for _, name := range []string{"runtime", "o", "cache"} {
		if f := fs.Lookup(name); f != nil && flagGiven(fs, name) {
			spelt := "--" + name
			if len(name) == 1 {
				spelt = "-" + name
			}
			settings.again = append(settings.again, spelt, f.Value.String())
		}
	}
	if sh.given(fs) { // one shard of the run, into --out-dir (shard.go)
		return runShard(e, fs, sh, pos[0], workspace.Source{Name: displayName(pos[0]), Text: src}, setup, *concurrency, *limit, settings.opts.RecordRequests)
	}
	settings.budget = bud.budget()
	// Kept with the run, so that a resume, here or in the server, goes on within it.
	settings.opts.MaxCost, settings.opts.MaxTokens, settings.opts.Cache = bud.maxCost, bud.maxTokens, *cacheMode
	if len(chosen.list) > 0 {
		settings.outGiven = flagGiven(fs, "o")
		return runSystems(e, settings, workspace.Source{Name: displayName(pos[0]), Text: src}, setup, chosen.list, *parallel, bud, flagGiven(fs, "concurrency"))
	}
	plan, err := workspace.Prepare(workspace.Source{Name: displayName(pos[0]), Text: src}, setup)
	if err != nil {
		return prepareFailed(e, err)
	}
	if bud.estimate {
		return runEstimate(e, plan, *limit)
	}
	if bud.resume != "" {
		resumed, code := openResumed(e, &settings, plan, bud.resume, flagGiven(fs, "concurrency"))
		if resumed == nil {
			return code
		}
		settings.resumed = resumed
	}
	if code := budgetRefused(e.stderr, "", plan, settings.budget); code != ExitOK {
		return code
	}

	stream := strings.TrimSuffix(*out, ".json") + ".jsonl"
	if msg := outputClash(*out, stream, benchDir, plan.Paths.Workspace, plan.IR, readFiles(pos[0], plan.RuntimeFile, ws)); msg != "" {
		fmt.Fprintf(e.stderr, "benchy run: %s\n", msg)
		return ExitUsage
	}
	if msg := junitClash(settings, plan, []string{*out, stream}); msg != "" {
		fmt.Fprintf(e.stderr, "benchy run: %s\n", msg)
		return ExitUsage
	}
	lock, err := lockResults(*out, stream)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}
	defer lock.release()
	ctx, stop := runContext()
	defer stop()
	res := execute(ctx, e.stderr, settings, plan, *out, stream, newProgressBar(e.stderr))
	defer res.rec.close()
	defer res.rec.summary(e.stderr, res.stored)
	if res.end.Reason == engine.ReasonBudget {
		return budgetStopped(e.stderr, res, settings, *out)
	}
	if res.end.Err != nil {
		var a *engine.Abort
		if errors.As(res.end.Err, &a) {
			fmt.Fprintln(e.stderr, a.Error())
		} else {
			fmt.Fprintf(e.stderr, "benchy run: %v (the results so far are in %s)\n", res.end.Err, stream)
		}
		return ExitFail
	}
	if res.writeErr != nil {
		fmt.Fprintf(e.stderr, "benchy run: writing %s: %v\n", *out, res.writeErr)
		return ExitFail
	}
	printSummaryIn(e.stderr, res.end.Report, *out, res.elapsed)
	if h := res.health(); h.Failed {
		fmt.Fprintf(e.stderr, "failed infrastructure: %s\n", h.Sentence())
	}
	code = ExitOK
	if !g.check(e.stderr, "", res.end.Report) {
		code = ExitFail
	}
	if *junit != "" {
		if err := writeJUnit(*junit, []*junitSuite{res.junit}); err != nil {
			fmt.Fprintf(e.stderr, "benchy run: --junit %s: %v\n", *junit, err)
			code = ExitFail
		}
	}
	if why := res.unreached(); why != "" {
		fmt.Fprintf(e.stderr, "benchy run: %s\n", why)
		code = ExitInfra // over a gate it fails too: the setup, not the system, is what to fix
	}
	return code
}

// junitClash says why --junit may not be written, or "": one of the run's result files
// (results), by any path, or what -o may not be either (writeClash, readsClash: the
// benchmark, its dataset and artifacts, the runtime file and the programs its bindings run,
// the store, a hidden file).
func junitClash(r runSettings, plan *workspace.Plan, results []string) string {
	if r.junit == "" {
		return ""
	}
	for _, p := range results {
		if samePath(p, r.junit) {
			return fmt.Sprintf("--junit %s is a result file of the run (%s); name another file", r.junit, p)
		}
	}
	files := readFiles(r.bench, plan.RuntimeFile, r.ws)
	if why := writeClash("--junit", r.junit, plan.Paths.Workspace, files); why != "" {
		return why
	}
	return readsClash("--junit", r.junit, []string{r.junit}, plan.Paths.Workspace, plan.BenchmarkDir, plan.IR, files)
}

// runSettings are the choices of a `benchy run` that every system's run shares.
type runSettings struct {
	bench    string // the benchmark file as named
	ws       string // its workspace (workspace.Find), "" when in none
	out      string // -o
	outGiven bool   // -o was given, not defaulted
	store    bool   // record the runs in the workspace's store
	opts     store.Options
	gate     gate   // --fail-under
	junit    string // --junit FILE, "" for none
	budget   *engine.Budget
	resumed  *resumed // --resume: the stored run it goes on with
	// again are the flags a resume must repeat to run as this run did (--runtime, -o,
	// --cache), as the hint to resume it prints them.
	again []string
}

// lockResults locks the result files of a run, before the store and any AI-system call:
// a second run writing either file stops here.
func lockResults(out, stream string) (*outputLock, error) {
	lock, err := lockOutput(out, stream)
	if errors.Is(err, errOutputBusy) {
		err = fmt.Errorf("%s: %w; wait for it to end, or choose another -o", out, err)
	}
	return lock, err
}

// runContext is the context of a `benchy run`: Ctrl-C or SIGTERM cancels it
// (workspace.ErrCancelled, in the signal's words), and with it every run it carries.
func runContext() (context.Context, func()) {
	signals, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancelCause(context.Background())
	context.AfterFunc(signals, func() { cancel(signalled{context.Cause(signals)}) })
	return ctx, func() {
		cancel(nil)
		stop()
	}
}

// executed is how one run of `benchy run` went: its end, its record in the store (nil when
// none) with the status stored, and the error of writing its result document.
type executed struct {
	end      workspace.End
	rec      *recorder
	stored   store.Status
	writeErr error
	firstErr *engine.ResultError // the first execution error, for a run that had nothing else
	codes    errorCodes          // the execution errors by code, for its health
	junit    *junitSuite         // its testcases, with --junit
	elapsed  time.Duration       // the run's time as its user waited (a batch's wait too)
}

// health is a completed run's health: failed infrastructure when most examples were
// execution errors (the zero Health for a run that did not complete).
func (x executed) health() api.Health {
	if x.end.Report == nil {
		return api.Health{}
	}
	return x.codes.health(x.end.Report.Summary)
}

// unreached says, for a completed run whose every example was an execution error, what
// happened, by its first error: the AI-system was never reached (a model server not
// running: "cannot reach ..."), none answered in time, or it answered no example with an
// output (an adapter that answers only errors or crashes); the score of 0 measures the
// setup, not the system. "" for a run with any answer. The first error is quoted only
// when it is not the one the health line just said in full (the most frequent).
func (x executed) unreached() string {
	rep := x.end.Report
	if rep == nil || rep.Summary.Examples == 0 || rep.Summary.ExecutionErrors < rep.Summary.Examples {
		return ""
	}
	what, why := "the AI-system answered no example with an output", ""
	if e := x.firstErr; e != nil {
		if h := x.health(); !h.Failed || h.Code != string(e.Code) || h.Message != e.Message {
			// the health line said the most frequent error in full; the first only when it differs
			why = fmt.Sprintf(" (the first: %s: %s)", e.Code, clipText(e.Message, 200))
		}
		switch {
		case strings.HasPrefix(e.Message, "cannot reach "):
			what = "the AI-system was never reached"
		case e.Code == diag.Timeout:
			what = "the AI-system answered no example in time"
		}
	}
	return fmt.Sprintf("every example was an execution error: %s%s; its score measures the setup, and no leaderboard ranks it", what, why)
}

// execute runs plan into the result files out and stream and the store of its workspace,
// showing its progress on bar (nil: none). The stream is created when the first result
// arrives, after the dataset was checked, so a run that aborts leaves earlier results
// alone; the document is written once the run's end is stored.
func execute(ctx context.Context, log io.Writer, r runSettings, plan *workspace.Plan, out, stream string, bar *progressBar) executed {
	jsonl := &lazyFile{path: stream, stale: out}
	defer jsonl.Close()
	var res executed
	started := time.Now()
	if r.junit != "" {
		res.junit = &junitSuite{benchmark: displayName(r.bench), system: plan.System.Label, input: plan.IR.Program.Input, output: plan.IR.Program.Output}
	}
	var prior func(int) (engine.ExampleResult, bool)
	switch {
	case r.resumed != nil:
		res.rec, prior = r.resumed.rec, r.resumed.prior
	case r.store:
		res.rec = openRecorder(log, r.bench, r.ws, plan.Spec("", r.opts))
	}
	obs := workspace.Observer{StoreFailed: res.rec.warn, Warn: res.rec.warn, Result: func(er engine.ExampleResult, _ bool) {
		if res.firstErr == nil && er.Status == engine.StatusExecutionError && er.Error != nil {
			res.firstErr = er.Error
		}
		res.codes.add(er)
		if res.junit != nil {
			res.junit.add(er)
		}
	}}
	if bar != nil {
		obs.Progress, obs.Validated = bar.update, bar.validated
		bar.keepStderr(res.rec.stderrLog()) // on a terminal, which shows only its beginning
	}
	obs.Batches = batchLines(log, shellArgs(r.again)+" "+shellArg(r.bench))
	res.end = workspace.Execute(ctx, plan, workspace.Options{Concurrency: r.opts.Concurrency, Limit: r.opts.Limit, RecordRequests: r.opts.RecordRequests, Results: jsonl,
		Prior: prior, Budget: r.budget}, res.rec.record(), obs)
	res.elapsed = time.Since(started)
	if bar != nil {
		bar.finish()
	}
	res.stored = res.rec.end(res.end)
	// Every document of a stored run carries its id, whatever its ending: `benchy runs show`
	// and --resume find it from the document.
	runID := ""
	if res.rec != nil {
		runID = res.rec.id
	}
	if res.end.Reason == engine.ReasonBudget {
		// The examples done are written as a stopped run's stream is, and the document with
		// their report, which says why it stopped.
		res.writeErr = jsonl.ensure()
		if res.writeErr == nil {
			res.writeErr = assemble(out, stream, res.end.Report, runID)
		}
	} else if res.end.Err == nil {
		res.writeErr = assemble(out, stream, res.end.Report, runID)
	}
	return res
}

// signalled is why a run a signal stopped ends: cancelled (workspace.ErrCancelled), in the
// words of the signal ("interrupt signal received", "terminated signal received"), so that a
// supervisor's SIGTERM is not reported as a user's Ctrl-C.
type signalled struct{ cause error }

func (s signalled) Error() string        { return s.cause.Error() }
func (s signalled) Is(target error) bool { return target == workspace.ErrCancelled }

// prepareFailed prints why a benchmark cannot run: its own problems (diagnostics, an IR
// that is not valid) as they are, anything else (the runtime file, a binding that cannot
// be used) as benchy run's.
func prepareFailed(e *env, err error) int {
	var ds diag.List
	var notIR *workspace.NotIR
	if errors.As(err, &ds) || errors.As(err, &notIR) {
		fmt.Fprintln(e.stderr, err)
	} else {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
	}
	return ExitFail
}

// printSummary ends a run: the score with its interval, the counts, the worst dimensions
// (none for a benchmark that scores one: its worst is its score).
func printSummary(w io.Writer, rep *engine.Report, out string) {
	start, _ := time.Parse(time.RFC3339Nano, rep.StartedAt)
	end, _ := time.Parse(time.RFC3339Nano, rep.FinishedAt)
	fmt.Fprintf(w, "score %s over %s in %s\n", scoreText(rep, ", "+rep.Confidence.Method),
		count(rep.Summary.Examples, "example"), end.Sub(start).Round(time.Millisecond))
	fmt.Fprintf(w, "valid %d · invalid_output %d · execution_error %d\n",
		rep.Summary.Valid, rep.Summary.InvalidOutputs, rep.Summary.ExecutionErrors)
	if c := rep.Cache; c != nil {
		misses := fmt.Sprintf("%d misses", c.Misses)
		if c.Misses == 1 {
			misses = "1 miss"
		}
		fmt.Fprintf(w, "response cache: %s, %s\n", count(c.Hits, "hit"), misses)
	}
	if u := rep.Usage; u != nil && u.CostUSD != nil {
		// Printed to 4 decimals; the report keeps the unrounded sum.
		paid := ""
		if c := u.CachedCostUSD; c != nil {
			paid = fmt.Sprintf("; $%.4f of it replayed from the cache, not paid again", *c)
		}
		fmt.Fprintf(w, "cost $%.4f (%d of %s priced%s)\n", *u.CostUSD, u.PricedExamples, count(rep.Summary.Examples, "example"), paid)
	}
	if worst := worstDimensions(rep.Dimensions, 3); len(worst) > 0 && weighted(rep.Dimensions) > 1 {
		label := "worst dimensions"
		if len(worst) == 1 {
			label = "worst dimension" // of several, the others never scored
		}
		fmt.Fprintf(w, "%s: %s\n", label, strings.Join(worst, ", "))
	}
	fmt.Fprintf(w, "results: %s\n", out)
}

// scoreText is a run's score with its interval ("0.8750 (95% CI 0.5291–0.9776" then
// more, then ")"), or, for a run that failed as infrastructure, the score said to be not
// meaningful: its interval of 0–0 measures the setup and would read as a result.
func scoreText(rep *engine.Report, more string) string {
	if failedInfra(rep.Summary) {
		return fmt.Sprintf("%.4f (not meaningful: failed infrastructure)", rep.BenchmarkScore)
	}
	return fmt.Sprintf("%.4f (95%% CI %.4f–%.4f%s)", rep.BenchmarkScore, rep.Confidence.Low, rep.Confidence.High, more)
}

// weighted is how many of dims count towards the score.
func weighted(dims []engine.DimensionAccuracy) int {
	n := 0
	for _, d := range dims {
		if d.Weight != 0 {
			n++
		}
	}
	return n
}

// worstDimensions are the n scored dimensions of least accuracy, worst first, each with
// its accuracy.
func worstDimensions(dims []engine.DimensionAccuracy, n int) []string {
	var parts []string
	used := map[int]bool{}
	for len(parts) < n {
		best := -1
		for i, d := range dims {
			if d.Accuracy == nil || used[i] || d.Weight == 0 {
				continue
			}
			if best < 0 || *d.Accuracy < *dims[best].Accuracy {
				best = i
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		d := dims[best]
		parts = append(parts, fmt.Sprintf("%s %.2f", strings.Join(d.Path, "."), *d.Accuracy))
	}
	return parts
}

// readFiles are the files a run of benchmark reads besides its dataset and artifacts, which
// -o must not name: the benchmark, the runtime file, every file a binding's command in it
// runs or reads (commandFiles), the store of its workspace ws (none when ws is "").
func readFiles(benchmark, runtimeFile, ws string) []guarded {
	var files []guarded
	if benchmark != "-" {
		files = append(files, guarded{benchmark, "the benchmark " + benchmark})
	}
	files = append(files, guarded{runtimeFile, "the runtime file " + runtimeFile})
	files = append(files, commandFiles(runtimeFile)...)
	if ws != "" {
		files = append(files, storeFiles(ws)...)
	}
	return files
}

// commandFiles are the files the bindings' commands of runtimeFile name, as the server's
// uploads refuse them (workspace.CommandFiles): the programs and the files their arguments
// name, relative to the runtime file's folder. Every binding counts, not only the ones this
// run uses: a result file over ./langid-baseline breaks the next run of that system. A
// runtime file that cannot be read names none (the run that needs it refuses it itself); one
// over the bound (which the run refuses) is read in part, whose words count as a file that does not parse.
func commandFiles(runtimeFile string) []guarded {
	f, err := engine.OpenRegular(runtimeFile) // never waits on a FIFO
	if err != nil {
		return nil
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, yamlnode.MaxSize+1))
	if err != nil {
		return nil
	}
	var files []guarded
	for _, p := range workspace.CommandFiles(src, filepath.Dir(runtimeFile)) {
		files = append(files, guarded{p, fmt.Sprintf("%s, a file a binding's command in the runtime file %s runs or reads, which no output replaces", p, runtimeFile)})
	}
	return files
}

// recordRequests is --record-requests as engine.Options.RecordRequests: every example when
// given, none when given false, the default (the first engine.DefaultRecordRequests) when
// not given.
func recordRequests(fs *flag.FlagSet, all bool) int {
	switch {
	case !flagGiven(fs, "record-requests"):
		return 0
	case all:
		return engine.RecordAll
	}
	return engine.RecordNone
}

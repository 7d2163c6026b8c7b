package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// `benchy run BENCH --system ID --model PROVIDER/MODEL --system-file F.yaml`: one run of
// the benchmark per system, each of its effective IR (workspace.WithSystem), in the order
// given, then the benchmark's leaderboard. Every system is resolved and bound before any
// runs, so that a typo costs no AI-system call.

// systemTemplate is what -o must hold, with several systems, to name each one's files.
const systemTemplate = "{system}"

// systemFlags is the ordered list of the systems --system, --model and --system-file
// name, whatever their mix: the order of the runs is the order given.
type systemFlags struct{ list []systemFlag }

// systemFlag is one system flag as given.
type systemFlag struct{ flag, value string }

func (s *systemFlags) define(fs *flag.FlagSet) {
	fs.Var(systemValue{s, "system"}, "system", "run against the external AI-system `ID` of the runtime file instead of the benchmark's own (repeatable; --system, --model and --system-file mix, each one run, in the order given)")
	fs.Var(systemValue{s, "model"}, "model", "run against model MODEL of the runtime file's provider PROVIDER, as `PROVIDER/MODEL`, with the prompt and parameters of the benchmark's own model system if it has one (repeatable)")
	fs.Var(systemValue{s, "system-file"}, "system-file", "run against the AI-system of `F.yaml`, a YAML file holding one ai-system: mapping (never a hidden file or the runtime file); a prompt it names is relative to the benchmark's folder (repeatable)")
}

// systemValue is one of the three flags, appending to the shared list.
type systemValue struct {
	s    *systemFlags
	flag string
}

func (v systemValue) String() string { return "" }
func (v systemValue) Set(value string) error {
	if value == "" {
		return fmt.Errorf("an empty value names no system")
	}
	v.s.list = append(v.s.list, systemFlag{v.flag, value})
	return nil
}

// flagGiven reports whether flag name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// systemRun is one system's run: its plan and result files.
type systemRun struct {
	flag        systemFlag
	plan        *workspace.Plan
	out, stream string
	res         executed
	started     bool
}

// runSystems runs the benchmark of src against each system of chosen, parallel at once.
// Its exit code is the worst of the runs', and 4 (ExitBudget) when a budget stopped one
// and nothing worse happened. A budget (bud) is each run's own: every system must be
// able to keep it before any runs. --estimate estimates each system's requests instead;
// --resume goes on with the stored run of the one system given.
func runSystems(e *env, r runSettings, src workspace.Source, setup workspace.Setup, chosen []systemFlag, parallel int, bud budgetFlags, concurrencyGiven bool) int {
	log := &syncWriter{w: e.stderr} // the runs, their adapters and their lines share it
	setup.Log = log
	setup.Runtime = onceRuntime(setup.Runtime)
	runs, code := planSystems(e, src, setup, chosen)
	if code != ExitOK {
		return code
	}
	if bud.estimate {
		for _, run := range runs {
			code = max(code, runEstimate(e, run.plan, r.opts.Limit))
		}
		return code
	}
	if bud.resume != "" { // one system: check refuses --resume with several
		resumed, code := openResumed(e, &r, runs[0].plan, bud.resume, concurrencyGiven)
		if resumed == nil {
			return code
		}
		r.resumed = resumed
	}
	for _, run := range runs {
		prefix := ""
		if len(runs) > 1 {
			prefix = run.plan.System.Label + ": "
		}
		code = max(code, budgetRefused(e.stderr, prefix, run.plan, r.budget))
	}
	if code != ExitOK {
		return code
	}
	if code := nameResults(e, r, runs); code != ExitOK {
		return code
	}
	var results []string
	for _, run := range runs {
		results = append(results, run.out, run.stream)
	}
	if msg := junitClash(r, runs[0].plan, results); msg != "" {
		fmt.Fprintf(e.stderr, "benchy run: %s\n", msg)
		return ExitUsage
	}
	for _, run := range runs {
		lock, err := lockResults(run.out, run.stream)
		if err != nil {
			fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
			return ExitFail
		}
		defer lock.release()
	}
	ctx, stop := runContext()
	defer stop()
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallel)
	for _, run := range runs {
		slots <- struct{}{}
		if ctx.Err() != nil { // Ctrl-C: the runs not started yet never start
			<-slots
			break
		}
		run.started = true
		var bar *progressBar
		if parallel == 1 {
			bar = newProgressBar(e.stderr) // one run at a time: drawn as on its terminal, if it is one,
			bar.w = log                    // through the lock its adapters' lines take
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			run.res = execute(ctx, log, r, run.plan, run.out, run.stream, bar)
			run.res.rec.close()
			systemEnded(log, run, r)
		}()
	}
	wg.Wait()
	worst, stopped := ExitOK, false
	var suites []*junitSuite
	for _, run := range runs {
		label := run.plan.System.Label
		switch {
		case !run.started:
			fmt.Fprintf(log, "%s: not started (%v)\n", label, context.Cause(ctx))
			worst = max(worst, ExitFail)
		case run.res.end.Reason == engine.ReasonBudget && run.res.writeErr == nil:
			stopped = true
		case run.res.end.Err != nil || run.res.writeErr != nil:
			worst = max(worst, ExitFail)
		default:
			if h := run.res.health(); h.Failed {
				fmt.Fprintf(log, "%s: failed infrastructure: %s\n", label, h.Sentence())
			}
			if !r.gate.check(log, label, run.res.end.Report) {
				worst = max(worst, ExitFail)
			}
			if run.res.unreached() != "" {
				fmt.Fprintf(log, "%s: %s\n", label, run.res.unreached())
				worst = ExitInfra // 3 over 1: see runExitCodes
			}
			if run.res.junit != nil {
				suites = append(suites, run.res.junit)
			}
		}
	}
	if r.junit != "" && len(suites) > 0 {
		if err := writeJUnit(r.junit, suites); err != nil {
			fmt.Fprintf(log, "benchy run: --junit %s: %v\n", r.junit, err)
			worst = max(worst, ExitFail)
		}
	}
	if len(runs) > 1 {
		printBoard(e, r, runs)
	}
	if stopped && worst == ExitOK {
		return ExitBudget
	}
	return worst
}

// planSystems resolves and binds each chosen system, saying every one that cannot run
// before any does: an unbound id or provider (missing_binding, with the runtime file's
// suggestion and names), a system file with its diagnostics at FILE:LINE:COL, a
// --model that is not PROVIDER/MODEL. A problem every system shares (the runtime file's
// own, read once for all: onceRuntime) is said once, not once per system.
func planSystems(e *env, src workspace.Source, setup workspace.Setup, chosen []systemFlag) ([]*systemRun, int) {
	b, err := workspace.Load(src)
	if err != nil {
		return nil, prepareFailed(e, err)
	}
	_, runtimeFile, _ := setup.Runtime() // its errors are Prepare's to say, below
	worst := ExitOK
	var runs []*systemRun
	said := map[string]bool{} // what was printed
	for _, f := range chosen {
		c, err := choice(e, f, runtimeFile)
		if err == nil {
			var s workspace.Source
			if s, err = workspace.WithSystem(src.Name, b, c); err == nil {
				var plan *workspace.Plan
				if plan, err = workspace.Prepare(s, setup); err == nil {
					runs = append(runs, &systemRun{flag: f, plan: plan})
					continue
				}
			}
		}
		msg, code := systemProblem(f, err)
		worst = max(worst, code)
		if !said[msg] {
			said[msg] = true
			fmt.Fprintln(e.stderr, msg)
		}
	}
	return runs, worst
}

// systemProblem is what to print of why the system of flag f cannot run, and the exit code
// it makes: a choice that names no system (a usage error), a system file's diagnostics at
// FILE:LINE:COL, the benchmark's or the runtime file's own problems as prepareFailed says
// them.
func systemProblem(f systemFlag, err error) (string, int) {
	var bad *workspace.BadChoice
	var refused *refusedFile
	var ds diag.List
	var notIR *workspace.NotIR
	switch {
	case errors.As(err, &refused):
		return "benchy run: " + err.Error(), ExitUsage
	case errors.As(err, &bad):
		return fmt.Sprintf("benchy run: --%s %s: %v", f.flag, f.value, err), ExitUsage
	case errors.As(err, &ds), errors.As(err, &notIR):
		return err.Error(), ExitFail // the compiler's FILE:LINE:COL lines
	}
	return "benchy run: " + err.Error(), ExitFail
}

// choice is the workspace.Choice of a system flag; a system file is read as a benchmark
// file is, bounded by the compiler's size, unless it is private (privateSystemFile).
func choice(e *env, f systemFlag, runtimeFile string) (workspace.Choice, error) {
	switch f.flag {
	case "system":
		return workspace.Choice{System: f.value}, nil
	case "model":
		return workspace.Choice{Model: f.value}, nil
	}
	if why := privateSystemFile(f.value, runtimeFile); why != "" {
		return workspace.Choice{}, &refusedFile{fmt.Sprintf("--system-file %s %s", f.value, why)}
	}
	data, err := readLimited(e, f.value, yamlnode.MaxSize)
	var over *overLimit
	switch {
	case errors.As(err, &over):
		return workspace.Choice{}, tooLarge(f.value, yamlnode.TooLarge(over.size, yamlnode.MaxSize, "system file"))
	case err != nil:
		return workspace.Choice{}, fmt.Errorf("--system-file %s: %w", f.value, err)
	}
	return workspace.Choice{YAML: append([]byte{}, data...), File: displayName(f.value)}, nil
}

// onceRuntime reads the runtime file once for every system bound through it.
func onceRuntime(read func() (*adapter.Runtime, string, error)) func() (*adapter.Runtime, string, error) {
	var once sync.Once
	var rt *adapter.Runtime
	var name string
	var err error
	return func() (*adapter.Runtime, string, error) {
		once.Do(func() { rt, name, err = read() })
		return rt, name, err
	}
}

// nameResults gives each run its result files: -o as given for one system; for several,
// -o with {system} replaced by each label in a file-name-safe form (results-{system}.json
// when -o is not given), refused without it. Each name passes -o's guards, and no two runs
// write one file.
func nameResults(e *env, r runSettings, runs []*systemRun) int {
	out := r.out
	if len(runs) > 1 && !r.outGiven {
		out = "results-" + systemTemplate + ".json"
	}
	if len(runs) > 1 && !strings.Contains(out, systemTemplate) {
		fmt.Fprintf(e.stderr, "benchy run: -o %s names one file, but %d systems run: put %s in it (-o results-%s.json), which each run replaces by its system's label\n",
			out, len(runs), systemTemplate, systemTemplate)
		return ExitUsage
	}
	writer := map[string]*systemRun{}
	for _, run := range runs {
		run.out = strings.ReplaceAll(out, systemTemplate, safeLabel(run.plan.System.Label))
		run.stream = strings.TrimSuffix(run.out, ".json") + ".jsonl"
		for _, name := range []string{run.out, run.stream} {
			if other, ok := writer[name]; ok {
				fmt.Fprintf(e.stderr, "benchy run: --%s %s and --%s %s would both write %s; give each system once, or name their files apart\n",
					other.flag.flag, other.flag.value, run.flag.flag, run.flag.value, name)
				return ExitUsage
			}
			writer[name] = run
		}
		p := run.plan
		if msg := outputClash(run.out, run.stream, p.BenchmarkDir, p.Paths.Workspace, p.IR, readFiles(r.bench, p.RuntimeFile, r.ws)); msg != "" {
			fmt.Fprintf(e.stderr, "benchy run: %s\n", msg)
			return ExitUsage
		}
	}
	return ExitOK
}

// safeLabel is a system's label as a part of a file name: letters, digits, '-', '_' and
// '.' kept, anything else (the '/' of provider/model, spaces, separators) an '_', no
// leading '.', at most 64 bytes.
func safeLabel(label string) string {
	b := []byte(label)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if len(b) == 0 || b[0] == '.' {
		b = append([]byte{'_'}, b...)
	}
	return string(b)
}

// systemEnded is the line of a system's run as it ends: its label, score and counts, its
// run and result file; or how it ended otherwise, after the abort's own lines; for a run
// its budget stopped, why and the command that resumes it.
func systemEnded(w io.Writer, run *systemRun, r runSettings) {
	res, label := run.res, run.plan.System.Label
	id := ""
	if res.rec != nil {
		id = " · run " + res.rec.id
	}
	var a *engine.Abort
	var be *engine.BudgetError
	switch {
	case errors.As(res.end.Err, &be) && res.writeErr == nil:
		rep := res.end.Report
		fmt.Fprintf(w, "%s: stopped by its budget · valid %d · invalid_output %d · execution_error %d%s · %s\n",
			label, rep.Summary.Valid, rep.Summary.InvalidOutputs, rep.Summary.ExecutionErrors, id, run.out)
		for _, l := range budgetHint(be, res, systemAgain(r.again, run), r.bench) {
			fmt.Fprintf(w, "%s: %s\n", label, l)
		}
	case errors.As(res.end.Err, &a):
		fmt.Fprintf(w, "%s\n%s: aborted%s\n", a.Error(), label, id)
	case res.end.Err != nil:
		fmt.Fprintf(w, "%s: %s: %v (the results so far are in %s)%s\n", label, res.end.Status, res.end.Err, run.stream, id)
	case res.writeErr != nil:
		fmt.Fprintf(w, "%s: writing %s: %v%s\n", label, run.out, res.writeErr, id)
	default:
		rep := res.end.Report
		fmt.Fprintf(w, "%s: score %s · valid %d · invalid_output %d · execution_error %d%s · %s\n",
			label, scoreText(rep, ""), rep.Summary.Valid, rep.Summary.InvalidOutputs, rep.Summary.ExecutionErrors, id, run.out)
	}
}

// syncWriter serialises the writes of runs going at once (their lines, their adapters'
// logs, which each lock only per binding).
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// systemAgain are the flags that resume run, one of several systems' runs: those the
// invocation was given that a resume repeats (again), its own system flag, and -o naming
// the document it wrote.
func systemAgain(again []string, run *systemRun) []string {
	var args []string
	for i := 0; i+1 < len(again); i += 2 {
		if again[i] != "-o" {
			args = append(args, again[i], again[i+1])
		}
	}
	return append(args, "--"+run.flag.flag, run.flag.value, "-o", run.out)
}

package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// ExitBudget is a run its budget (--max-cost, --max-tokens) stopped before its last
// example: the results it has are written, and the run is stored cancelled with reason
// budget, to be resumed with a larger budget (--resume).
const ExitBudget = 4

// budgetFlags are benchy run's budget, resume and estimate flags.
type budgetFlags struct {
	maxCost   float64
	maxTokens int
	estimate  bool
	resume    string
}

func (b *budgetFlags) define(fs *flag.FlagSet) {
	fs.Float64Var(&b.maxCost, "max-cost", 0, "stop starting requests to a model, retries included, before its cost at the runtime file's prices could pass `USD` (counting those in flight; replies from the response cache are free); the run ends cancelled with reason budget and exits 4, its results written. With several systems, each system's run has this budget of its own")
	fs.IntVar(&b.maxTokens, "max-tokens", 0, "stop starting requests to a model before their input and output tokens could pass `N` (counting those in flight); as --max-cost")
	fs.BoolVar(&b.estimate, "estimate", false, "render every request the run would send, send none, and print the requests, the expected input tokens, the output-token bound and the cost range; no run is stored")
	fs.StringVar(&b.resume, "resume", "", "go on with the stored run `ID` (cancelled or interrupted, of this benchmark and system: the benchmark's own, or the one --system, --model or --system-file given), reusing its results: only the examples it lacks are evaluated; with a larger --max-cost or --max-tokens after its budget stopped it")
}

// check says what is wrong with the flags for a run of systems systems (0: the
// benchmark's own), or "". A budget, an estimate and a resume take any system: with
// several, the budget is each system's run's (each is a run of its own, stored and
// resumed apart), and --resume goes on with one of them.
func (b *budgetFlags) check(systems int) string {
	switch {
	case b.maxCost < 0 || math.IsNaN(b.maxCost) || math.IsInf(b.maxCost, 0) || b.maxTokens < 0:
		return "--max-cost and --max-tokens must be positive"
	case systems > 1 && b.resume != "":
		return "--resume goes on with one stored run: give it the one --system, --model or --system-file the run was of, not several"
	case b.estimate && (b.resume != "" || b.maxCost > 0 || b.maxTokens > 0):
		return "--estimate sends nothing: it takes no --resume, --max-cost or --max-tokens"
	}
	return ""
}

// budget is the run's engine.Budget, nil without one.
func (b *budgetFlags) budget() *engine.Budget {
	if b.maxCost == 0 && b.maxTokens == 0 {
		return nil
	}
	return &engine.Budget{MaxCostUSD: b.maxCost, MaxTokens: b.maxTokens}
}

// resumed is a stored run benchy run goes on with: its record, and its results to reuse.
type resumed struct {
	rec   *recorder
	prior func(int) (engine.ExampleResult, bool)
}

// openResumed finds run id in the store of the plan's workspace and checks that it can go
// on with plan: cancelled or interrupted, of the same benchmark IR and the same AI-system.
// The run keeps its limit and what it records (its stored options), its concurrency unless
// --concurrency is given. Nil, with the exit code, when it cannot.
func openResumed(e *env, r *runSettings, plan *workspace.Plan, id string, concurrencyGiven bool) (*resumed, int) {
	fail := func(format string, args ...any) (*resumed, int) {
		fmt.Fprintf(e.stderr, "benchy run: --resume %s: %s\n", id, fmt.Sprintf(format, args...))
		return nil, ExitFail
	}
	if r.ws == "" || !r.store {
		return fail("the benchmark is in no workspace whose store keeps runs (or --no-store is given)")
	}
	st, err := store.Open(storePath(r.ws))
	if err != nil {
		return fail("%v", err)
	}
	run, err := findResumable(st, id)
	if err == nil && run.IRHash != plan.IRHash {
		err = resumeMismatch(run, plan)
	}
	if err == nil && run.System != nil && run.System.Hash != plan.System.Hash {
		err = fmt.Errorf("run %s is of another AI-system (%s) than this one (%s): start a new run", run.ID, run.System.Label, plan.System.Label)
	}
	if err != nil {
		st.Close()
		return fail("%v", err)
	}
	conc := r.opts.Concurrency
	// The budget is the run's: the stored one, raised by the flags (never lowered, as the
	// server's resume; store.Options.Resumed), and kept so that a later resume knows it.
	var cost float64
	var tokens int
	if r.budget != nil {
		cost, tokens = r.budget.MaxCostUSD, r.budget.MaxTokens
	}
	opts, err := run.Options.Resumed(cost, tokens)
	if err == nil && opts != run.Options {
		err = st.SetOptions(run.ID, opts)
	}
	if err != nil {
		st.Close()
		return fail("%v", err)
	}
	r.opts = opts
	r.budget = nil
	if opts.MaxCost > 0 || opts.MaxTokens > 0 {
		r.budget = &engine.Budget{MaxCostUSD: opts.MaxCost, MaxTokens: opts.MaxTokens}
	}
	if concurrencyGiven || r.opts.Concurrency == 0 {
		r.opts.Concurrency = conc
	}
	p := st.Prior(run.ID)
	return &resumed{rec: &recorder{log: e.stderr, st: st, db: storePath(r.ws), id: run.ID}, prior: p.Get}, ExitOK
}

// findResumable is the stored run id names (any unique start or end of it), when it is
// cancelled or interrupted. A run still queued or running whose owner is gone (a benchy
// run killed with -9: its process no longer on this host, or its heartbeat stopped) is
// marked interrupted first (store.Settle, the check benchy serve makes at its start), so
// that it resumes; one a live process executes is named with that process.
func findResumable(st *store.Store, id string) (store.Run, error) {
	full, err := st.FindRun(id)
	if err != nil {
		return store.Run{}, err
	}
	if _, err := st.Settle(full); err != nil {
		return store.Run{}, err
	}
	run, err := st.GetRun(full)
	if err != nil {
		return store.Run{}, err
	}
	if run.Status == store.Queued || run.Status == store.Running {
		who := "another process"
		if o, ok, err := st.Owner(full); err == nil && ok {
			who = o.String()
		}
		return store.Run{}, fmt.Errorf("run %s is %s: %s executes it (benchy runs show %s says how far it is); resume it once it ends, or stop that process (a run cancelled or interrupted can be resumed)", run.ID, run.Status, who, run.ID)
	}
	if run.Status != store.Cancelled && run.Status != store.Interrupted {
		return store.Run{}, fmt.Errorf("run %s is %s: only a cancelled or interrupted run can be resumed", run.ID, run.Status)
	}
	return run, nil
}

// ensure creates the stream if no result was written to it: a run its budget stopped
// before its first example still has a (empty) stream and a document.
func (l *lazyFile) ensure() error {
	if l.f != nil {
		return nil
	}
	_, err := l.Write(nil)
	return err
}

// budgetStopped ends a run its budget stopped: its summary so far, why it stopped and
// how to go on, exit 4.
func budgetStopped(w io.Writer, res executed, r runSettings, out string) int {
	if res.writeErr != nil {
		fmt.Fprintf(w, "benchy run: writing %s: %v\n", out, res.writeErr)
		return ExitFail
	}
	printSummaryIn(w, res.end.Report, out, res.elapsed)
	var be *engine.BudgetError
	if !errors.As(res.end.Err, &be) {
		fmt.Fprintf(w, "stopped: %v\n", res.end.Err)
		return ExitBudget
	}
	for _, l := range budgetHint(be, res, r.again, r.bench) {
		fmt.Fprintln(w, l)
	}
	return ExitBudget
}

// budgetHint is what a run its budget stopped says of it (nextBudget's lines) and how to
// go on: the command that resumes it with a larger budget, repeating args (the flags it
// was given that a resume must repeat), or, for a run not stored, the budget to run it
// again with.
func budgetHint(be *engine.BudgetError, res executed, args []string, bench string) []string {
	larger, lines := nextBudget(be)
	if res.rec != nil && res.stored != "" {
		return append(lines, fmt.Sprintf("resume with a larger budget: %s run --resume %s%s%s %s", shellArg(invokedAs()), res.rec.id, larger, shellArgs(args), shellArg(bench)))
	}
	return append(lines, "the run is not stored: run it again with a larger budget"+larger)
}

// nextBudget is the flags of a budget that admits the next request with room (twice the
// budget, or what was spent and twice the next request's bound, whichever is larger,
// rounded up to two significant digits), and the lines that say why the run stopped: the
// budget, what was spent, what the next request may cost at most, and, when that alone
// passes the whole budget, that its replies need a lower bound.
func nextBudget(be *engine.BudgetError) (flags string, lines []string) {
	var limits, spent, next []string
	alone := false
	nextTokens := be.Need.InputTokens + be.Need.OutputTokens
	if c := be.Budget.MaxCostUSD; c > 0 {
		limits = append(limits, "$"+strconv.FormatFloat(c, 'f', -1, 64))
		spent = append(spent, dollars(be.SpentCost))
		need := 0.0
		if be.Need.MaxCostUSD != nil {
			need = *be.Need.MaxCostUSD
			next = append(next, dollars(need))
		}
		alone = alone || need > c
		flags += " --max-cost " + strconv.FormatFloat(readable(max(2*c, be.SpentCost+2*need)), 'f', -1, 64)
	}
	if n := be.Budget.MaxTokens; n > 0 {
		limits = append(limits, strconv.Itoa(n)+" tokens")
		spent = append(spent, strconv.Itoa(be.SpentTokens)+" tokens")
		alone = alone || nextTokens > n
		flags += " --max-tokens " + strconv.FormatFloat(readable(float64(max(2*n, be.SpentTokens+2*nextTokens))), 'f', -1, 64)
	}
	next = append(next, fmt.Sprintf("%d tokens (%d input, %d output at most)", nextTokens, be.Need.InputTokens, be.Need.OutputTokens))
	lines = append(lines,
		fmt.Sprintf("stopped: the budget of %s would be exceeded by the next request; %d of %d examples done", strings.Join(limits, " and "), be.Index, be.Total),
		fmt.Sprintf("spent %s; the next request may cost up to %s", strings.Join(spent, " and "), strings.Join(next, ", ")))
	switch {
	case alone && be.Need.OutputTokens >= be.Need.InputTokens:
		lines = append(lines, fmt.Sprintf("the next request alone may cost more than the whole budget: give a budget of at least that, or bound each reply lower: set max_tokens (max_completion_tokens for OpenAI) below %d in ai-system.parameters", be.Need.OutputTokens))
	case alone:
		lines = append(lines, "the next request alone may cost more than the whole budget, mostly its input: give a budget of at least that")
	}
	return flags, lines
}

// dollars is amount x as a budget stop says it: to 4 decimals, or to 3 significant digits
// under a cent, so that what was spent and what the next request may cost never round to
// amounts that seem to fit the budget ($0.0001 and $0.0002 for a budget of $0.0003).
func dollars(x float64) string {
	if x <= 0 || x >= 0.01 || math.IsInf(x, 0) || math.IsNaN(x) {
		return fmt.Sprintf("$%.4f", x)
	}
	text := strconv.FormatFloat(x, 'f', 2-int(math.Floor(math.Log10(x))), 64)
	for len(text) > len("0.0000") && strings.HasSuffix(text, "0") {
		text = text[:len(text)-1] // $0.0025, not $0.00250
	}
	return "$" + text
}

// readable is x rounded up to two significant digits (0.0053 stays, 0.00531 is 0.0054,
// 16543 is 17000): a budget to type.
func readable(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	step := math.Pow(10, math.Floor(math.Log10(x))-1)
	r := math.Ceil(x/step-1e-9) * step
	v, _ := strconv.ParseFloat(strconv.FormatFloat(r, 'g', 2, 64), 64)
	if v < x {
		v, _ = strconv.ParseFloat(strconv.FormatFloat(r+step, 'g', 2, 64), 64)
	}
	return v
}

// invokedAs is the program as the user invoked it, for a command to type again: os.Args[0]
// when it names a path (bin/benchy), else benchy, found on the PATH (and benchy, too, when
// the program is a Go test's binary, not benchy).
func invokedAs() string {
	p := os.Args[0]
	if strings.Contains(p, "/") && !strings.HasSuffix(p, ".test") {
		return p
	}
	return "benchy"
}

// shellArgs are args as a shell reads them back, each after a space.
func shellArgs(args []string) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(" " + shellArg(a))
	}
	return b.String()
}

// shellArg is a quoted for a POSIX shell when it holds anything but plain characters.
func shellArg(a string) string {
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r)) {
			return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	if a == "" {
		return "''"
	}
	return a
}

// budgetRefused says, before the run is recorded, why the plan's AI-system cannot keep
// budget b (engine.CheckBudget: an adapter that cannot estimate, a cost budget for a model
// with no prices, replies with no output bound), printing it after prefix (a system's
// label, with several), or ExitOK: so that a run refused is not left in the store as an
// aborted one.
func budgetRefused(w io.Writer, prefix string, plan *workspace.Plan, b *engine.Budget) int {
	if b == nil || plan.Factory == nil {
		return ExitOK
	}
	ad, err := plan.Factory()
	if err != nil {
		fmt.Fprintf(w, "%sbenchy run: cannot start the AI-system's adapter: %v\n", prefix, err)
		return ExitFail
	}
	defer ad.Close()
	if a := engine.CheckBudget(b, ad); a != nil {
		fmt.Fprintln(w, prefix+a.Error())
		return ExitFail
	}
	return ExitOK
}

// resumeMismatch says why run, of another IR than plan's, cannot go on with plan: it ran
// another AI-system on the same benchmark (name the system flag it ran with: a run of
// --model P/M is resumed with --model P/M), or the benchmark changed since.
func resumeMismatch(run store.Run, plan *workspace.Plan) error {
	if run.BenchmarkHash == plan.BenchmarkHash && run.System != nil {
		how := "the --system, --model or --system-file it ran with"
		var def ir.AISystem
		if json.Unmarshal(run.AISystem, &def) == nil {
			switch def.Type {
			case ir.SystemModel:
				how = "--model " + shellArg(def.Provider+"/"+def.Model) + " (or the --system-file it ran with)"
			case ir.SystemExternal:
				how = "--system " + shellArg(def.ID)
			}
		}
		return fmt.Errorf("run %s was of the AI-system %s, not %s: resume it with %s", run.ID, run.System.Label, plan.System.Label, how)
	}
	return fmt.Errorf("run %s is of another version of the benchmark (IR %s, this one %s): the benchmark changed since; start a new run", run.ID, run.IRHash, plan.IRHash)
}

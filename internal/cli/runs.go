package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compare"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// runsCommands are the subcommands of `benchy runs`, which read the store `benchy run` and
// `benchy serve` write.
var runsCommands []command

func init() {
	runsCommands = []command{
		{"list", "[--workspace DIR] [--benchmark PATH] [--ir-hash H] [--limit N]", "list the stored runs, newest first", runsList},
		{"show", "[--workspace DIR] [--ir] [--example N] ID", "print a stored run's fields and summary, or one of its examples with the request it sent, as JSON", runsShow},
		{"export", "[--workspace DIR] [--format json|jsonl|csv] [-o FILE] [--status S] [--imperfect] [--wrong DIM] [--code CODE] [--q TEXT] [--field DIM --expected V --predicted V] [--score-min MIN] [--score-max MAX] [--sort index|score] ID", "write a stored run's results, each with its input and expected output, those the filter flags select: the result document (json), one result a line (jsonl) or a table (csv)", runsExport},
		{"compare", "[--workspace DIR] [--json] [--max-regression D] {A B | --baseline A B}", "compare two completed runs of one benchmark and dataset, whatever their systems (B minus A; --max-regression D fails on a significant drop of more than D)", runsCompare},
	}
}

func runRuns(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "benchy runs: expects a subcommand: list, show, export or compare")
		runsUsage(e.stderr)
		return ExitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		runsUsage(e.stdout)
		return ExitOK
	}
	for _, c := range runsCommands {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "benchy runs: unknown subcommand %q\n", args[0])
	runsUsage(e.stderr)
	return ExitUsage
}

func runsUsage(w io.Writer) {
	for i, c := range runsCommands {
		lead := "Usage:"
		if i > 0 {
			lead = "      "
		}
		fmt.Fprintf(w, "%s benchy runs %s %s\n", lead, c.name, c.args)
	}
	fmt.Fprintln(w, "\nList, show, export and compare the runs stored in a workspace's "+store.Dir+"/"+store.File+".\n\nSubcommands:")
	for _, c := range runsCommands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nThe workspace is --workspace DIR; or else, for runs list --benchmark PATH, the workspace of")
	fmt.Fprintln(w, "that file, where benchy run stored its runs; or else the nearest directory from the working")
	fmt.Fprintln(w, "directory up that has a "+store.Dir+" directory or a "+adapter.RuntimeFile+".")
	fmt.Fprintln(w, "A run ID may be shortened to any start or end of it of six characters or more that no other run has.")
}

// runsFlags builds a subcommand's flag set, with the --workspace flag every one has.
func runsFlags(e *env, name string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("runs "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	for _, c := range runsCommands {
		if c.name == name {
			fs.Usage = func() {
				w := fs.Output()
				fmt.Fprintf(w, "Usage: benchy runs %s %s\n\n%s.\n\nFlags:\n", c.name, c.args, upperFirst(c.summary))
				fs.PrintDefaults()
			}
		}
	}
	help := "the workspace whose runs to read (default: the nearest one from the working directory up)"
	if name == "list" { // the only one with --benchmark
		help = "the workspace whose runs to read (default: with --benchmark, that file's; else the nearest one from the working directory up)"
	}
	ws := fs.String("workspace", "", help)
	return fs, ws
}

// openRuns opens the store of the workspace named, or else of the nearest one from the
// working directory up, or else (for runs list) of the benchmark file given: its runs are
// where `benchy run` recorded them, the store of workspace.Find of its folder. When none is
// found it says where it looked and which flag names one. A workspace without a store has no
// runs: it returns a nil store, and the store is not created.
func openRuns(e *env, cmd, named string) (st *store.Store, ws string, code int) {
	return openRunsOf(e, cmd, named, "")
}

// openRunsOf is openRuns that, without --workspace, reads the runs of the workspace of the
// benchmark file given (runs list --benchmark), if it is in one.
func openRunsOf(e *env, cmd, named, benchmark string) (st *store.Store, ws string, code int) {
	ws = named
	if ws == "" {
		var looked string
		ws, looked = findRuns(benchmark)
		if ws == "" {
			hint := "pass --workspace DIR"
			if cmd == "runs list" && benchmark == "" {
				hint += ", or --benchmark PATH for the workspace of that benchmark file"
			}
			fmt.Fprintf(e.stderr, "benchy %s: not in a workspace: no folder %s has a %s directory or a %s; %s\n",
				cmd, looked, store.Dir, adapter.RuntimeFile, hint)
			return nil, "", ExitFail
		}
	} else if info, err := os.Stat(ws); err != nil || !info.IsDir() {
		fmt.Fprintf(e.stderr, "benchy %s: --workspace %s is not a directory\n", cmd, ws)
		return nil, "", ExitFail
	}
	db := storePath(ws)
	if _, err := os.Stat(db); errors.Is(err, os.ErrNotExist) {
		return nil, ws, ExitOK
	}
	st, err := store.Open(db)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy %s: %v\n", cmd, err)
		return nil, ws, ExitFail
	}
	return st, ws, ExitOK
}

// findRuns is the workspace whose runs a command without --workspace reads: that of the
// benchmark file given, where `benchy run` of it stored its runs, or else the nearest from
// the working directory up; "" when there is none, with where it looked ("the working
// directory" when even that is unknown).
func findRuns(benchmark string) (ws, looked string) {
	looked = "from the working directory up"
	wd, err := os.Getwd()
	if err == nil {
		looked = "from " + wd + " up"
	}
	if benchmark != "" {
		if info, err := os.Stat(benchmark); err == nil && !info.IsDir() {
			dir := filepath.Dir(benchmark)
			if ws, ok := workspace.Find(dir); ok {
				return ws, ""
			}
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
			if wd != "" && dir != wd {
				looked = "from " + dir + " up (the benchmark's folder) or " + looked
			}
		}
	}
	if wd != "" {
		if ws, ok := workspace.Find(wd); ok {
			return ws, ""
		}
	}
	return "", looked
}

func runsList(e *env, args []string) int {
	fs, wsFlag := runsFlags(e, "list")
	benchmark := fs.String("benchmark", "", "only runs of this benchmark file (relative to the working directory or the workspace); without --workspace, the runs of its workspace")
	hash := fs.String("ir-hash", "", "only runs of this IR hash (sha256:<hex>, or the hex alone)")
	limit := fs.Int("limit", 20, "list at most N runs")
	if _, code, ok := parse(e, fs, args, 0); !ok {
		return code
	}
	if *limit < 1 {
		fmt.Fprintln(e.stderr, "benchy runs list: --limit must be at least 1")
		return ExitUsage
	}
	if *benchmark != "" && *wsFlag == "" && !isFile(*benchmark) {
		if ws, _ := findRuns(""); ws == "" { // else benchmarkOf says it, or finds it in ws
			fmt.Fprintf(e.stderr, "benchy runs list: --benchmark %s: no such file\n", *benchmark)
			return ExitFail
		}
	}
	st, ws, code := openRunsOf(e, "runs list", *wsFlag, *benchmark)
	if code == ExitOK && *benchmark != "" {
		code = benchmarkOf(e, ws, *wsFlag, *benchmark)
	}
	if st == nil || code != ExitOK {
		if st != nil {
			st.Close()
		} else if code == ExitOK {
			fmt.Fprintf(e.stderr, "no runs stored in %s yet\n", ws)
		}
		return code
	}
	defer st.Close()
	f := store.Filter{Benchmark: benchmarkKey(ws, *benchmark), IRHash: *hash}
	if f.IRHash != "" && !strings.HasPrefix(f.IRHash, "sha256:") {
		f.IRHash = "sha256:" + f.IRHash
	}
	runs, err := st.ListRuns(f, *limit)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy runs list: %v\n", err)
		return ExitFail
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tBENCHMARK\tSCORE\tEXAMPLES\tSTARTED\tSYSTEM")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, status(r), r.Benchmark, score(r), examples(r), started(r), systemLabel(r))
	}
	tw.Flush()
	return ExitOK
}

// benchmarkOf checks runs list's --benchmark path against workspace ws (named by flag
// wsFlag, or found): a file that is neither there from the working directory nor in ws is
// "no such file", and one outside ws that ws has no file at is said to be outside, not
// answered with an empty table (benchy run stores a benchmark's runs in its own workspace).
func benchmarkOf(e *env, ws, wsFlag, path string) int {
	if isFile(inWorkspace(ws, path)) {
		return ExitOK
	}
	if !isFile(path) {
		fmt.Fprintf(e.stderr, "benchy runs list: --benchmark %s: no such file\n", path)
		return ExitFail
	}
	if _, ok := inside(ws, path); ok {
		return ExitOK
	}
	if wsFlag != "" {
		fmt.Fprintf(e.stderr, "benchy runs list: --benchmark %s is not in --workspace %s; without --workspace, runs list reads the runs of the benchmark's own workspace\n", path, wsFlag)
	} else {
		fmt.Fprintf(e.stderr, "benchy runs list: --benchmark %s is not in the workspace %s; pass --workspace DIR\n", path, ws)
	}
	return ExitFail
}

// isFile tells whether path names a file (not a folder).
func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// inWorkspace is path taken as relative to workspace ws, as --benchmark may be; "" for an
// absolute path, which is not.
func inWorkspace(ws, path string) string {
	if filepath.IsAbs(path) {
		return ""
	}
	return filepath.Join(ws, path)
}

// benchmarkKey turns a --benchmark path into the workspace-relative path runs are stored
// under: a file named from the working directory counts where it lies; any other path is
// taken as already relative to the workspace.
func benchmarkKey(ws, path string) string {
	if path == "" {
		return ""
	}
	if info, err := os.Stat(path); err == nil && !info.IsDir() {
		abs, err1 := filepath.Abs(path)
		if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			abs = filepath.Join(real, filepath.Base(abs)) // as workspace.Find found ws
		}
		wsAbs, err2 := filepath.Abs(ws)
		if rel, err := filepath.Rel(wsAbs, abs); err1 == nil && err2 == nil && err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(path)), "./")
}

// status is a run's status as runs list shows it: a completed run whose health failed
// says so, its score measuring the setup, not the system.
func status(r store.Run) string {
	if r.Status == store.Completed && r.Summary != nil && failedInfra(*r.Summary) {
		return string(r.Status) + " (failed infrastructure)"
	}
	return string(r.Status)
}

// score is a completed run's benchmark score, from its report.
func score(r store.Run) string {
	var rep struct {
		Score *float64 `json:"benchmark_score"`
	}
	if len(r.Report) == 0 || json.Unmarshal(r.Report, &rep) != nil || rep.Score == nil {
		return "-"
	}
	return fmt.Sprintf("%.4f", *rep.Score)
}

// examples is a completed run's count, or how far an unfinished one got.
func examples(r store.Run) string {
	if r.Status == store.Completed && r.Summary != nil {
		return fmt.Sprint(r.Summary.Examples)
	}
	return fmt.Sprintf("%d/%d", r.Done, r.Total)
}

// systemLabel is the AI-system a run took, as leaderboards name it.
func systemLabel(r store.Run) string {
	if r.System == nil || r.System.Label == "" {
		return "-"
	}
	return r.System.Label
}

func started(r store.Run) string {
	t := r.CreatedAt
	if r.StartedAt != nil {
		t = *r.StartedAt
	}
	return t.Local().Format("2006-01-02 15:04")
}

func runsShow(e *env, args []string) int {
	fs, wsFlag := runsFlags(e, "show")
	withIR := fs.Bool("ir", false, "include the run's canonical IR")
	example := fs.Int("example", -1, "show example `N` of the run instead: its input, expected output, prediction, field scores, error, usage and, when recorded, the request sent to the model")
	pos, code, ok := parseArgs(e, fs, args, 1, "run ID")
	if !ok {
		return code
	}
	if !runIDsGiven(e, fs, pos) {
		return ExitUsage
	}
	if flagGiven(fs, "example") && *example < 0 {
		fmt.Fprintln(e.stderr, "benchy runs show: --example takes an example's index, 0 or more")
		return ExitUsage
	}
	st, ws, code := openRuns(e, "runs show", *wsFlag)
	if st == nil {
		return noRun(e, "runs show", pos[0], ws, code)
	}
	defer st.Close()
	id, err := st.FindRun(pos[0])
	var r store.Run
	if err == nil {
		r, err = st.GetRun(id)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy runs show: %v\n", err)
		return ExitFail
	}
	if *example >= 0 {
		return showExample(e, st, id, *example)
	}
	if !*withIR {
		r.IR = nil
	}
	batches, err := shownBatches(st, id)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy runs show: %v\n", err)
		return ExitFail
	}
	out, err := json.MarshalIndent(struct {
		store.Run
		Batches []shownBatch `json:"batches,omitempty"`
	}{r, batches}, "", "  ")
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy runs show: %v\n", err)
		return ExitFail
	}
	fmt.Fprintf(e.stdout, "%s\n", out)
	return ExitOK
}

// runIDsGiven trims what surrounds each run ID (spaces copied from a table) and refuses an
// empty one (an unset shell variable) as a usage error, before any store is opened.
func runIDsGiven(e *env, fs *flag.FlagSet, ids []string) bool {
	for i, id := range ids {
		ids[i] = strings.TrimSpace(id)
		if ids[i] == "" {
			fmt.Fprintf(e.stderr, "benchy %s: a run ID is empty\n", fs.Name())
			fs.Usage()
			return false
		}
	}
	return true
}

// noRun reports a run looked up in a workspace with no store (code ExitOK), or passes on
// the failure openRuns reported.
func noRun(e *env, cmd, id, ws string, code int) int {
	if code == ExitOK {
		fmt.Fprintf(e.stderr, "benchy %s: run %s: %v (no runs stored in %s)\n", cmd, id, store.ErrNotFound, ws)
	}
	return ExitFail
}

func runsExport(e *env, args []string) int {
	fs, wsFlag := runsFlags(e, "export")
	format := fs.String("format", "json", "json (the result document), jsonl (one result a line) or csv (a column per field: input.x, expected.y, prediction.y, and prediction the answer as JSON when it is not valid; a cell starting like a formula, = + - @ a tab or a carriage return, gets a ' in front unless it is a number)")
	out := fs.String("o", "-", "the file to write (- for standard output)")
	var filter exportFilter
	filter.define(fs)
	pos, code, ok := parseArgs(e, fs, args, 1, "run ID")
	if !ok {
		return code
	}
	if !runIDsGiven(e, fs, pos) {
		return ExitUsage
	}
	f := store.Format(*format)
	switch f {
	case store.JSON, store.JSONL, store.CSV:
	default:
		fmt.Fprintf(e.stderr, "benchy runs export: --format %q: want json, jsonl or csv\n", *format)
		return ExitUsage
	}
	st, ws, code := openRuns(e, "runs export", *wsFlag)
	if st == nil {
		return noRun(e, "runs export", pos[0], ws, code)
	}
	defer st.Close()
	id, err := st.FindRun(pos[0]) // or the end of its id, as the web app shows it
	var r store.Run
	if err == nil {
		r, err = st.GetRun(id) // with its IR, which names the dataset and the fields
	}
	if err != nil {
		return exportFailed(e, err)
	}
	var b *ir.Benchmark
	if len(r.IR) > 0 {
		b = new(ir.Benchmark) // loosely: an IR stored by an older benchy still names its fields
		if json.Unmarshal(r.IR, b) != nil {
			b = nil
		}
	}
	q, err := filter.checked(b)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy runs export: %v%s\n", err, filterSuggestion(filter.f, b, err))
		return ExitUsage
	}
	eq := exportQuery(q, b)
	eq.Query = filter.f.Values() // a filtered JSON export names its filter ("filter", "selected")
	export := func(w io.Writer) error {
		note, err := st.ExportRows(id, f, eq, w)
		if note != "" {
			fmt.Fprintf(e.stderr, "benchy runs export: note: %s\n", note)
		}
		return err
	}
	if *out == "-" || *out == "" {
		return exportFailed(e, export(e.stdout))
	}
	if why := exportClash(*out, ws, r); why != "" {
		fmt.Fprintf(e.stderr, "benchy runs export: %s\n", why)
		return ExitUsage
	}
	// Through a temporary file, so a failed export leaves no partial file behind.
	tmp, err := os.CreateTemp(filepath.Dir(*out), "."+filepath.Base(*out)+".*")
	if err != nil {
		return exportFailed(e, err)
	}
	defer os.Remove(tmp.Name())
	err = export(tmp)
	if err == nil {
		err = tmp.Chmod(0o644) // CreateTemp's 0600 is for the half-written file
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), *out)
	}
	return exportFailed(e, err)
}

// exportClash says why an export of run r into workspace ws may not be written at -o out,
// or "": what `benchy run` refuses for its -o (readsClash), given what a run of r's
// benchmark (the workspace-relative path the store keeps) reads: the benchmark, its
// runtime file, its dataset (data.path in the stored IR, against the benchmark's folder)
// and the artifacts the dataset names; and the workspace's own store. A run the store
// keeps no benchmark or readable IR for guards what is known of it.
func exportClash(out, ws string, r store.Run) string {
	if why := exportReads(out, ws, r); why != "" {
		return why
	}
	return folderClash("-o", out)
}

// exportReads is exportClash but for -o's folder.
func exportReads(out, ws string, r store.Run) string {
	if r.Benchmark == "" {
		return exportForbidden(out, ws, storeFiles(ws))
	}
	bench := filepath.Join(ws, filepath.FromSlash(r.Benchmark))
	_, _, runtimeFile := workspace.RuntimeOf(filepath.Dir(bench))
	files := readFiles(bench, runtimeFile, ws)
	var b ir.Benchmark // loosely: an IR stored by an older benchy still names its dataset
	if json.Unmarshal(r.IR, &b) != nil || b.Data.Path == "" {
		return exportForbidden(out, ws, files)
	}
	return readsClash("-o", out, []string{out}, ws, filepath.Dir(bench), &b, files)
}

// exportForbidden is forbidden's answer for -o out, worded as readsClash's.
func exportForbidden(out, ws string, files []guarded) string {
	if why := forbidden(out, ws, files); why != "" {
		return "-o " + out + " " + why
	}
	return ""
}

func exportFailed(e *env, err error) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, store.ErrNoReport):
		fmt.Fprintf(e.stderr, "benchy runs export: %v; --format jsonl or csv exports the results it has\n", err)
	default:
		fmt.Fprintf(e.stderr, "benchy runs export: %v\n", err)
	}
	return ExitFail
}

// maxShownFlips is how many changed examples the text form of runs compare lists.
const maxShownFlips = 10

func runsCompare(e *env, args []string) int {
	fs, wsFlag := runsFlags(e, "compare")
	asJSON := fs.Bool("json", false, "print the comparison as the API's JSON (GET /api/runs/compare); a gate's verdict then goes to stderr")
	baseline := fs.String("baseline", "", "the baseline run `A`: the one run ID then given is B")
	var gate regressionGate
	gate.define(fs)
	nargs, what := 2, "two run IDs, A and B"
	if baselineGiven(args) {
		nargs, what = 1, "run ID, B, after --baseline A"
	}
	pos, code, ok := parseArgs(e, fs, args, nargs, what)
	if !ok {
		return code
	}
	if flagGiven(fs, "baseline") {
		pos = append([]string{*baseline}, pos...)
	}
	if !runIDsGiven(e, fs, pos) {
		return ExitUsage
	}
	st, ws, code := openRuns(e, "runs compare", *wsFlag)
	if st == nil {
		return noRun(e, "runs compare", pos[0], ws, code)
	}
	defer st.Close()
	a, err := st.FindRun(pos[0]) // or the end of its id, as the web app and the leaderboard show it
	b, errB := st.FindRun(pos[1])
	err = errors.Join(err, errB)
	var runs [2]store.Run
	if err == nil {
		runs, err = compare.Load(st, a, b)
	}
	var cmp api.Comparison
	if err == nil {
		cmp, err = compare.Read(st, runs)
	}
	var no *compare.Refusal
	switch {
	case *asJSON && errors.As(err, &no):
		gate.refused(e.stderr, string(no.Code))
		return refusedJSON(e, no.Code, no.Message)
	case *asJSON && errors.Is(err, store.ErrNotFound):
		return refusedJSON(e, api.NotFound, err.Error())
	case *asJSON && errors.Is(err, store.ErrAmbiguous):
		return refusedJSON(e, api.BadRequest, err.Error())
	case errors.As(err, &no):
		fmt.Fprintf(e.stderr, "benchy runs compare: %s: %s\n", no.Code, no.Message)
		gate.refused(e.stdout, string(no.Code)) // where a verdict goes
		return ExitFail
	case err != nil:
		fmt.Fprintf(e.stderr, "benchy runs compare: %v\n", err)
		return ExitFail
	case *asJSON:
		if code := writeAPIJSON(e, "runs compare", cmp); code != ExitOK {
			return code
		}
		return gateCode(gate.check(e.stderr, cmp))
	}
	writeComparison(e.stdout, runs, cmp)
	return gateCode(gate.check(e.stdout, cmp))
}

// gateCode is the exit code of a gate's verdict.
func gateCode(passed bool) int {
	if passed {
		return ExitOK
	}
	return ExitFail
}

// refusedJSON prints, for --json, the API's answer to a comparison it refuses (409 for runs
// that are not comparable, 404 for an unknown run: server/compare.go's compareError), the
// same bytes GET /api/runs/compare sends, and fails: a script reads the code and message
// from one JSON document whatever the outcome.
func refusedJSON(e *env, code api.Code, message string) int {
	writeAPIJSON(e, "runs compare", api.Error{Error: api.ErrorDetail{Code: code, Message: message}})
	return ExitFail
}

// writeComparison prints a comparison for people: both scores, the delta with its
// interval, each dimension's accuracies, and the first changed examples with both
// predictions.
func writeComparison(w io.Writer, runs [2]store.Run, c api.Comparison) {
	for i, r := range runs {
		label := "-"
		if r.System != nil && r.System.Label != "" {
			label = r.System.Label
		}
		fmt.Fprintf(w, "%c  %s  %-24s score %.4f  (%s)\n", 'A'+i, r.ID, label, [2]float64{c.ScoreA, c.ScoreB}[i], r.Benchmark)
	}
	iv := c.Interval
	fmt.Fprintf(w, "delta B-A %+.4f, 95%% interval [%+.4f, %+.4f] (%s)", c.Delta, iv.Low, iv.High, iv.Method)
	if iv.Low > 0 || iv.High < 0 {
		fmt.Fprint(w, ": significant")
	}
	fmt.Fprintf(w, "\n%s: %d improved, %d regressed\n", count(c.Examples, "example"), c.Improved, c.Regressed)
	if len(c.Dimensions) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "\nDIMENSION\tA\tB\tDELTA")
		for _, d := range c.Dimensions {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", strings.Join(d.Path, "."), ratioText(d.AccuracyA, "%.4f"), ratioText(d.AccuracyB, "%.4f"), ratioText(d.Delta, "%+.4f"))
		}
		tw.Flush()
	}
	if len(c.Flips) == 0 {
		fmt.Fprintln(w, "\nno example changed")
		return
	}
	changed := c.Improved + c.Regressed
	if shown := min(len(c.Flips), maxShownFlips); shown < changed {
		fmt.Fprintf(w, "\nchanged examples (the first %d):\n", shown)
	} else {
		fmt.Fprintf(w, "\n%s:\n", count(shown, "changed example"))
	}
	for _, f := range c.Flips[:min(len(c.Flips), maxShownFlips)] {
		fmt.Fprintf(w, "  #%d  %s %.4f -> %s %.4f\n", f.Index, f.StatusA, f.QA, f.StatusB, f.QB)
		fmt.Fprintf(w, "      A: %s\n      B: %s\n", clipText(string(f.PredictionA), 80), clipText(string(f.PredictionB), 80))
	}
	if more := len(c.Flips) - maxShownFlips; more > 0 || changed > len(c.Flips) {
		fmt.Fprintln(w, "  ... --json lists up to", api.MaxFlips)
	}
}

// ratioText is *p in format, or - when there is none.
func ratioText(p *float64, format string) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf(format, *p)
}

// clipText shortens s to n characters, marking the cut.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// showExample prints example index of run id as the web app's example view reads it (the
// API's result), with the request sent to the model when it was recorded.
func showExample(e *env, st *store.Store, id string, index int) int {
	d, found, err := st.Detail(id, index, store.ResultFilter{})
	switch {
	case err != nil:
		fmt.Fprintf(e.stderr, "benchy runs show: %v\n", err)
		return ExitFail
	case !found:
		fmt.Fprintf(e.stderr, "benchy runs show: run %s has no result for example %d\n", id, index)
		return ExitFail
	}
	out, err := json.MarshalIndent(struct {
		api.Result
		Request string `json:"request,omitempty"`
	}{d.Wire(), d.Request}, "", "  ")
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy runs show: %v\n", err)
		return ExitFail
	}
	fmt.Fprintf(e.stdout, "%s\n", out)
	return ExitOK
}

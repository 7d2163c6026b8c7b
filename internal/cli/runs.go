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
		{"show", "[--workspace DIR] [--ir] ID", "print a stored run's fields and summary as JSON", runsShow},
		{"export", "[--workspace DIR] [--format json|jsonl|csv] [-o FILE] ID", "write a stored run's results: the result document (json), one result a line (jsonl) or a table (csv)", runsExport},
	}
}

func runRuns(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "benchy runs: expects a subcommand: list, show or export")
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
	fmt.Fprintln(w, "\nList, show and export the runs stored in a workspace's "+store.Dir+"/"+store.File+".\n\nSubcommands:")
	for _, c := range runsCommands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nThe workspace is --workspace DIR, or else the nearest directory from the working directory")
	fmt.Fprintln(w, "up that has a "+store.Dir+" directory or a "+adapter.RuntimeFile+".")
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
	ws := fs.String("workspace", "", "the workspace whose runs to read (default: the nearest one from the working directory up)")
	return fs, ws
}

// openRuns opens the store of the workspace named, or of the nearest one. A workspace
// without a store has no runs: it returns a nil store, and the store is not created.
func openRuns(e *env, cmd, named string) (st *store.Store, ws string, code int) {
	ws = named
	if ws == "" {
		wd, err := os.Getwd()
		found := false
		if err == nil {
			ws, found = workspace.Find(wd)
		}
		if !found {
			fmt.Fprintf(e.stderr, "benchy %s: not in a workspace: no directory from here up has a %s directory or a %s; pass --workspace DIR\n",
				cmd, store.Dir, adapter.RuntimeFile)
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

func runsList(e *env, args []string) int {
	fs, wsFlag := runsFlags(e, "list")
	benchmark := fs.String("benchmark", "", "only runs of this benchmark file (relative to the working directory or the workspace)")
	hash := fs.String("ir-hash", "", "only runs of this IR hash (sha256:<hex>, or the hex alone)")
	limit := fs.Int("limit", 20, "list at most N runs")
	if _, code, ok := parse(e, fs, args, 0); !ok {
		return code
	}
	if *limit < 1 {
		fmt.Fprintln(e.stderr, "benchy runs list: --limit must be at least 1")
		return ExitUsage
	}
	st, ws, code := openRuns(e, "runs list", *wsFlag)
	if st == nil {
		if code == ExitOK {
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
	fmt.Fprintln(tw, "ID\tSTATUS\tBENCHMARK\tSCORE\tEXAMPLES\tSTARTED")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Status, r.Benchmark, score(r), examples(r), started(r))
	}
	tw.Flush()
	return ExitOK
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
		wsAbs, err2 := filepath.Abs(ws)
		if rel, err := filepath.Rel(wsAbs, abs); err1 == nil && err2 == nil && err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(path)), "./")
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

func started(r store.Run) string {
	t := r.CreatedAt
	if r.StartedAt != nil {
		t = *r.StartedAt
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

func runsShow(e *env, args []string) int {
	fs, wsFlag := runsFlags(e, "show")
	withIR := fs.Bool("ir", false, "include the run's canonical IR")
	pos, code, ok := parseArgs(e, fs, args, 1, "run ID")
	if !ok {
		return code
	}
	st, ws, code := openRuns(e, "runs show", *wsFlag)
	if st == nil {
		return noRun(e, "runs show", pos[0], ws, code)
	}
	defer st.Close()
	r, err := st.GetRun(pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy runs show: %v\n", err)
		return ExitFail
	}
	if !*withIR {
		r.IR = nil
	}
	out, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy runs show: %v\n", err)
		return ExitFail
	}
	fmt.Fprintf(e.stdout, "%s\n", out)
	return ExitOK
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
	format := fs.String("format", "json", "json (the result document), jsonl (one result a line) or csv")
	out := fs.String("o", "-", "the file to write (- for standard output)")
	pos, code, ok := parseArgs(e, fs, args, 1, "run ID")
	if !ok {
		return code
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
	if *out == "-" || *out == "" {
		err := st.Export(pos[0], f, e.stdout)
		return exportFailed(e, err)
	}
	r, err := st.GetRun(pos[0]) // with its IR, which names the dataset
	if err != nil {
		return exportFailed(e, err)
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
	err = st.Export(pos[0], f, tmp)
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
	return readsClash(out, []string{out}, ws, filepath.Dir(bench), &b, files)
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

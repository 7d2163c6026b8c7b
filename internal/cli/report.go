package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/benchy-eval/benchy/report"
	"github.com/benchy-eval/benchy/report/fromstore"
)

// runReport writes the self-contained HTML report of stored runs: `benchy report RUN...
// -o report.html`, what GET /api/report sends (fromstore.Gather, report.Write). It takes
// any number of runs, where the server takes 20: the file stops at report.MaxReportBytes
// with a note of the runs not shown, which are never loaded; before writing it holds
// some hundred bytes a run named, and the head links at most report.MaxLinks of them.
func runReport(e *env, args []string) int {
	fs := flags(e, "report")
	out := fs.String("o", "report.html", "the HTML file to write (replaced whole, never written through: a link there is replaced, not followed)")
	examples := fs.Int("examples", report.DefaultExamples, "list the first `N` failing examples of each run")
	wsFlag := fs.String("workspace", "", "the workspace whose runs to read (default: the nearest one from the working directory up)")
	ids, code, ok := parseArgs(e, fs, args, oneOrMore, "one run ID or more")
	if !ok {
		return code
	}
	if *examples < 0 {
		fmt.Fprintln(e.stderr, "benchy report: --examples must be at least 0")
		return ExitUsage
	}
	if !runIDsGiven(e, fs, ids) {
		return ExitUsage
	}
	if why := folderClash("-o", *out); why != "" { // before any work
		fmt.Fprintf(e.stderr, "benchy report: %s\n", why)
		return ExitUsage
	}
	st, ws, code := openRuns(e, "report", *wsFlag)
	if st == nil {
		return noRun(e, "report", ids[0], ws, code)
	}
	defer st.Close()
	if why := writeClash("-o", *out, ws, storeFiles(ws)); why != "" {
		fmt.Fprintf(e.stderr, "benchy report: %s\n", why)
		return ExitUsage
	}
	var full []string // each run once, in the order given
	for _, id := range ids {
		id, err := st.FindRun(id)
		if err != nil {
			fmt.Fprintf(e.stderr, "benchy report: %v\n", err)
			return ExitFail
		}
		if !slices.Contains(full, id) {
			full = append(full, id)
		}
	}
	for _, id := range full {
		r, err := st.GetRun(id) // with its IR, which names the dataset
		if err != nil {
			fmt.Fprintf(e.stderr, "benchy report: %v\n", err)
			return ExitFail
		}
		if why := exportClash(*out, ws, r); why != "" { // as runs export -o: nothing a run of it reads
			fmt.Fprintf(e.stderr, "benchy report: %s\n", why)
			return ExitUsage
		}
	}
	rep, err := fromstore.Gather(st, full, *examples)
	if err == nil {
		err = writeFresh(*out, func(w io.Writer) error { return report.Write(w, rep) })
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy report: %v\n", err)
		return ExitFail
	}
	fmt.Fprintf(e.stderr, "report of %s: %s\n", count(len(full), "run"), *out)
	return ExitOK
}

package cli

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/benchy-eval/benchy/leaderboard"
	"github.com/benchy-eval/benchy/store"
)

// printBoard ends a run of several systems with the benchmark's leaderboard on standard
// output: the board `benchy leaderboard` shows (leaderboard.Build, from the store: the
// latest completed full run of every system that took this benchmark on this dataset,
// these runs and earlier ones), or, when these runs are on no board (not stored, or
// --limit made them partial), a ranking of these runs alone, which says so.
func printBoard(e *env, r runSettings, runs []*systemRun) {
	var digest string
	for _, run := range runs {
		if rep := run.res.end.Report; rep != nil && run.res.writeErr == nil {
			digest = rep.DatasetDigest
			break
		}
	}
	if digest == "" {
		fmt.Fprintln(e.stderr, "no leaderboard: no system's run completed")
		return
	}
	fmt.Fprintln(e.stderr) // apart from the runs' lines in a terminal; stdout is the board alone
	var stopped []string
	for _, run := range runs {
		if run.res.end.Report != nil && run.res.end.Err != nil { // a budget or a signal stopped it part way
			stopped = append(stopped, run.plan.System.Label)
		}
	}
	if len(stopped) > 0 {
		fmt.Fprintf(e.stderr, "not ranked: %s (stopped before the last example; resume to rank)\n", strings.Join(stopped, ", "))
	}
	why := "these runs are not stored"
	switch {
	case r.opts.Limit > 0:
		why = fmt.Sprintf("--limit %d: runs of part of the dataset are on no leaderboard", r.opts.Limit)
	case r.store && r.ws != "":
		st, err := store.Open(storePath(r.ws))
		if err == nil {
			defer st.Close()
			board, err := leaderboard.Build(st, runs[0].plan.BenchmarkHash, digest)
			if err == nil {
				leaderboard.WriteText(e.stdout, board)
				return
			}
		}
		fmt.Fprintf(e.stderr, "benchy run: warning: the leaderboard cannot be read from %s: %v\n", storePath(r.ws), err)
		why = "the store cannot be read"
	}
	rankRuns(e.stdout, runs, why)
}

// rankRuns is the ranking of this invocation's completed runs by score (not those a
// budget stopped part way), with their
// intervals and counts, for runs that are on no leaderboard (why says which).
func rankRuns(w io.Writer, runs []*systemRun, why string) {
	var done []*systemRun
	for _, run := range runs {
		if run.res.end.Report != nil && run.res.end.Err == nil && run.res.writeErr == nil { // not one its budget stopped
			done = append(done, run)
		}
	}
	slices.SortStableFunc(done, func(a, b *systemRun) int {
		return cmp.Compare(b.res.end.Report.BenchmarkScore, a.res.end.Report.BenchmarkScore)
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tSYSTEM\tSCORE\t95% INTERVAL\tEXAMPLES\tVALID/INV/ERR")
	for i, run := range done {
		rep := run.res.end.Report
		fmt.Fprintf(tw, "%d\t%s\t%.4f\t[%.4f, %.4f]\t%d\t%d/%d/%d\n", i+1, run.plan.System.Label, rep.BenchmarkScore,
			rep.Confidence.Low, rep.Confidence.High, rep.Summary.Examples, rep.Summary.Valid, rep.Summary.InvalidOutputs, rep.Summary.ExecutionErrors)
	}
	tw.Flush()
	fmt.Fprintf(w, "these runs only (%s)\n", why)
}

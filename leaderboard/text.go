package leaderboard

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/api"
)

// maxLabel is the widest system label the table shows, so that a row fits 100 columns
// with a million examples in its counts.
const maxLabel = 24

// WriteText writes board as a table of 100 columns at most: rank, system, score and its
// interval, the difference to the leader (* when its interval excludes 0), examples and
// the valid/invalid/error counts; then a line naming the benchmark and the dataset by the
// start of their hashes, and what other datasets and unrecorded runs there are.
func WriteText(w io.Writer, board api.Leaderboard) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(board.Entries) == 0 {
		fmt.Fprintln(tw, "no completed full run of this benchmark on this dataset yet")
	} else {
		fmt.Fprintln(tw, "RANK\tSYSTEM\tSCORE\t95% INTERVAL\tVS LEADER\tEXAMPLES\tVALID/INV/ERR")
	}
	significant := false
	for i, e := range board.Entries {
		vs := "-"
		if i > 0 {
			vs = fmt.Sprintf("%+.4f", e.DeltaVsLeader)
			if e.Significant {
				vs += "*"
				significant = true
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%.4f\t[%.4f, %.4f]\t%s\t%d\t%d/%d/%d\n", e.Rank, clip(e.System, maxLabel), e.Score,
			e.Interval.Low, e.Interval.High, vs, e.Examples, e.Valid, e.InvalidOutputs, e.ExecutionErrors)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, names(board))
	if board.DatasetNote != "" {
		fmt.Fprint(w, wrap(board.DatasetNote, 100))
	}
	switch {
	case significant:
		fmt.Fprintln(w, "* significantly worse than the leader (95% interval excludes 0); without *: not distinguishable")
	case len(board.Entries) > 1:
		fmt.Fprintln(w, "no difference to the leader is significant: every 95% interval includes 0")
	}
	switch len(board.Entries) {
	case 0:
	case 1: // no other system, so no difference to the leader
		fmt.Fprintln(w, "\nthe run:")
	default:
		fmt.Fprintln(w, "\nruns, and each difference to the leader with its 95% interval:")
	}
	if len(board.Entries) > 0 {
		rw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for i, e := range board.Entries {
			vs := "the leader"
			if len(board.Entries) == 1 {
				vs = ""
			}
			if d := e.DeltaInterval; i > 0 && d != nil {
				vs = fmt.Sprintf("%+.4f [%+.4f, %+.4f]", e.DeltaVsLeader, d.Low, d.High)
				if e.Significant {
					vs += "*"
				}
			}
			fmt.Fprintln(rw, strings.TrimRight(fmt.Sprintf("  %d\t%s\t%s\t%s", e.Rank, clip(e.System, maxLabel), e.Run, vs), "\t"))
		}
		if err := rw.Flush(); err != nil {
			return err
		}
	}
	for _, n := range board.NotRanked {
		fmt.Fprint(w, wrap(fmt.Sprintf("not ranked: %s (run %s): %s", n.System, n.Run, n.Reason), 100))
	}
	var others []string
	for _, d := range board.Datasets {
		if d.Digest != board.DatasetDigest {
			plural := "s"
			if d.Systems == 1 {
				plural = ""
			}
			others = append(others, fmt.Sprintf("%s (%d system%s)", short(d.Digest, 12), d.Systems, plural))
		}
	}
	if len(others) > 0 {
		fmt.Fprint(w, wrap("other datasets this benchmark's runs took: "+strings.Join(others, ", ")+"; show one with --dataset", 100))
	}
	if board.Unrecorded > 0 {
		are := "runs are"
		if board.Unrecorded == 1 {
			are = "run is"
		}
		_, err := fmt.Fprintf(w, "%d completed %s on no board: dataset not recorded (stored by an older benchy)\n", board.Unrecorded, are)
		return err
	}
	return nil
}

// wrap breaks text into lines of at most width characters at spaces (a longer word stays
// whole), each ended by a newline.
func wrap(text string, width int) string {
	var out, line []rune
	for _, word := range strings.Fields(text) {
		w := []rune(word)
		if len(line) > 0 && len(line)+1+len(w) > width {
			out = append(append(out, line...), '\n')
			line = line[:0]
		}
		if len(line) > 0 {
			line = append(line, ' ')
		}
		line = append(line, w...)
	}
	if len(line) > 0 {
		out = append(append(out, line...), '\n')
	}
	return string(out)
}

// clip shortens s to n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/cluster/slurm"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/shard"
)

// runSlurm is benchy slurm: a sharded run as a Slurm array job with a merge job after it
// (cluster/slurm does the work; this is flags and printing).
func runSlurm(e *env, args []string) int {
	subs := []struct {
		name, args, summary string
		run                 func(*env, []string) int
	}{
		{"submit", "--shards N --out-dir DIR [--partition P] [--time T] [--sbatch-arg A]... [--runtime FILE] [--into-store WORKSPACE] [--limit N] [--only K,...] BENCHMARK",
			"write DIR/slurm/array.sh and merge.sh and submit them: an array job whose task K runs shard K of N (benchy run --shard K/N --out-dir DIR), and a job that merges them into DIR/results.json once every task succeeded", slurmSubmit},
		{"status", "DIR", "show the Slurm jobs submitted from DIR and, from DIR's shard journals, how far each shard is and which are missing", slurmStatus},
		{"cancel", "DIR", "cancel the array and merge jobs submitted from DIR (scancel)", slurmCancel},
	}
	if len(args) > 0 {
		for _, s := range subs {
			if s.name == args[0] {
				return s.run(e, args[1:])
			}
		}
	}
	w := e.stderr
	code := ExitUsage
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		w, code = e.stdout, ExitOK
	} else if len(args) > 0 {
		fmt.Fprintf(w, "benchy slurm: unknown subcommand %q\n\n", args[0])
	}
	fmt.Fprintln(w, "Usage:")
	for _, s := range subs {
		fmt.Fprintf(w, "  benchy slurm %s %s\n      %s.\n", s.name, s.args, upperFirst(s.summary))
	}
	fmt.Fprintln(w, "\nThe Slurm commands (sbatch, squeue, scancel) are run as they are found on PATH, with this environment: SLURM_CONF, if set, names the cluster.")
	return code
}

// subFlags is flags for a subcommand of benchy slurm.
func subFlags(e *env, name, args, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet("slurm "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: benchy slurm %s %s\n\n%s.\n", name, args, upperFirst(summary))
		if hasFlags(fs) {
			fmt.Fprintln(w, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// argList is a flag that may be repeated, each value one argument, commas and all.
type argList []string

func (a *argList) String() string     { return strings.Join(*a, " ") }
func (a *argList) Set(v string) error { *a = append(*a, v); return nil }

// shardList is --only: shard numbers, comma-separated, the flag repeatable.
type shardList []int

func (s *shardList) String() string { return fmt.Sprint([]int(*s)) }
func (s *shardList) Set(v string) error {
	for _, f := range strings.Split(v, ",") {
		from, to, isRange := strings.Cut(strings.TrimSpace(f), "-") // "1-99999", as benchy merge names a run of shards
		if !isRange {
			to = from
		}
		a, err1 := strconv.Atoi(from)
		b, err2 := strconv.Atoi(to)
		if err1 != nil || err2 != nil || a < 0 || b < a || b >= engine.MaxShards {
			return fmt.Errorf("%q is not a shard number or a range of them (K or K-L, below %d)", f, engine.MaxShards)
		}
		for k := a; k <= b; k++ {
			*s = append(*s, k)
		}
	}
	return nil
}

func slurmSubmit(e *env, args []string) int {
	fs := subFlags(e, "submit", "--shards N --out-dir DIR [flags] BENCHMARK", "submit a benchmark's N shards as a Slurm array job and a job that merges them once every task succeeded")
	shards := fs.Int("shards", 0, "`N`, the number of shards: array tasks 0 to N-1 (required)")
	outDir := fs.String("out-dir", "", "`DIR` on a filesystem every node shares: the shards' journals, DIR/slurm/ (the job scripts, each task's output as ARRAYID_K.out, jobs.json) and DIR/results.json (required)")
	partition := fs.String("partition", "", "sbatch --partition for both jobs (default: the cluster's)")
	timeLimit := fs.String("time", "", "sbatch --time for both jobs, e.g. 2:00:00 (default: the partition's)")
	var sbatchArgs argList
	fs.Var(&sbatchArgs, "sbatch-arg", "`A`, one more sbatch option for both jobs, e.g. --sbatch-arg=--account=lab or --sbatch-arg=--gres=gpu:1 (repeatable)")
	runtimePath := fs.String("runtime", "", "benchy run --runtime FILE for every shard")
	intoStore := fs.String("into-store", "", "benchy merge --into-store `WORKSPACE`: the merge job records the run in that workspace's store")
	limit := fs.Int("limit", 0, "benchy run --limit N for every shard: only the first N examples (0: all)")
	var only shardList
	fs.Var(&only, "only", "submit only these shards' tasks (`K,...`, each K or a range K-L), e.g. one that failed or was cancelled, and a merge job after them")
	pos, code, ok := parseArgs(e, fs, args, 1, "BENCHMARK")
	if !ok {
		return code
	}
	if *shards < 1 || *outDir == "" {
		fmt.Fprintln(e.stderr, "benchy slurm submit: --shards N (at least 1) and --out-dir DIR are required")
		return ExitUsage
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy slurm submit: finding benchy's own path for the tasks: %v\n", err)
		return ExitFail
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy slurm submit: %v\n", err)
		return ExitFail
	}
	bench := absolute(wd, pos[0])
	if info, err := os.Stat(bench); err != nil || info.IsDir() {
		fmt.Fprintf(e.stderr, "benchy slurm submit: %s is not a benchmark file\n", pos[0])
		return ExitFail
	}
	j := slurm.Job{Benchy: exe, Bench: bench, Shards: *shards, OutDir: absolute(wd, *outDir), WorkDir: wd,
		Runtime: absolute(wd, *runtimePath), IntoStore: absolute(wd, *intoStore), Limit: *limit,
		Partition: *partition, Time: *timeLimit, SbatchArgs: sbatchArgs}
	if err := j.Check(); err != nil {
		fmt.Fprintf(e.stderr, "benchy slurm submit: %v\n", err)
		return ExitUsage
	}
	sub, err := slurm.Submit(context.Background(), j, only)
	if sub.Array == "" && err != nil {
		fmt.Fprintf(e.stderr, "benchy slurm submit: %v\n", err)
		return ExitFail
	}
	fmt.Fprintf(e.stdout, "array job %s: tasks %s of %d shards, each `benchy run --shard K/%d`\n", sub.Array, sub.Tasks, j.Shards, j.Shards)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy slurm submit: %v\n", err)
		return ExitFail
	}
	fmt.Fprintf(e.stdout, "merge job %s: runs once every task succeeded (afterok:%s), writing %s\n", sub.Merge, sub.Array, shellArg(filepath.Join(j.OutDir, slurm.Results)))
	fmt.Fprintf(e.stdout, "scripts and output: %s (ARRAYID_K.out for task K)\n", shellArg(j.Dir()))
	fmt.Fprintf(e.stdout, "watch:  benchy slurm status %s   (or squeue -r -j %s,%s)\n", shellArg(j.OutDir), sub.Array, sub.Merge)
	fmt.Fprintf(e.stdout, "cancel: benchy slurm cancel %s\n", shellArg(j.OutDir))
	return ExitOK
}

// absolute is path made absolute against wd, or "" for "".
func absolute(wd, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(wd, path)
}

func slurmStatus(e *env, args []string) int {
	fs := subFlags(e, "status", "DIR", "show the Slurm jobs submitted from DIR and how far each shard is, from its journal")
	pos, code, ok := parseArgs(e, fs, args, 1, "DIR")
	if !ok {
		return code
	}
	st, err := slurm.Read(context.Background(), pos[0])
	if err != nil && st.Shards == nil {
		fmt.Fprintf(e.stderr, "benchy slurm status: %v\n", err)
		return ExitFail
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: %d shards of %s\n", pos[0], st.Record.Shards, st.Record.Bench)
	for _, s := range st.Record.Submissions {
		fmt.Fprintf(w, "submitted %s: array job %s (tasks %s), merge job %s\n", s.Submitted.Local().Format("2006-01-02 15:04:05"), s.Array, s.Tasks, orNone(s.Merge))
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy slurm status: squeue: %v\n", err)
	} else {
		fmt.Fprintln(w, "\nJOB\tSTATE\tREASON")
		for _, t := range st.Tasks {
			fmt.Fprintf(w, "%s\t%s\t%s\n", t.ID, t.State, t.Reason)
		}
		if len(st.Tasks) == 0 {
			fmt.Fprintln(w, "(squeue no longer lists them: they ended before the cluster's MinJobAge)")
		}
	}
	fmt.Fprintln(w, "\nSHARD\tEXAMPLES")
	var missing []string
	for _, p := range st.Shards {
		if !p.Started {
			missing = append(missing, strconv.Itoa(p.K))
		}
		fmt.Fprintf(w, "%d/%d\t%s\n", p.K, p.N, shardState(pos[0], p))
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "\nmissing shards: %s (once the array ended: benchy slurm submit ... --only %s)\n", strings.Join(missing, ","), strings.Join(missing, ","))
	}
	if _, err := os.Stat(filepath.Join(pos[0], slurm.Results)); err == nil {
		fmt.Fprintf(w, "merged: %s\n", shellArg(filepath.Join(pos[0], slurm.Results)))
	}
	return ExitOK
}

// shardState is a shard's line of benchy slurm status: how many of its examples its
// journal holds, never more than it has.
func shardState(dir string, p slurm.Progress) string {
	switch {
	case !p.Started:
		return "missing: not started"
	case p.Damaged:
		return fmt.Sprintf("damaged: its journal has %d lines for %d examples; remove %s and run it again", p.Lines, p.Examples,
			shellArg(filepath.Join(shard.Dir(dir, engine.Shard{K: p.K, N: p.N}), shard.JournalFile)))
	case p.Complete:
		return fmt.Sprintf("%d of %d, complete", p.Done, p.Examples)
	}
	return fmt.Sprintf("%d of %d", p.Done, p.Examples)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func slurmCancel(e *env, args []string) int {
	fs := subFlags(e, "cancel", "DIR", "cancel the array and merge jobs submitted from DIR (scancel)")
	pos, code, ok := parseArgs(e, fs, args, 1, "DIR")
	if !ok {
		return code
	}
	ids, err := slurm.Cancel(context.Background(), pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy slurm cancel: %v\n", err)
		return ExitFail
	}
	fmt.Fprintf(e.stdout, "scancel %s\n", strings.Join(ids, " "))
	return ExitOK
}

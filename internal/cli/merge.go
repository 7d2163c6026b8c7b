package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/shard"
	"github.com/benchy-eval/benchy/store"
)

// runMerge is benchy merge DIR (issue 17): the shards' journals under DIR, checked to be
// one run's and to hold every example exactly once, read round-robin into the result
// document an unsharded run writes (but for started_at, finished_at, concurrency and
// shards), and with --into-store recorded as one completed run of that workspace.
func runMerge(e *env, args []string) int {
	fs := flags(e, "merge")
	out := fs.String("o", "results.json", "where to write the merged result document")
	into := fs.String("into-store", "", "also record the merged run, as one completed run, in the store of workspace `WORKSPACE` (its web app, compare and leaderboard show it)")
	pos, code, ok := parseArgs(e, fs, args, 1, "DIR")
	if !ok {
		return code
	}
	dir := pos[0]
	if why := mergeOutClash(*out, dir, *into); why != "" { // before any work
		fmt.Fprintf(e.stderr, "benchy merge: %s\n", why)
		return ExitUsage
	}
	set, err := shard.Open(dir)
	var un *shard.Unfinished
	if errors.As(err, &un) {
		printUnfinished(e.stderr, set, un)
		return ExitFail
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy merge: %v\n", err)
		return ExitFail
	}
	var st *store.Store
	runID, stored, already := "", "", false
	if *into != "" {
		st, runID, stored, already, err = openMergeStore(*into, set)
		if err != nil {
			fmt.Fprintf(e.stderr, "benchy merge: --into-store %s: %v\n", *into, err)
			return ExitFail
		}
		defer st.Close()
	}
	var rep *engine.Report
	if already { // these shards were merged into it before: the document again, no twin run
		rep, err = set.Report(nil)
		if err == nil {
			err = writeMerged(*out, set, rep, runID)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "benchy merge: %v\n", err)
			return ExitFail
		}
		fmt.Fprintf(e.stderr, "merged %s of %s: already recorded as run %s in %s\n", count(set.N, "shard"), dir, runID, stored)
		printSummary(e.stderr, rep, *out)
		return ExitOK
	}
	if st != nil {
		rep, err = workspace.MergeInto(st, runID, set) // the server's cluster executor merges so too
	} else {
		rep, err = set.Report(nil)
	}
	if errors.As(err, &un) {
		printUnfinished(e.stderr, set, un)
		if st != nil {
			st.SetStatus(runID, store.Interrupted)
		}
		return ExitFail
	}
	if err == nil {
		err = writeMerged(*out, set, rep, runID)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy merge: %v\n", err)
		if st != nil {
			st.SetStatus(runID, store.Interrupted)
		}
		return ExitFail
	}
	fmt.Fprintf(e.stderr, "merged %s of %s\n", count(set.N, "shard"), dir)
	printSummary(e.stderr, rep, *out)
	if st != nil {
		fmt.Fprintf(e.stderr, "recorded as run %s in %s\n", runID, stored)
	}
	return ExitOK
}

// printUnfinished names each shard a merge lacks and the command that runs it again.
func printUnfinished(w io.Writer, set *shard.Set, un *shard.Unfinished) {
	bench := "BENCH"
	if set != nil {
		if m := set.Any(); m != nil && m.Benchmark != "" {
			bench = shellArg(m.Benchmark)
		}
	}
	fmt.Fprintf(w, "benchy merge: %s not ready: %s\n", un.Dir, un.Error())
	dir, prog := shellArg(un.Dir), shellArg(invokedAs()) // the commands as the user may type them again
	runs := shard.Runs(un.Shards)
	for i, r := range runs {
		if i == shard.MaxRuns {
			fmt.Fprintf(w, "  and %d more runs of shards: %s slurm status %s (or %s merge again once these ran) lists them\n", len(runs)-shard.MaxRuns, prog, dir, prog)
			break
		}
		// A damaged journal is refused by its shard's run as by the merge: it goes first.
		rm := ""
		if r.Damaged {
			rm = "rm " + shellArg(filepath.Join(un.Dir, shard.Dir("", engine.Shard{K: r.From, N: r.N}), shard.JournalFile)) + " && "
		}
		if r.Single() {
			fmt.Fprintf(w, "  re-run shard %d/%d: %s%s run %s --shard %d/%d --out-dir %s\n", r.From, r.N, rm, prog, bench, r.From, r.N, dir)
			continue
		}
		fmt.Fprintf(w, "  %s: re-run them with %s slurm submit %s --shards %d --out-dir %s --only %s, or one by one with %s run %s --shard K/%d --out-dir %s\n",
			r, prog, bench, r.N, dir, r.Range(), prog, bench, r.N, dir)
	}
}

// openMergeStore creates the merged run in the store of workspace ws (the workspace ws is
// in, as benchy finds it), running with its total and dataset known, its identities those
// of the shards. It returns the store file it opened, and when the same shards were merged
// into it before (workspace.Merged), that run with already true and no new run.
func openMergeStore(ws string, set *shard.Set) (st *store.Store, runID, file string, already bool, err error) {
	m := set.Manifests[0]
	abs, err := filepath.Abs(ws)
	if err != nil {
		return nil, "", "", false, err
	}
	if found, ok := workspace.Find(abs); ok && found != "" {
		abs = found
	}
	bench := m.Benchmark
	if rel, err := filepath.Rel(abs, bench); err == nil && filepath.IsAbs(bench) && !strings.HasPrefix(rel, "..") {
		bench = filepath.ToSlash(rel)
	}
	file = storePath(abs)
	if st, err = store.Open(file); err != nil {
		return nil, "", "", false, err
	}
	if runID, err = workspace.Merged(st, set); err != nil || runID != "" {
		if err != nil {
			st.Close()
			return nil, "", "", false, err
		}
		return st, runID, file, true, nil
	}
	run, err := st.CreateRun(store.RunSpec{Benchmark: bench, IR: set.Canonical, IRHash: m.IRHash, AISystem: set.IR.AISystem, Binding: m.Binding,
		Options: store.Options{Limit: m.Limit, Concurrency: max(1, m.Concurrency)}, BenchmarkHash: m.BenchmarkHash, System: m.System})
	if err == nil {
		err = st.MarkRunning(run.ID, m.Total)
	}
	if err == nil {
		err = st.SetDataset(run.ID, m.DatasetDigest)
	}
	if err != nil {
		st.Close()
		return nil, "", "", false, err
	}
	return st, run.ID, file, false, nil
}

// writeMerged writes the merged document to out, whole or not at all.
func writeMerged(out string, set *shard.Set, rep *engine.Report, runID string) error {
	return writeDocument(out, rep, runID, func(w io.Writer) error { return set.WriteDocument(w, rep) })
}

// mergeOutClash says why -o cannot be written, or "": a device, FIFO or folder (written
// through a file beside it and renamed over it, /dev/null itself would be replaced), a
// missing folder, a shard's own journal or manifest, or a file of the store the merge
// records into.
func mergeOutClash(out, dir, into string) string {
	var files []guarded
	shards, _ := filepath.Glob(filepath.Join(dir, "shard-*-of-*", "*"))
	for _, f := range shards {
		files = append(files, guarded{f, "a file of shard folder " + filepath.Dir(f)})
	}
	ws, _ := workspace.Find(filepath.Dir(out))
	files = append(files, storeFiles(ws)...)
	if into != "" {
		if iws, _ := workspace.Find(into); iws != "" {
			files = append(files, storeFiles(iws)...)
		}
	}
	return writeClash("-o", out, ws, files)
}

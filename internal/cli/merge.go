package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/shard"
	"github.com/benchy-eval/benchy/store"
)

// runMerge is benchy merge DIR (issue 17): the shards' journals under DIR, checked to be
// one run's and to hold every example exactly once, read round-robin into the result
// document an unsharded run writes (but for started_at, finished_at, concurrency and
// shards), and with --into-store recorded as one completed run of that workspace. Nothing
// of the shards is taken on trust: --benchmark names the benchmark they ran, whose
// identities (as it now is in its workspace, bound through its runtime file) every
// manifest must carry, and every line is scored again against its dataset.
func runMerge(e *env, args []string) int {
	fs := flags(e, "merge")
	out := fs.String("o", "results.json", "where to write the merged result document")
	into := fs.String("into-store", "", "also record the merged run, as one completed run, in the store of workspace `WORKSPACE` (its web app, compare and leaderboard show it)")
	bench := fs.String("benchmark", "", "the benchmark `FILE` the shards ran (default: the one benchmark file of the workspace, of --into-store's, the shards' folder's or the working directory's, whose IR has the shards' IR hash): every manifest must carry its identities as it now is, every line is scored again against its dataset, and a stored run names it")
	runtimePath := fs.String("runtime", "", "the runtime `FILE` the shards bound the AI-system through, as benchy run --runtime (default: found as benchy run finds it)")
	allowOutside := fs.Bool("allow-outside", false, "read the dataset from outside the benchmark's workspace, as benchy run --allow-outside")
	pos, code, ok := parseArgs(e, fs, args, 1, "DIR")
	if !ok {
		return code
	}
	dir := pos[0]
	if *bench == "-" {
		fmt.Fprintln(e.stderr, "benchy merge: --benchmark names the benchmark file the shards ran, not standard input")
		return ExitUsage
	}
	if why := mergeOutClash(*out, dir, *into); why != "" { // before any work
		fmt.Fprintf(e.stderr, "benchy merge: %s\n", why)
		return ExitUsage
	}
	set, err := shard.Open(dir)
	var un *shard.Unfinished
	if errors.As(err, &un) {
		hint := *bench
		if hint == "" && set != nil {
			hint, _ = findShardBenchmark(set, *into, dir, ".")
		}
		if hint == "" {
			hint = "BENCH"
		}
		printUnfinished(e.stderr, hint, un)
		return ExitFail
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy merge: %v\n", err)
		return ExitFail
	}
	if *bench == "" {
		found, err := findShardBenchmark(set, *into, dir, ".")
		if err != nil {
			fmt.Fprintf(e.stderr, "benchy merge: %v\n", err)
			return ExitFail
		}
		*bench = found
		fmt.Fprintf(e.stderr, "the shards ran %s (found by their IR hash; --benchmark FILE names it)\n", found)
	}
	plan, code := mergePlan(e, *bench, *runtimePath, *allowOutside)
	if plan == nil {
		return code
	}
	want := workspace.WantOf(plan)
	var rep *engine.Report
	if *into == "" {
		rep, err = set.Report(want, nil)
		if err == nil {
			err = writeMerged(*out, set, rep, "")
		}
		if err != nil {
			return mergeFailed(e, *bench, err)
		}
		fmt.Fprintf(e.stderr, "merged %s of %s\n", count(set.N, "shard"), dir)
		printSummary(e.stderr, rep, *out)
		return mergedExit(e, rep)
	}
	st, ws, benchRel, err := openMergeStore(*into, *bench)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy merge: --into-store %s: %v\n", *into, err)
		return ExitFail
	}
	defer st.Close()
	stored := storePath(ws)
	// Checked first, before anything is recorded, which gives the lines' digest to look
	// them up by.
	if rep, err = set.Report(want, nil); err != nil {
		return mergeFailed(e, *bench, err)
	}
	runID, other, err := workspace.Merged(st, set, rep)
	if err == nil && runID != "" { // these lines were merged into it before: the document again, no twin run
		if err = writeMerged(*out, set, rep, runID); err != nil {
			return mergeFailed(e, *bench, err)
		}
		fmt.Fprintf(e.stderr, "merged %s of %s: already recorded as run %s in %s\n", count(set.N, "shard"), dir, runID, stored)
		printSummary(e.stderr, rep, *out)
		return mergedExit(e, rep)
	}
	if err == nil {
		runID, rep, err = workspace.MergeInto(st, func() (string, error) { return createMerged(st, plan, benchRel, set) }, set, want)
	}
	if err == nil {
		err = writeMerged(*out, set, rep, runID)
	}
	if err != nil {
		if runID != "" { // checked once, then refused while it was recorded: the journals changed
			if a := workspace.Refusal(err); a != nil {
				st.Abort(runID, a)
			} else {
				st.SetStatus(runID, store.Interrupted)
			}
		}
		return mergeFailed(e, *bench, err)
	}
	fmt.Fprintf(e.stderr, "merged %s of %s\n", count(set.N, "shard"), dir)
	printSummary(e.stderr, rep, *out)
	fmt.Fprintf(e.stderr, "recorded as run %s in %s\n", runID, stored)
	if other != "" {
		// Recorded all the same: refused, a merge of genuine shards would be kept out of the
		// store for as long as an edited merge of them is in it, which no command removes.
		fmt.Fprintf(e.stderr, "benchy merge: warning: run %s was merged from these shards' manifests with other lines: "+
			"the journals of one of the two merges were edited; compare the two runs' results (benchy runs export --format jsonl %s, and %s)\n", other, other, runID)
	}
	return mergedExit(e, rep)
}

// mergedExit is the exit code of a merge that wrote rep: ExitInfra, as benchy run's, when
// every example was an execution error (the score measures the setup, and a CI job of
// shards must fail as the unsharded run would), else ExitOK.
func mergedExit(e *env, rep *engine.Report) int {
	if s := rep.Summary; s.Examples > 0 && s.ExecutionErrors == s.Examples {
		fmt.Fprintln(e.stderr, "benchy merge: every example was an execution error: the AI-system answered no example with an output; its score measures the setup, and no leaderboard ranks it")
		return ExitInfra
	}
	return ExitOK
}

// mergeFailed prints why a merge was refused: shards to run again with their commands, or
// the error.
func mergeFailed(e *env, bench string, err error) int {
	var un *shard.Unfinished
	if errors.As(err, &un) {
		printUnfinished(e.stderr, bench, un)
	} else {
		fmt.Fprintf(e.stderr, "benchy merge: %v\n", err)
	}
	return ExitFail
}

// mergePlan prepares the benchmark the shards ran as benchy run --shard would, without
// sending anything (a provider's key need not be set): what the shards are held to.
func mergePlan(e *env, bench, runtimePath string, allowOutside bool) (*workspace.Plan, int) {
	src, err := readInput(e, bench)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy merge: --benchmark: %v\n", err)
		return nil, ExitFail
	}
	benchDir := filepath.Dir(bench)
	ws, _ := workspace.Find(benchDir)
	plan, err := workspace.Prepare(workspace.Source{Name: displayName(bench), Text: src}, workspace.Setup{
		Dir: benchDir, Paths: runPaths(benchDir, ws, allowOutside), NoRuntime: ", or pass --runtime FILE", Log: e.stderr, Offline: true,
		Runtime: func() (*adapter.Runtime, string, error) { return workspace.RuntimeFor(runtimePath, bench) }})
	if err != nil {
		var ds diag.List
		var notIR *workspace.NotIR
		if errors.As(err, &ds) || errors.As(err, &notIR) {
			fmt.Fprintln(e.stderr, err)
		} else {
			fmt.Fprintf(e.stderr, "benchy merge: --benchmark %s: %v\n", bench, err)
		}
		return nil, ExitFail
	}
	return plan, ExitOK
}

// printUnfinished names each shard a merge lacks and the command that runs it again, of
// bench, the benchmark the merge was given (never a path a manifest names).
func printUnfinished(w io.Writer, bench string, un *shard.Unfinished) {
	bench = shellArg(bench)
	fmt.Fprintf(w, "benchy merge: %s not ready: %s\n", un.Dir, un.Error())
	dir, prog := shellArg(un.Dir), shellArg(invokedAs()) // the commands as the user may type them again
	runs := shard.Runs(un.Shards)
	for i, r := range runs {
		if i == shard.MaxRuns {
			fmt.Fprintf(w, "  and %d more runs of shards: %s slurm status %s (or %s merge again once these ran) lists them\n", len(runs)-shard.MaxRuns, prog, dir, prog)
			break
		}
		// A damaged journal is refused by its shard's run as by the merge, and a damaged
		// manifest's start kept by it: the file goes first.
		rm := ""
		if r.Remove != "" {
			rm = "rm " + shellArg(filepath.Join(un.Dir, shard.Dir("", engine.Shard{K: r.From, N: r.N}), r.Remove)) + " && "
		}
		if r.Single() {
			fmt.Fprintf(w, "  re-run shard %d/%d: %s%s run %s --shard %d/%d --out-dir %s\n", r.From, r.N, rm, prog, bench, r.From, r.N, dir)
			continue
		}
		fmt.Fprintf(w, "  %s: re-run them with %s slurm submit %s --shards %d --out-dir %s --only %s, or one by one with %s run %s --shard K/%d --out-dir %s\n",
			r, prog, bench, r.N, dir, r.Range(), prog, bench, r.N, dir)
	}
}

// openMergeStore opens the store of workspace ws (the workspace ws is in, as benchy finds
// it) and returns it with that workspace and the benchmark bench relative to it, as the
// run will name it: a benchmark outside the workspace is refused, since a stored run names
// a file of its workspace.
func openMergeStore(ws, bench string) (st *store.Store, root, rel string, err error) {
	root, err = filepath.Abs(ws)
	if err != nil {
		return nil, "", "", err
	}
	if found, ok := workspace.Find(root); ok && found != "" {
		root = found
	}
	abs, err := filepath.Abs(bench)
	if err != nil {
		return nil, "", "", err
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs)) // as Find found the workspace
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	rel, err = filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, "", "", fmt.Errorf("the benchmark %s is not inside the workspace %s: a stored run names a file of its workspace", bench, root)
	}
	if st, err = store.Open(storePath(root)); err != nil {
		return nil, "", "", err
	}
	return st, root, filepath.ToSlash(rel), nil
}

// createMerged creates the merged run of plan's benchmark (bench, relative to the
// workspace) in st, running with its total and dataset known: its identities are plan's,
// which every manifest was checked to carry; only the limit, the workers and the dataset
// digest (checked against the dataset) come from the shards.
func createMerged(st *store.Store, plan *workspace.Plan, bench string, set *shard.Set) (string, error) {
	m := set.Manifests[0]
	run, err := st.CreateRun(plan.Spec(bench, store.Options{Limit: m.Limit, Concurrency: max(1, m.Concurrency)}))
	if err == nil {
		err = st.MarkRunning(run.ID, m.Total)
	}
	if err == nil {
		err = st.SetDataset(run.ID, m.DatasetDigest)
	}
	if err != nil && run.ID != "" {
		st.SetStatus(run.ID, store.Interrupted)
	}
	return run.ID, err
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

package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
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
	runID := ""
	if *into != "" {
		st, runID, err = openMergeStore(*into, set)
		if err != nil {
			fmt.Fprintf(e.stderr, "benchy merge: --into-store %s: %v\n", *into, err)
			return ExitFail
		}
		defer st.Close()
	}
	var rep *engine.Report
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
		fmt.Fprintf(e.stderr, "recorded as run %s in %s\n", runID, storePath(*into))
	}
	return ExitOK
}

// printUnfinished names each shard a merge lacks and the command that runs it again.
func printUnfinished(w io.Writer, set *shard.Set, un *shard.Unfinished) {
	bench := "BENCH"
	if set != nil {
		if m := set.Any(); m != nil && m.Benchmark != "" {
			bench = shellQuote(m.Benchmark)
		}
	}
	fmt.Fprintf(w, "benchy merge: %s not ready: %s\n", un.Dir, un.Error())
	for _, m := range un.Shards {
		fmt.Fprintf(w, "  re-run shard %s: benchy run %s --shard %s --out-dir %s\n", m.Shard, bench, m.Shard, shellQuote(un.Dir))
	}
}

// shellQuote is s as a shell word.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:+,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// openMergeStore creates the merged run in the store of workspace ws, running with its
// total and dataset known, its identities those of the shards.
func openMergeStore(ws string, set *shard.Set) (*store.Store, string, error) {
	m := set.Manifests[0]
	abs, err := filepath.Abs(ws)
	if err != nil {
		return nil, "", err
	}
	if found, ok := workspace.Find(abs); ok && found != "" {
		abs = found
	}
	bench := m.Benchmark
	if rel, err := filepath.Rel(abs, bench); err == nil && filepath.IsAbs(bench) && !strings.HasPrefix(rel, "..") {
		bench = filepath.ToSlash(rel)
	}
	st, err := store.Open(storePath(abs))
	if err != nil {
		return nil, "", err
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
		return nil, "", err
	}
	return st, run.ID, nil
}

// writeMerged writes the merged document to out, whole or not at all.
func writeMerged(out string, set *shard.Set, rep *engine.Report, runID string) error {
	f, err := tempBeside(out)
	if err != nil {
		return err
	}
	tmp := f.Name()
	var w io.Writer = f
	if runID != "" {
		w, err = withRunID(f, rep, runID)
	}
	if err == nil {
		err = set.WriteDocument(w, rep)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(out))
}

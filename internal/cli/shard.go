package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/shard"
)

// shardFlags are benchy run's flags for one shard of a run (issue 17): --shard K/N or auto,
// --shards N (with auto), --out-dir DIR.
type shardFlags struct {
	spec   string
	shards int
	outDir string
}

func (s *shardFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.spec, "shard", "", "evaluate only shard `K/N` of the run (example i is in shard i % N; K from 0), into --out-dir; auto: K from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX, N from --shards (else SLURM_ARRAY_TASK_COUNT)")
	fs.IntVar(&s.shards, "shards", 0, "with --shard auto, the number of shards `N` (job scripts always pass it: a task resubmitted alone sees a count of 1)")
	fs.StringVar(&s.outDir, "out-dir", "", "with --shard, the folder `DIR` (on a filesystem every shard sees) that gets DIR/shard-K-of-N/manifest.json and results.jsonl, for benchy merge")
}

// given reports whether benchy run is a shard's.
func (s *shardFlags) given(fs *flag.FlagSet) bool {
	return s.spec != "" || flagGiven(fs, "shards") || s.outDir != ""
}

// parseShard is --shard as an engine.Shard: "K/N", or "auto" from the environment of a
// Slurm array task or a Kubernetes Indexed Job's pod, N from shards when it is above 0.
func parseShard(spec string, shards int, getenv func(string) string) (engine.Shard, error) {
	if spec == "auto" {
		id, from := getenv("SLURM_ARRAY_TASK_ID"), "SLURM_ARRAY_TASK_ID"
		if index := getenv("JOB_COMPLETION_INDEX"); id != "" && index != "" {
			// Which one K is cannot be guessed: a pod that runs sbatch, or a Slurm task
			// that kept a pod's environment.
			return engine.Shard{}, fmt.Errorf("--shard auto: both SLURM_ARRAY_TASK_ID (%s) and JOB_COMPLETION_INDEX (%s) are set, so K is ambiguous; pass --shard K/N", id, index)
		} else if id == "" {
			id, from = index, "JOB_COMPLETION_INDEX"
		}
		if id == "" {
			return engine.Shard{}, errors.New("--shard auto: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set; pass --shard K/N")
		}
		k, err := strconv.Atoi(id)
		if err != nil {
			return engine.Shard{}, fmt.Errorf("--shard auto: %s=%q is not a number", from, id)
		}
		n := shards
		if n == 0 && from == "SLURM_ARRAY_TASK_ID" {
			if n, err = strconv.Atoi(getenv("SLURM_ARRAY_TASK_COUNT")); err != nil {
				return engine.Shard{}, errors.New("--shard auto: pass --shards N (SLURM_ARRAY_TASK_COUNT is not set)")
			}
		}
		if n == 0 {
			return engine.Shard{}, fmt.Errorf("--shard auto with %s: pass --shards N", from)
		}
		s := engine.Shard{K: k, N: n}
		if n > engine.MaxShards {
			return engine.Shard{}, fmt.Errorf("--shard auto: %d shards: N is at most %d, the most a Kubernetes Indexed Job takes", n, engine.MaxShards)
		}
		if s.Check() != nil || n < 1 {
			return engine.Shard{}, fmt.Errorf("--shard auto: %s=%d is not a shard of %d (K counts from 0, below N); pass --shards N", from, k, n)
		}
		return s, nil
	}
	ks, ns, ok := strings.Cut(spec, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	s := engine.Shard{K: k, N: n}
	if ok && err1 == nil && err2 == nil && n > engine.MaxShards {
		return engine.Shard{}, fmt.Errorf("--shard %q: N is at most %d, the most a Kubernetes Indexed Job takes", spec, engine.MaxShards)
	}
	if !ok || err1 != nil || err2 != nil || n < 1 || s.Check() != nil {
		return engine.Shard{}, fmt.Errorf("--shard %q: want K/N with 0 ≤ K < N (K counts from 0), or auto", spec)
	}
	if shards != 0 && shards != n {
		return engine.Shard{}, fmt.Errorf("--shard %s and --shards %d disagree", spec, shards)
	}
	return s, nil
}

// shardRefusals are the flags of benchy run that make no sense for one shard, and why.
var shardRefusals = []struct{ flag, why string }{
	{"o", "a shard writes DIR/shard-K-of-N/results.jsonl; benchy merge DIR -o FILE writes the result document"},
	{"resume", "a shard continues its own journal when run again"},
	{"system", "a shard runs the benchmark's own AI-system"},
	{"model", "a shard runs the benchmark's own AI-system"},
	{"system-file", "a shard runs the benchmark's own AI-system"},
	{"parallel-systems", "a shard runs one AI-system"},
	{"junit", "benchy merge writes the whole run's results"},
	{"fail-under", "a gate judges the merged run"},
	{"fail-under-ci", "a gate judges the merged run"},
	{"max-cost", "a budget caps a whole run, not a shard"},
	{"max-tokens", "a budget caps a whole run, not a shard"},
	{"estimate", "estimate the whole run without --shard"},
	{"cache", "a shard uses no response cache, which lives in one SQLite file that shards on several machines cannot share"},
}

// runShard is benchy run --shard: it evaluates one shard of the run into out-dir, with no
// store (the folder is on a shared filesystem, a SQLite file is not), continuing the
// shard's journal when it was run before.
func runShard(e *env, fs *flag.FlagSet, sf shardFlags, bench string, src workspace.Source, setup workspace.Setup, concurrency, limit, record int) int {
	for _, r := range shardRefusals {
		if flagGiven(fs, r.flag) {
			spelt := "--" + r.flag
			if len(r.flag) == 1 {
				spelt = "-" + r.flag
			}
			fmt.Fprintf(e.stderr, "benchy run: %s cannot go with --shard: %s\n", spelt, r.why)
			return ExitUsage
		}
	}
	if sf.spec == "" || sf.outDir == "" {
		fmt.Fprintln(e.stderr, "benchy run: --shard K/N (or auto) and --out-dir DIR go together")
		return ExitUsage
	}
	if bench == "-" {
		fmt.Fprintln(e.stderr, "benchy run: --shard needs the benchmark as a file every shard reads, not standard input")
		return ExitUsage
	}
	s, err := parseShard(sf.spec, sf.shards, os.Getenv)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitUsage
	}
	setup.CacheMode, setup.Cache = provider.CacheOff, nil // over the runtime file's cache: too
	plan, err := workspace.Prepare(src, setup)
	if err != nil {
		return prepareFailed(e, err)
	}
	if batchRun(plan) {
		fmt.Fprintln(e.stderr, "benchy run: --shard cannot go with a provider's batch: true: a batch run is sent to the provider as a whole; run it without --shard")
		return ExitUsage
	}
	dir := shard.Dir(sf.outDir, s)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}
	sys := plan.System
	absBench, _ := filepath.Abs(bench)
	m := &shard.Manifest{IRHash: plan.IRHash, BenchmarkHash: plan.BenchmarkHash, System: &sys, Binding: plan.Binding,
		Benchmark: absBench, K: s.K, N: s.N, Limit: limit, BenchyVersion: benchyVersion(), IR: plan.Canonical}
	prev, err := shard.ReadManifest(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		prev = nil
		os.Remove(filepath.Join(dir, shard.JournalFile)) // a journal no manifest vouches for is not continued
	case err != nil:
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}
	if prev != nil {
		m.DatasetDigest, m.Total = prev.DatasetDigest, prev.Total // checked once the dataset is
		if d := prev.Disagreement(m); d != "" || prev.K != s.K {
			fmt.Fprintf(e.stderr, "benchy run: %s holds shard %d/%d of another run (%s): remove it, or give another --out-dir\n", dir, prev.K, prev.N, d)
			return ExitFail
		}
		m.StartedAt = prev.StartedAt
	}
	j, err := shard.OpenJournal(filepath.Join(dir, shard.JournalFile), s)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}
	defer j.Close()
	// The kept lines are held to the rule the merge holds every line to: each must be the
	// result the benchmark gives its prediction, scored again against the dataset.
	if digest, err := j.Rescore(plan.IR, plan.BenchmarkDir, plan.Paths); err != nil {
		if prev != nil && digest != "" && digest != prev.DatasetDigest {
			fmt.Fprintf(e.stderr, "benchy run: %s holds shard %s of a run of another dataset (%s; now %s): remove it, or give another --out-dir\n", dir, s, prev.DatasetDigest, digest)
		} else {
			fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		}
		return ExitFail
	}
	if j.Kept() > 0 || j.Torn() > 0 {
		fmt.Fprintf(e.stderr, "shard %s: continuing its journal: %s kept", s, count(j.Kept(), "result"))
		if j.Torn() > 0 {
			fmt.Fprintf(e.stderr, ", a torn last line of %d bytes dropped", j.Torn())
		}
		fmt.Fprintln(e.stderr)
	}
	if m.StartedAt == "" {
		m.StartedAt = time.Now().UTC().Format(time.RFC3339Nano)
	}
	m.Concurrency = min(concurrency, 1<<30)
	ctx, stop := runContext()
	defer stop()
	bar := newProgressBar(e.stderr)
	opts := engine.Options{BenchmarkDir: plan.BenchmarkDir, Paths: plan.Paths, IRHash: plan.IRHash, BenchmarkHash: plan.BenchmarkHash,
		System: &sys, Binding: plan.Binding, Concurrency: concurrency, Limit: limit, RecordRequests: record, Shard: s,
		Results: j, Prior: j.Prior, Progress: bar.update,
		Validated: func(v engine.Validated) error {
			if prev != nil && (prev.DatasetDigest != v.Digest || prev.Total != v.All) {
				return fmt.Errorf("%s holds shard %s of a run of another dataset (%s, %d examples; now %s, %d): remove it, or give another --out-dir",
					dir, s, prev.DatasetDigest, prev.Total, v.Digest, v.All)
			}
			m.DatasetDigest, m.Total, m.Examples = v.Digest, v.All, v.Total
			m.Concurrency = min(concurrency, v.Total)
			return shard.WriteManifest(dir, m)
		}}
	rep, err := engine.Run(ctx, plan.IR, plan.Factory, opts)
	bar.finish()
	if cerr := j.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %w", shard.JournalFile, cerr)
	}
	if err != nil {
		var a *engine.Abort
		if errors.As(err, &a) {
			fmt.Fprintln(e.stderr, a.Error())
		} else {
			fmt.Fprintf(e.stderr, "benchy run: shard %s: %v (run it again to go on from its journal)\n", s, err)
		}
		return ExitFail
	}
	m.FinishedAt, m.Complete = time.Now().UTC().Format(time.RFC3339Nano), true
	if err := shard.WriteManifest(dir, m); err != nil {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}
	fmt.Fprintf(e.stderr, "shard %s: %s of %d done (valid %d · invalid_output %d · execution_error %d): %s\n", s, count(rep.Summary.Examples, "example"), m.Total,
		rep.Summary.Valid, rep.Summary.InvalidOutputs, rep.Summary.ExecutionErrors, dir)
	return ExitOK
}

// benchyVersion is the module version benchy was built as ("(devel)" from a work tree).
func benchyVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// batchRun says plan's AI-system is a model whose provider has batch: true. Only a
// model's adapter is made to ask (a value: no process starts).
func batchRun(plan *workspace.Plan) bool {
	if plan.IR.AISystem.Type != ir.SystemModel {
		return false
	}
	a, err := plan.Factory()
	if err != nil {
		return false
	}
	defer a.Close()
	_, ok := provider.Batching(a)
	return ok
}

package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/workspace"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ir/irschema"
	"github.com/benchy-eval/benchy/store"
)

func runRun(e *env, args []string) int {
	fs := flags(e, "run")
	runtimePath := fs.String("runtime", "", "the runtime file binding AI-systems to adapters (default: the nearest "+adapter.RuntimeFile+" at or above the benchmark's folder within its workspace, else the working directory's)")
	out := fs.String("o", "results.json", "where to write the result document; results stream to the same name with .jsonl while the run goes")
	concurrency := fs.Int("concurrency", engine.DefaultConcurrency(), "examples evaluated at once")
	limit := fs.Int("limit", 0, "evaluate only the first N examples (0: all)")
	noStore := fs.Bool("no-store", false, "do not record the run in its workspace's store (.benchy/benchy.db)")
	allowOutside := fs.Bool("allow-outside", false, "read the dataset, artifacts and prompt file from anywhere, not only from inside the benchmark's workspace (never the runtime file or hidden files such as .env and .benchy/)")
	pos, code, ok := parse(e, fs, args, 1)
	if !ok {
		return code
	}
	if *concurrency < 1 || *limit < 0 {
		fmt.Fprintln(e.stderr, "benchy run: --concurrency must be at least 1 and --limit at least 0")
		return ExitUsage
	}
	b, canonical, hash, code := loadBenchmark(e, pos[0])
	if b == nil {
		return code
	}
	rt, rtName, err := findRuntime(*runtimePath, pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}
	paths := runPaths(pos[0], *allowOutside)
	if rt != nil {
		paths.Private = []string{rtName} // the runtime file, whatever its name
	}
	factory, binding, err := bind(rt, b, filepath.Dir(pos[0]), paths, e.stderr)
	switch {
	case errors.Is(err, engine.ErrMissingBinding):
		msg := strings.TrimPrefix(err.Error(), engine.ErrMissingBinding.Error()+": ")
		d := diag.Diagnostic{Phase: engine.PhaseSetup, Code: diag.MissingBinding, Path: []string{"ai-system"}, Message: msg, Line: 1, Column: 1}
		fmt.Fprint(e.stderr, diag.List{d}.Format(rtName))
		return ExitFail
	case err != nil: // a provider that is defined but cannot be used: its key's variable unset, say
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}

	stream := strings.TrimSuffix(*out, ".json") + ".jsonl"
	if msg := outputClash(*out, stream, filepath.Dir(pos[0]), b, readFiles(pos[0], rt, rtName)); msg != "" {
		fmt.Fprintf(e.stderr, "benchy run: %s\n", msg)
		return ExitUsage
	}
	// Before the store and any AI-system call: a second run writing either file stops here.
	lock, err := lockOutput(*out, stream)
	if err != nil {
		if errors.Is(err, errOutputBusy) {
			err = fmt.Errorf("%s: %w; wait for it to end, or choose another -o", *out, err)
		}
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return ExitFail
	}
	defer lock.release()
	// The stream is created when the first result arrives, after the dataset was checked,
	// so a run that aborts leaves earlier results alone.
	jsonl := &lazyFile{path: stream, stale: *out}
	defer jsonl.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var rec *recorder
	if !*noStore && pos[0] != "-" {
		rec = openRecorder(e.stderr, pos[0], store.RunSpec{IR: canonical, IRHash: hash, AISystem: b.AISystem,
			Binding: binding, Options: store.Options{Limit: *limit, Concurrency: *concurrency}})
		defer rec.close()
	}
	bar := newProgressBar(e.stderr)
	opts := engine.Options{
		BenchmarkDir: filepath.Dir(pos[0]), Paths: paths, IRHash: hash, Binding: binding, Concurrency: *concurrency,
		Limit: *limit, Results: jsonl,
		Progress: func(p engine.Progress) { rec.progress(p); bar.update(p) },
	}
	if rec != nil {
		opts.OnResult = rec.result
	}
	rep, err := engine.Run(ctx, b, factory, opts)
	bar.finish()
	stored := rec.end(ctx, rep, err)
	defer rec.summary(e.stderr, stored)
	if err != nil {
		var a *engine.Abort
		if errors.As(err, &a) {
			fmt.Fprintln(e.stderr, a.Error())
		} else {
			fmt.Fprintf(e.stderr, "benchy run: %v (the results so far are in %s)\n", err, stream)
		}
		return ExitFail
	}
	if err := assemble(*out, stream, rep); err != nil {
		fmt.Fprintf(e.stderr, "benchy run: writing %s: %v\n", *out, err)
		return ExitFail
	}
	printSummary(e.stderr, rep, *out)
	return ExitOK
}

// loadBenchmark reads a benchmark as YAML (compiled) or as IR JSON, and returns its
// canonical IR and hash.
func loadBenchmark(e *env, name string) (*ir.Benchmark, []byte, string, int) {
	src, err := readInput(e, name)
	if err != nil {
		fmt.Fprintf(e.stderr, "benchy run: %v\n", err)
		return nil, nil, "", ExitFail
	}
	if trimmed := bytes.TrimSpace(src); strings.HasSuffix(name, ".json") || bytes.HasPrefix(trimmed, []byte("{\"")) {
		var strict *engine.StrictError
		if _, err := engine.DecodeJSON(src); errors.As(err, &strict) {
			fmt.Fprintf(e.stderr, "%s: not a Benchy IR: not strict JSON (RFC 8259): %v\n", displayName(name), err)
			return nil, nil, "", ExitFail
		}
		if err := irschema.Validate(src); err != nil {
			fmt.Fprintf(e.stderr, "%s: not a Benchy IR: %v\n", displayName(name), err)
			return nil, nil, "", ExitFail
		}
		b, err := ir.Unmarshal(src)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", displayName(name), err)
			return nil, nil, "", ExitFail
		}
		if ds := compiler.VerifyIR(b); len(ds) > 0 {
			for _, d := range ds {
				fmt.Fprintf(e.stderr, "%s: not a valid Benchy IR: %s: %s\n", displayName(name), d.Code, d.Message)
			}
			return nil, nil, "", ExitFail
		}
		return hashed(e, name, b)
	}
	b, ds := compiler.Compile(src)
	if len(ds) > 0 {
		fmt.Fprint(e.stderr, ds.Format(displayName(name)))
		return nil, nil, "", ExitFail
	}
	return hashed(e, name, b)
}

// hashed returns b with its canonical bytes and hash.
func hashed(e *env, name string, b *ir.Benchmark) (*ir.Benchmark, []byte, string, int) {
	canonical, err := ir.Marshal(b)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", displayName(name), err)
		return nil, nil, "", ExitFail
	}
	return b, canonical, ir.Hash(canonical), ExitOK
}

// findRuntime loads the runtime file named, or else the one the benchmark binds through by
// the rule of package workspace, or else the working directory's. A missing default is not
// an error: the binding step says what is missing.
func findRuntime(named, benchmark string) (*adapter.Runtime, string, error) {
	if named != "" {
		rt, err := adapter.LoadRuntime(named)
		return rt, named, err
	}
	p, ok := workspace.RuntimeOf(filepath.Dir(benchmark))
	if !ok {
		p = adapter.RuntimeFile // the working directory's
	}
	if _, err := os.Stat(p); err != nil {
		return nil, adapter.RuntimeFile, nil
	}
	rt, err := adapter.LoadRuntime(p)
	return rt, p, err
}

// bind finds b's adapter; benchDir is the benchmark file's directory, where a prompt file is,
// read within paths.
func bind(rt *adapter.Runtime, b *ir.Benchmark, benchDir string, paths engine.Paths, log io.Writer) (engine.Factory, string, error) {
	if rt == nil {
		return nil, "", fmt.Errorf("%w: %s, or pass --runtime FILE", engine.ErrMissingBinding, workspace.NoRuntime(b.AISystem))
	}
	return rt.FactoryIn(b, benchDir, paths, log)
}

// printSummary ends a run: the score with its interval, the counts, the worst dimensions.
func printSummary(w io.Writer, rep *engine.Report, out string) {
	start, _ := time.Parse(time.RFC3339Nano, rep.StartedAt)
	end, _ := time.Parse(time.RFC3339Nano, rep.FinishedAt)
	fmt.Fprintf(w, "score %.4f (95%% CI %.4f–%.4f, %s) over %d examples in %s\n",
		rep.BenchmarkScore, rep.Confidence.Low, rep.Confidence.High, rep.Confidence.Method,
		rep.Summary.Examples, end.Sub(start).Round(time.Millisecond))
	fmt.Fprintf(w, "valid %d · invalid_output %d · execution_error %d\n",
		rep.Summary.Valid, rep.Summary.InvalidOutputs, rep.Summary.ExecutionErrors)
	if worst := worstDimensions(rep.Dimensions, 3); worst != "" {
		fmt.Fprintf(w, "worst dimensions: %s\n", worst)
	}
	fmt.Fprintf(w, "results: %s\n", out)
}

func worstDimensions(dims []engine.DimensionAccuracy, n int) string {
	var parts []string
	used := map[int]bool{}
	for len(parts) < n {
		best := -1
		for i, d := range dims {
			if d.Accuracy == nil || used[i] || d.Weight == 0 {
				continue
			}
			if best < 0 || *d.Accuracy < *dims[best].Accuracy {
				best = i
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		d := dims[best]
		parts = append(parts, fmt.Sprintf("%s %.2f", strings.Join(d.Path, "."), *d.Accuracy))
	}
	return strings.Join(parts, ", ")
}

// readFiles are the files a run of benchmark reads besides its dataset and artifacts, which
// -o must not name: the benchmark, the runtime file, the workspace's store.
func readFiles(benchmark string, rt *adapter.Runtime, rtName string) []guarded {
	var files []guarded
	if benchmark != "-" {
		files = append(files, guarded{benchmark, "the benchmark " + benchmark})
	}
	if rt != nil {
		files = append(files, guarded{rtName, "the runtime file " + rtName})
	}
	if ws, ok := workspace.Find(filepath.Dir(benchmark)); ok {
		db := storePath(ws)
		for _, p := range []string{db, db + "-wal", db + "-shm"} {
			files = append(files, guarded{p, "the run store " + db})
		}
	}
	return files
}

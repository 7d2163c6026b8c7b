package engine

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// estimate is the estimate of example ex's request. One that cannot be made (the input
// does not render) holds nothing: the adapter fails the same way before sending anything.
// One the estimator cannot bound (Estimate.Unbounded) is the Abort that stops the run there.
func (r *runner) estimate(ex *example) (Estimate, *Abort) {
	e, err := r.opts.estimator.Estimate(ex.input)
	switch {
	case err != nil:
		return Estimate{Cached: true}, nil
	case e.Unbounded != "":
		return Estimate{}, unboundedAbort(r.b, r.opts.BenchmarkDir, ex, e.Unbounded)
	}
	return e, nil
}

// checkBounds refuses, before any request, a budget the run cannot keep because the
// estimator cannot bound an example's request (Estimate.Unbounded): only inputs with a document
// can be such (a PDF's pages), so that a run without one reads its dataset no further.
// The examples of the run (its limit and shard) are estimated in order, each PDF read once
// by the estimator, as the validation pass already read it for the digest.
func checkBounds(ctx context.Context, b *ir.Benchmark, opts Options, est Estimator) *Abort {
	if !hasDocument(b.Program.Input) {
		return nil
	}
	d, a := openDataset(b, opts.BenchmarkDir, opts.Paths, false)
	if a != nil {
		return a
	}
	defer d.Close()
	for n := 0; opts.Limit == 0 || n < opts.Limit; n++ {
		ex := d.next()
		if ex == nil || ctx.Err() != nil {
			return nil // a dataset that fails now fails the run as it would have
		}
		if !opts.Shard.Has(ex.index) {
			continue
		}
		if e, err := est.Estimate(ex.input); err == nil && e.Unbounded != "" {
			return unboundedAbort(b, opts.BenchmarkDir, ex, e.Unbounded)
		}
	}
	return nil
}

// unboundedAbort is the setup abort of a run whose budget cannot bound example ex's
// request, at its line of the dataset.
func unboundedAbort(b *ir.Benchmark, benchDir string, ex *example, why string) *Abort {
	file := filepath.FromSlash(b.Data.Path)
	if !filepath.IsAbs(file) {
		file = filepath.Join(benchDir, file) // as openDataset names it
	}
	return &Abort{Diagnostic: diag.Diagnostic{File: file, Phase: PhaseSetup, Code: diag.BudgetUnusable,
		Path: []string{}, Line: max(ex.line, 1), Column: 1,
		Message: fmt.Sprintf("a budget (--max-cost, --max-tokens) cannot be kept for example %d: %s; run it without a budget", ex.index, why)}}
}

// hasDocument reports whether an input of schema f may hold a document.
func hasDocument(f ir.Field) bool {
	if f.Type == ir.TypeDocument {
		return true
	}
	for _, c := range f.Fields {
		if hasDocument(c) {
			return true
		}
	}
	return false
}

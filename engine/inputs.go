package engine

import (
	"context"
	"fmt"

	"github.com/benchy-eval/benchy/ir"
)

// Inputs checks b's dataset as Run does (every row, whatever the limit), then streams the
// inputs of the examples a run would evaluate (the first limit; all when limit is 0) to
// fn in index order, their artifacts resolved as a run resolves them. No AI-system is
// called: it is how a batch submission and an estimate render every request a run would
// send. A dataset Run would refuse is its *Abort; fn's error stops the stream and is
// returned as it is.
func Inputs(ctx context.Context, b *ir.Benchmark, benchDir string, paths Paths, limit int, fn func(index int, input map[string]any) error) (Validated, error) {
	return CheckedInputs(ctx, b, benchDir, paths, limit, nil, fn)
}

// CheckedInputs is Inputs that first asks c, when it is not nil, of every input it will
// stream, as Run asks its adapter (InputChecker): a row c refuses is the *Abort at its
// line before fn sees any input, so that a batch submits nothing for a run that would
// stop before its first call.
func CheckedInputs(ctx context.Context, b *ir.Benchmark, benchDir string, paths Paths, limit int, c InputChecker, fn func(index int, input map[string]any) error) (Validated, error) {
	v, err := validateDataset(ctx, b, benchDir, paths, limit)
	if err != nil {
		return Validated{}, err
	}
	if c != nil {
		if err := checkInputs(ctx, b, benchDir, paths, v, c, Shard{}); err != nil {
			return Validated{}, err
		}
	}
	d, a := openDataset(b, benchDir, paths, false)
	if a != nil {
		return Validated{}, a
	}
	defer d.Close()
	for i := 0; i < v.Total; i++ {
		if i%1024 == 0 && ctx.Err() != nil {
			return Validated{}, fmt.Errorf("cancelled while reading the dataset: %w", context.Cause(ctx))
		}
		ex := d.next()
		if ex == nil {
			if d.failed != nil {
				return Validated{}, d.failed // the file changed since it was checked
			}
			return Validated{}, fmt.Errorf("the dataset ended after %d of %d examples while it was read again", i, v.Total)
		}
		if err := fn(ex.index, ex.input); err != nil {
			return Validated{}, err
		}
	}
	return v, nil
}

package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// RowError is a problem of one dataset row that only the AI-system's adapter can see: the
// request a model provider would send for it is past its bound (request_too_large), say.
// A run reports it as it reports a row that breaks the program's schema: an *Abort at the
// row's line, before any AI-system call.
type RowError struct {
	Code    diag.Code
	Path    []string // in the row: ["input", "text"]
	Message string
}

func (e *RowError) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// InputChecker is an adapter that can refuse an input before anything is sent (a model
// provider: a prompt template multiplies a field by its placeholders, so a modest row can
// make a request of any size). Run asks it of every example it will evaluate once the
// dataset's own checks passed and before the first call; Inputs' callers ask it as they go.
type InputChecker interface {
	// CheckInput is nil, or the *RowError that makes input's row one the adapter cannot send.
	CheckInput(input map[string]any) error
	// RowsFit reports that CheckInput accepts the input of every row of at most rowBytes
	// bytes: then no row is asked, and the dataset is not read again.
	RowsFit(rowBytes int) bool
}

// firstChecker is the run's first adapter as an InputChecker, when it is one: every
// adapter of a run is made by the same factory.
func firstChecker(adapters []Adapter) (InputChecker, bool) {
	if len(adapters) == 0 {
		return nil, false
	}
	c, ok := adapters[0].(InputChecker)
	return c, ok
}

// checkInputs asks c of the examples a run evaluates (its limit and shard), in order, after
// the validation pass v and before any AI-system call: the first it refuses is the run's
// *Abort at that row's line. When c says that rows as long as v's longest all fit, the
// dataset is not read again.
func checkInputs(ctx context.Context, b *ir.Benchmark, benchDir string, paths Paths, v Validated, c InputChecker, shard Shard) error {
	if c.RowsFit(v.longest) {
		return nil
	}
	d, a := openDataset(b, benchDir, paths, false)
	if a != nil {
		return a
	}
	defer d.Close()
	for i := 0; i < v.All; i++ {
		if i%1024 == 0 && ctx.Err() != nil {
			return fmt.Errorf("run cancelled while checking the requests: %w", context.Cause(ctx))
		}
		ex := d.next()
		if ex == nil {
			if d.failed != nil {
				return d.failed // the file changed since it was checked
			}
			return fmt.Errorf("the dataset ended after %d of %d examples while it was read again", i, v.All)
		}
		if !shard.Has(ex.index) {
			continue
		}
		if err := c.CheckInput(ex.input); err != nil {
			return d.refused(ex.line, err)
		}
	}
	return nil
}

// refused is the *Abort of the row at line that an adapter refused with err: its
// *RowError's code and path, or invalid_dataset_record.
func (d *dataset) refused(line int, err error) *Abort {
	var re *RowError
	if errors.As(err, &re) {
		return abort(d.path, line, re.Code, re.Path, "line %d: %s", line, re.Message)
	}
	return abort(d.path, line, diag.InvalidDatasetRecord, nil, "line %d: %v", line, err)
}

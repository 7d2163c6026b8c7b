package engine

import (
	"context"
	"fmt"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// Rescorer scores again results read back from outside the engine: the lines of a shard's
// journal, which a merge and the shard's own continued run take in. A line's numbers
// agreeing with each other (ScoreCheck) says nothing of whether its prediction earned
// them, so a valid result's prediction is replayed through evaluate, the run's own
// validation and scoring, against its dataset row's expected output: a result kept is the
// one a run would have written for that prediction. The dataset is read as the validation
// pass reads it, one row at a time and digested, so memory stays flat and the digest the
// results claim can be checked at the end (Finish).
type Rescorer struct {
	r     *runner
	d     *dataset
	check *ScoreCheck
	ex    *example // the row last read
}

// NewRescorer opens the dataset of b, whose file is in benchDir, within paths, as a run
// would: a dataset a run would refuse is its *Abort.
func NewRescorer(b *ir.Benchmark, benchDir string, paths Paths) (*Rescorer, error) {
	d, a := openDataset(b, benchDir, paths, true)
	if a != nil {
		return nil, a
	}
	r := &runner{b: b, opts: Options{RecordRequests: RecordNone}, outputs: outputArtifacts(benchDir)}
	r.weights, r.scale = totalWeight(b)
	return &Rescorer{r: r, d: d, check: NewScoreCheck(b)}, nil
}

// Check says why res is not the result a run writes for its prediction, or nil. Results
// come in index order (a shard's: every Nth). A problem of the dataset itself is its
// *Abort.
func (rs *Rescorer) Check(res *ExampleResult) error {
	if err := rs.check.Check(res); err != nil {
		return err
	}
	ex, err := rs.row(res.Index)
	if err != nil {
		return err
	}
	if res.Status != StatusValid {
		return nil // it claims no score: ScoreCheck holds it to that
	}
	again := rs.r.evaluate(context.Background(), replay{res.Prediction}, ex)
	if again.Status != StatusValid {
		return fmt.Errorf("it is valid, but its prediction is no valid output: %s: %s", again.Error.Code, again.Error.Message)
	}
	for i, f := range again.FieldScores {
		if got := res.FieldScores[i].Score; got != f.Score {
			return fmt.Errorf("its field score of %s is %v, but its prediction scores %v against the dataset's expected output", pathName(f.Path), got, f.Score)
		}
	}
	return nil
}

// row reads the dataset up to example index.
func (rs *Rescorer) row(index int) (*example, error) {
	for rs.ex == nil || rs.ex.index < index {
		ex := rs.d.next()
		if ex == nil {
			if rs.d.failed != nil {
				return nil, rs.d.failed
			}
			return nil, abort(rs.d.path, rs.d.line, diag.DatasetChanged, []string{"data", "path"}, "the dataset has no example %d: it has %d", index, rs.d.index)
		}
		rs.ex = ex
	}
	if rs.ex.index != index {
		return nil, fmt.Errorf("it is example %d, after example %d", index, rs.ex.index)
	}
	return rs.ex, nil
}

// Finish reads the rest of the dataset and returns its digest and how many examples it
// has, as a run's validation pass does (DatasetDigest).
func (rs *Rescorer) Finish(ctx context.Context) (digest string, rows int, err error) {
	for n := 0; rs.d.next() != nil; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return "", 0, context.Cause(ctx)
		}
	}
	if rs.d.failed != nil {
		return "", 0, rs.d.failed
	}
	if rs.d.index == 0 {
		return "", 0, abort(rs.d.path, 1, diag.InvalidDatasetRecord, nil, "the dataset has no examples")
	}
	return rs.d.digest.sum(), rs.d.index, nil
}

// Close closes the dataset.
func (rs *Rescorer) Close() error { return rs.d.Close() }

// replay is the adapter that answers a result's prediction again, for evaluate.
type replay struct{ out any }

func (p replay) Invoke(context.Context, int, map[string]any) (any, error) { return p.out, nil }
func (p replay) Close() error                                             { return nil }

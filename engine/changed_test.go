//go:build linux

package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestDatasetChangedDuringRun: the second pass reads the JSONL file again, so a file
// rewritten after the validation pass digested it (before the examples start, or while
// they run) would make the recorded digest name an exam the AI-system did not take: the
// run aborts with dataset_changed instead. A file left alone completes.
func TestDatasetChangedDuringRun(t *testing.T) {
	good := `{"input":{"text":"x","doc":"files/a.txt"},"expected":{"label":"yes","n":1}}`
	other := `{"input":{"text":"y","doc":"files/a.txt"},"expected":{"label":"no","n":2}}`
	b := compileYAML(t, datasetBench)
	ok := func(context.Context, int, map[string]any) (any, error) {
		return map[string]any{"label": "yes", "n": 1}, nil
	}
	for _, tt := range []struct {
		name     string
		between  bool // rewrite the file between the passes
		during   bool // rewrite it while the first example runs
		artifact bool // rewrite the artifact rather than the JSONL file
	}{{"unchanged", false, false, false}, {"between the passes", true, false, false}, {"while it runs", false, true, false},
		{"an artifact between the passes", true, false, true}, {"an artifact while it runs", false, true, true}} {
		t.Run(tt.name, func(t *testing.T) {
			rows := make([]string, 40) // more than the rows read ahead of the examples that run
			for i := range rows {
				rows[i] = good
			}
			root := testkit.WriteFiles(t, t.TempDir(), map[string]string{
				"data/exam.jsonl":  jsonl(rows...),
				"data/files/a.txt": "a",
			})
			exam := filepath.Join(root, "data", "exam.jsonl")
			rewrite := func() {
				var err error
				if tt.artifact {
					err = os.WriteFile(filepath.Join(root, "data", "files", "a.txt"), []byte("b"), 0o644)
				} else {
					err = os.WriteFile(exam, []byte(jsonl(append(rows[1:len(rows):len(rows)], other)...)), 0o644)
				}
				if err != nil {
					t.Error(err)
				}
			}
			var once sync.Once
			answer := func(ctx context.Context, i int, in map[string]any) (any, error) {
				if tt.during {
					once.Do(rewrite)
				}
				return ok(ctx, i, in)
			}
			var c counter
			_, err := run(t, b, root, &c, answer, Options{Concurrency: 1, Validated: func(Validated) error {
				if tt.between {
					rewrite()
				}
				return nil
			}})
			var a *Abort
			switch changed := tt.between || tt.during; {
			case !changed && err != nil:
				t.Fatalf("an unchanged dataset: %v", err)
			case changed && (!errors.As(err, &a) || a.Diagnostic.Code != diag.DatasetChanged):
				t.Fatalf("a dataset rewritten %s: %v, want a dataset_changed abort", tt.name, err)
			case tt.between && c.calls.Load() != 0:
				t.Errorf("%d calls after the dataset changed before the examples began", c.calls.Load())
			}
		})
	}
}

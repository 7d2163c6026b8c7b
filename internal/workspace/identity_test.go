package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// interrupted is a run of the system benchmark over n rows through a real command adapter
// (cat), stored in a real store and stopped (engine Stop, as a server's shutdown does)
// after its first result: the state a resume starts from.
type interrupted struct {
	dir, data string
	st        *store.Store
	run       store.Run
	stored    []string // the results stored before the stop, as JSON
	digest    string   // the dataset digest the run recorded
}

const catRuntime = "bindings:\n  sys: {command: [cat], timeout: 10s}\n"

func interrupt(t *testing.T, n int) *interrupted {
	t.Helper()
	it := &interrupted{dir: t.TempDir()}
	it.data = filepath.Join(it.dir, "data.jsonl")
	var rows strings.Builder
	for i := range n {
		fmt.Fprintf(&rows, `{"input": {"text": "t%d"}, "expected": {"name": "n%d"}}`+"\n", i, i)
	}
	if err := os.WriteFile(it.data, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(Source{Name: "b.yaml", Text: []byte(system)}, Setup{Dir: it.dir, Paths: engine.Paths{Workspace: it.dir}, Runtime: runtime(t, catRuntime)})
	if err != nil {
		t.Fatal(err)
	}
	it.st, err = store.Open(store.Path(it.dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.st.Close() })
	it.run, err = it.st.CreateRun(p.Spec("b.yaml", store.Options{Concurrency: 1}))
	if err != nil || it.st.MarkRunning(it.run.ID, 0) != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var once sync.Once
	end := Execute(context.Background(), p, Options{Concurrency: 1, Stop: stop}, Record{Store: it.st, ID: it.run.ID}, Observer{
		Result: func(engine.ExampleResult, bool) { once.Do(func() { close(stop) }) },
	})
	if end.Status != store.Interrupted || !errors.Is(end.Err, engine.ErrStopped) {
		t.Fatalf("the stopped run ended %s: %v", end.Status, end.Err)
	}
	if err := end.Record(it.st, it.run.ID); err != nil {
		t.Fatal(err)
	}
	got, err := it.st.GetRun(it.run.ID)
	if err != nil || got.Status != store.Interrupted || !strings.HasPrefix(got.DatasetDigest, "sha256:") {
		t.Fatalf("after the stop: %+v, %v", got, err)
	}
	it.digest = got.DatasetDigest
	it.stored = storedResults(t, it.st, it.run.ID)
	if len(it.stored) == 0 || len(it.stored) >= n {
		t.Fatalf("%d of %d results stored before the stop: not a run to resume", len(it.stored), n)
	}
	return it
}

// storedResults are the results stored for run id, as JSON, in index order.
func storedResults(t *testing.T, st *store.Store, id string) []string {
	t.Helper()
	var out []string
	for res, err := range st.Stored(id) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d %s %v %v", res.Index, res.Status, res.Prediction, res.Error))
	}
	return out
}

// resume resumes the run as the server does: its stored IR, prepared again, run with the
// stored results as its prior ones.
func (it *interrupted) resume(t *testing.T) (End, int) {
	t.Helper()
	run, err := it.st.GetRun(it.run.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ir.Unmarshal(run.IR)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(Source{Name: "b.yaml", IR: b, Canonical: run.IR, IRHash: run.IRHash},
		Setup{Dir: it.dir, Paths: engine.Paths{Workspace: it.dir}, Runtime: runtime(t, catRuntime)})
	if err != nil {
		t.Fatal(err)
	}
	if err := it.st.SetStatus(run.ID, store.Queued); err != nil {
		t.Fatal(err)
	}
	if err := it.st.MarkRunning(run.ID, run.Total); err != nil {
		t.Fatal(err)
	}
	reused := 0
	end := Execute(context.Background(), p, Options{Concurrency: 1, Prior: it.st.Prior(run.ID).Get}, Record{Store: it.st, ID: run.ID}, Observer{
		Result: func(_ engine.ExampleResult, r bool) {
			if r {
				reused++
			}
		},
	})
	if err := end.Record(it.st, run.ID); err != nil {
		t.Fatal(err)
	}
	return end, reused
}

// TestResumeOverChangedDataset: a run interrupted and resumed after one byte of its dataset
// changed aborts with dataset_changed before any example runs: its stored results are of
// the old exam, and mixing them with the new one would score neither. The earlier results
// and the recorded digest stay as they were.
func TestResumeOverChangedDataset(t *testing.T) {
	for _, tt := range []struct {
		what string
		edit func(text []byte) []byte
	}{
		{"one byte of a row the run did not reach", func(b []byte) []byte {
			i := strings.LastIndex(string(b), "t39")
			return slices.Concat(b[:i], []byte("T39"), b[i+3:])
		}},
		{"one byte of a row already run", func(b []byte) []byte {
			i := strings.Index(string(b), `"n0"`)
			return slices.Concat(b[:i], []byte(`"N0"`), b[i+4:])
		}},
		{"a blank line at the end", func(b []byte) []byte { return append(b, '\n') }},
	} {
		t.Run(tt.what, func(t *testing.T) {
			it := interrupt(t, 40)
			text, err := os.ReadFile(it.data)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(it.data, tt.edit(text), 0o644); err != nil {
				t.Fatal(err)
			}
			end, reused := it.resume(t)
			var abort *engine.Abort
			if end.Status != store.Aborted || !errors.As(end.Err, &abort) || abort.Diagnostic.Code != diag.DatasetChanged || reused != 0 {
				t.Fatalf("resumed over a changed dataset: %s, %v, %d reused; want aborted with %s", end.Status, end.Err, reused, diag.DatasetChanged)
			}
			if !strings.Contains(abort.Diagnostic.Message, it.digest) {
				t.Errorf("the diagnostic does not name the digest the run began with: %s", abort.Diagnostic.Message)
			}
			got, err := it.st.GetRun(it.run.ID)
			if err != nil || got.Status != store.Aborted || got.Error == nil || got.Error.Code != diag.DatasetChanged {
				t.Fatalf("recorded: %+v, %v", got, err)
			}
			if got.DatasetDigest != it.digest {
				t.Errorf("the recorded digest became %s, was %s", got.DatasetDigest, it.digest)
			}
			if after := storedResults(t, it.st, it.run.ID); !slices.Equal(after, it.stored) {
				t.Errorf("the earlier results changed:\n%q\nwere\n%q", after, it.stored)
			}
		})
	}
}

// TestResumeOverSameDataset: the same exam (its file rewritten with the same bytes, its
// times changed) resumes: the stored results are reused, the rest evaluated, and the run
// completes with the digest it began with.
func TestResumeOverSameDataset(t *testing.T) {
	it := interrupt(t, 40)
	text, err := os.ReadFile(it.data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(it.data, text, 0o644); err != nil {
		t.Fatal(err)
	}
	end, reused := it.resume(t)
	if end.Status != store.Completed || end.Err != nil || reused != len(it.stored) {
		t.Fatalf("resumed over the same dataset: %s, %v, %d reused of %d stored", end.Status, end.Err, reused, len(it.stored))
	}
	if end.Report.DatasetDigest != it.digest {
		t.Errorf("the report's digest %s, the run began with %s", end.Report.DatasetDigest, it.digest)
	}
	got, err := it.st.GetRun(it.run.ID)
	if err != nil || got.Status != store.Completed || got.DatasetDigest != it.digest || got.Done != 40 {
		t.Fatalf("recorded: %+v, %v", got, err)
	}
	if after := storedResults(t, it.st, it.run.ID); len(after) != 40 || !slices.Equal(after[:len(it.stored)], it.stored) {
		t.Errorf("%d results after the resume; the first %d changed", len(after), len(it.stored))
	}
}

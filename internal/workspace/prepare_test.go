package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

const system = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {text: string}
  output: {name: string}
scoring: {weights: {name: 1}, aggregator: weighted_mean}
data: {path: ./data.jsonl}
ai-system: {type: external, id: sys}
`

// runtime is a Setup.Runtime that gives the runtime file src (none when src is "").
func runtime(t *testing.T, src string) func() (*adapter.Runtime, string, error) {
	return func() (*adapter.Runtime, string, error) {
		if src == "" {
			return nil, "", nil
		}
		rt, err := adapter.ParseRuntime([]byte(src), t.TempDir())
		return rt, "rt.yaml", err
	}
}

// TestPrepare: each way a benchmark fails to become a plan comes back as its kind of error,
// with the text the CLI prints; a valid one is hashed and bound.
func TestPrepare(t *testing.T) {
	bound := "bindings:\n  sys: {command: [cat], timeout: 10s}\n"
	badRT := errors.New("rt.yaml: not valid")
	tests := []struct {
		name    string
		src     Source
		runtime func() (*adapter.Runtime, string, error)
		check   func(*testing.T, *Plan, error)
	}{
		{"a valid benchmark is hashed and bound", Source{Name: "b.yaml", Text: []byte(system)}, runtime(t, bound), func(t *testing.T, p *Plan, err error) {
			if err != nil || p.Binding != "sys" || p.IRHash != ir.Hash(p.Canonical) || p.RuntimeFile != "rt.yaml" || p.Factory == nil {
				t.Fatalf("%+v, %v", p, err)
			}
			if p.Paths.Private[len(p.Paths.Private)-1] != "rt.yaml" {
				t.Errorf("the runtime file is not kept private: %q", p.Paths.Private)
			}
		}},
		{"a benchmark that does not compile: diagnostics in its file", Source{Name: "b.yaml", Text: []byte("version: 2\n")}, runtime(t, bound), func(t *testing.T, p *Plan, err error) {
			var ds diag.List
			if !errors.As(err, &ds) || len(ds) == 0 || ds[0].File != "b.yaml" || !strings.HasPrefix(err.Error(), "b.yaml:") {
				t.Fatalf("%v", err)
			}
		}},
		{"its problems come before the runtime file's", Source{Name: "b.yaml", Text: []byte("version: 2\n")}, func() (*adapter.Runtime, string, error) { return nil, "", badRT }, func(t *testing.T, p *Plan, err error) {
			if errors.Is(err, badRT) {
				t.Fatal(err)
			}
		}},
		{"the runtime file's error as it was", Source{Name: "b.yaml", Text: []byte(system)}, func() (*adapter.Runtime, string, error) { return nil, "", badRT }, func(t *testing.T, p *Plan, err error) {
			if err != badRT {
				t.Fatal(err)
			}
		}},
		{"no runtime file: missing_binding in the default one's name", Source{Name: "b.yaml", Text: []byte(system)}, runtime(t, ""), func(t *testing.T, p *Plan, err error) {
			var ds diag.List
			if !errors.As(err, &ds) || !ds.Has(diag.MissingBinding) || ds[0].File != adapter.RuntimeFile ||
				err.Error() != adapter.RuntimeFile+":1:1: missing_binding: "+NoRuntime(ir.AISystem{Type: ir.SystemExternal, ID: "sys"})+"; hint" {
				t.Fatalf("%v", err)
			}
		}},
		{"a runtime file without the binding: missing_binding in it", Source{Name: "b.yaml", Text: []byte(system)}, runtime(t, "bindings: {}\n"), func(t *testing.T, p *Plan, err error) {
			var ds diag.List
			if !errors.As(err, &ds) || !ds.Has(diag.MissingBinding) || ds[0].File != "rt.yaml" || strings.Contains(err.Error(), engine.ErrMissingBinding.Error()) {
				t.Fatalf("%v", err)
			}
		}},
		{"IR JSON that is not strict JSON", Source{Name: "b.json", Text: []byte(`{"a": 1, "a": 2}`)}, runtime(t, bound), func(t *testing.T, p *Plan, err error) {
			var notIR *NotIR
			if !errors.As(err, &notIR) || !strings.HasPrefix(err.Error(), "b.json: not a Benchy IR: not strict JSON (RFC 8259): ") {
				t.Fatalf("%v", err)
			}
		}},
		{"IR JSON that is not an IR", Source{Name: "-", Text: []byte(`{"version": "1.0"}`)}, runtime(t, bound), func(t *testing.T, p *Plan, err error) {
			var notIR *NotIR
			if !errors.As(err, &notIR) || !strings.HasPrefix(err.Error(), "-: not a Benchy IR: ") {
				t.Fatalf("%v", err)
			}
		}},
		{"YAML is YAML when the caller says so", Source{Name: "b.yaml", Text: []byte(`{"version": 2}`), YAML: true}, runtime(t, bound), func(t *testing.T, p *Plan, err error) {
			var ds diag.List
			if !errors.As(err, &ds) {
				t.Fatalf("%v", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Prepare(tt.src, Setup{Dir: t.TempDir(), Runtime: tt.runtime, NoRuntime: "; hint"})
			tt.check(t, p, err)
		})
	}

	// A plan's own IR JSON is an IR: the same plan, hash and all.
	p, err := Prepare(Source{Name: "b.yaml", Text: []byte(system)}, Setup{Runtime: runtime(t, bound)})
	if err != nil {
		t.Fatal(err)
	}
	q, err := Prepare(Source{Name: "b.json", Text: p.Canonical}, Setup{Runtime: runtime(t, bound)})
	if err != nil || q.IRHash != p.IRHash || string(q.Canonical) != string(p.Canonical) {
		t.Fatalf("the IR of a plan prepared again: %v", err)
	}
}

// TestEnding: the one rule for how a run ended, a row per case.
func TestEnding(t *testing.T) {
	cancelled, cancel := context.WithCancelCause(context.Background())
	cancel(ErrCancelled)
	shutdown, stop := context.WithCancelCause(context.Background())
	stop(errors.New("shutting down"))
	live := context.Background()
	abort := &engine.Abort{Diagnostic: diag.Diagnostic{Code: diag.InvalidDatasetRecord}}
	storeFailed := errors.New("disk full")
	tests := []struct {
		name     string
		ctx      context.Context
		runErr   error
		storeErr error
		want     store.Status
	}{
		{"a report and every result stored: completed", live, nil, nil, store.Completed},
		{"a report a user cancelled too late to matter: completed", cancelled, nil, nil, store.Completed},
		{"the dataset stopped it: aborted", live, abort, nil, store.Aborted},
		{"an abort also when results failed to store", live, fmt.Errorf("run: %w", abort), storeFailed, store.Aborted},
		{"a report but a result not stored: interrupted, to resume", live, nil, storeFailed, store.Interrupted},
		{"a user's cancel: cancelled", cancelled, context.Canceled, nil, store.Cancelled},
		{"a user's cancel after a store failure: interrupted", cancelled, context.Canceled, storeFailed, store.Interrupted},
		{"a shutdown's stop: interrupted", live, engine.ErrStopped, nil, store.Interrupted},
		{"a shutdown's cancel: interrupted", shutdown, context.Canceled, nil, store.Interrupted},
		{"anything else: interrupted", live, errors.New("results stream: broken pipe"), nil, store.Interrupted},
	}
	for _, tt := range tests {
		if got := Ending(tt.ctx, nil, tt.runErr, tt.storeErr); got.Status != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got.Status, tt.want)
		}
	}
}

// TestExecuteStores: Execute stores every result and the total, and its End records the
// run completed with the report.
func TestExecuteStores(t *testing.T) {
	dir := t.TempDir()
	rows := ""
	for i := range 3 {
		rows += fmt.Sprintf(`{"input": {"text": "t%d"}, "expected": {"name": "n%d"}}`+"\n", i, i)
	}
	os.WriteFile(filepath.Join(dir, "data.jsonl"), []byte(rows), 0o644)
	p, err := Prepare(Source{Name: "b.yaml", Text: []byte(system)}, Setup{Dir: dir, Paths: engine.Paths{Workspace: dir}, Runtime: runtime(t, "bindings:\n  sys: {command: [cat], timeout: 10s}\n")})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run, err := st.CreateRun(p.Spec("b.yaml", store.Options{}))
	if err != nil || st.MarkRunning(run.ID, 0) != nil {
		t.Fatal(err)
	}
	var seen int
	end := Execute(context.Background(), p, Options{Concurrency: 2}, Record{Store: st, ID: run.ID}, Observer{
		Result:      func(engine.ExampleResult, bool) { seen++ },
		StoreFailed: func(err error) { t.Errorf("store failed: %v", err) },
	})
	if end.Status != store.Completed || end.Err != nil || seen != 3 {
		t.Fatalf("%+v, %d results seen", end, seen)
	}
	if err := end.Record(st, run.ID); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetRun(run.ID)
	if err != nil || got.Status != store.Completed || got.Total != 3 || got.Done != 3 || got.Binding != "sys" || got.IRHash != p.IRHash {
		t.Errorf("stored: %+v, %v", got, err)
	}
}

// TestAbortStoredInWorkspace: an aborted run's record names the dataset relative to the
// workspace whatever folder benchy run was started from (it stored the path as typed,
// "data.jsonl" from sub/ but "sub/data.jsonl" from the workspace, and the server stores it
// absolute), while the printed error keeps the path as the user gave it.
func TestAbortStoredInWorkspace(t *testing.T) {
	ws := t.TempDir()
	sub := filepath.Join(ws, "sub")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "data.jsonl"), []byte("not json\n"), 0o644)
	st, err := store.Open(filepath.Join(ws, "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, tt := range []struct{ cwd, dir, printed string }{
		{sub, ".", "data.jsonl:1:1: "},
		{ws, "sub", filepath.Join("sub", "data.jsonl") + ":1:1: "},
		{t.TempDir(), sub, filepath.Join(sub, "data.jsonl") + ":1:1: "},
	} {
		t.Chdir(tt.cwd)
		p, err := Prepare(Source{Name: "b.yaml", Text: []byte(system)}, Setup{Dir: tt.dir, Paths: engine.Paths{Workspace: ws}, Runtime: runtime(t, "bindings:\n  sys: {command: [cat]}\n")})
		if err != nil {
			t.Fatal(err)
		}
		run, err := st.CreateRun(p.Spec("sub/b.yaml", store.Options{}))
		if err != nil || st.MarkRunning(run.ID, 0) != nil {
			t.Fatal(err)
		}
		end := Execute(context.Background(), p, Options{Concurrency: 1}, Record{Store: st, ID: run.ID}, Observer{})
		if end.Status != store.Aborted || !strings.HasPrefix(end.Err.Error(), tt.printed) {
			t.Fatalf("from %s: %s %v, want aborted, printed as %s…", tt.cwd, end.Status, end.Err, tt.printed)
		}
		if err := end.Record(st, run.ID); err != nil {
			t.Fatal(err)
		}
		got, err := st.GetRun(run.ID)
		if err != nil || got.Error == nil || got.Error.File != "sub/data.jsonl" {
			t.Errorf("from %s: stored %+v (%v), want the file sub/data.jsonl", tt.cwd, got.Error, err)
		}
	}
}

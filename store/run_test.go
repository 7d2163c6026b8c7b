package store

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

func TestCreateGetList(t *testing.T) {
	s, _ := open(t)
	a := create(t, s, "invoices.yaml")
	b := create(t, s, "receipts.yaml")
	c := create(t, s, "invoices.yaml")

	got, err := s.GetRun(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, a) {
		t.Errorf("GetRun:\n got %+v\nwant %+v", got, a)
	}
	if got.Status != Queued || string(got.IR) != string(testIR) || got.Options != (Options{Limit: 10, Concurrency: 4}) ||
		string(got.AISystem) != `{"id":"invoice-extractor-v7","type":"external"}` || got.StartedAt != nil {
		t.Errorf("GetRun: %+v", got)
	}
	if _, err := s.GetRun("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetRun(nope): %v, want ErrNotFound", err)
	}

	ids := func(runs []Run) []string {
		var out []string
		for _, r := range runs {
			if r.IR != nil {
				t.Errorf("ListRuns returned the IR of %s", r.ID)
			}
			out = append(out, r.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		f     Filter
		limit int
		want  []string
	}{
		{"all, newest first", Filter{}, 0, []string{c.ID, b.ID, a.ID}},
		{"limit", Filter{}, 2, []string{c.ID, b.ID}},
		{"by benchmark", Filter{Benchmark: "invoices.yaml"}, 0, []string{c.ID, a.ID}},
		{"by IR hash", Filter{IRHash: "sha256:receipts.yaml"}, 0, []string{b.ID}},
		{"both", Filter{Benchmark: "invoices.yaml", IRHash: "sha256:receipts.yaml"}, 0, nil},
	} {
		runs, err := s.ListRuns(tc.f, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(runs); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRunJSON(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"id", "benchmark", "ir", "ir_hash", "ai_system", "binding", "options", "status",
		"created_at", "started_at", "finished_at", "total", "done", "summary", "error"} {
		if _, ok := m[k]; !ok {
			t.Errorf("the JSON of a run has no %q: %s", k, b)
		}
	}
}

func TestLifecycle(t *testing.T) {
	s, _ := open(t)
	clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	r := create(t, s, "b.yaml")

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.MarkRunning(r.ID, 0))
	must(s.MarkRunning(r.ID, 3)) // the total learnt late
	got, _ := s.GetRun(r.ID)
	if got.Status != Running || got.Total != 3 || got.StartedAt == nil || !got.StartedAt.Equal(clock.Add(-time.Second)) {
		t.Errorf("running: %+v (started %v)", got, got.StartedAt)
	}
	write(t, s, r.ID, 0, 3)
	score := 1.0
	rep := &engine.Report{Version: engine.ResultVersion, BenchmarkScore: 0.5, Summary: engine.Summary{Examples: 3, Valid: 2, ExecutionErrors: 1},
		IRHash: r.IRHash, AISystem: map[string]any{"type": "external"}, Binding: "local",
		Dimensions: []engine.DimensionAccuracy{{Path: []string{"total"}, Weight: 1, Correct: 1, Valid: 2, Accuracy: &score}}}
	must(s.Finish(r.ID, rep))
	got, _ = s.GetRun(r.ID)
	want, _ := json.Marshal(rep)
	if got.Status != Completed || got.Done != 3 || got.FinishedAt == nil || *got.Summary != rep.Summary || string(got.Report) != string(want) {
		t.Errorf("completed: %+v", got)
	}
	if err := s.MarkRunning(r.ID, 3); !errors.Is(err, ErrTransition) {
		t.Errorf("restarting a completed run: %v, want ErrTransition", err)
	}
	if err := s.SetStatus("nope", Cancelled); !errors.Is(err, ErrNotFound) {
		t.Errorf("cancelling an unknown run: %v, want ErrNotFound", err)
	}
}

func TestTransitions(t *testing.T) {
	s, _ := open(t)
	// Each row: a run walks through steps; ok says whether the last step is allowed.
	for _, tc := range []struct {
		name  string
		steps []Status
		ok    bool
	}{
		{"a queued run starts", []Status{Running}, true},
		{"a queued run is cancelled", []Status{Cancelled}, true},
		{"a queued run cannot complete", []Status{Completed}, false},
		{"a running run completes", []Status{Running, Completed}, true},
		{"a running run is aborted", []Status{Running, Aborted}, true},
		{"an interrupted run resumes queued", []Status{Running, Interrupted, Queued}, true},
		{"an interrupted run resumes running", []Status{Running, Interrupted, Running}, true},
		{"a cancelled run resumes", []Status{Running, Cancelled, Queued}, true},
		{"an interrupted run cannot complete without running", []Status{Running, Interrupted, Completed}, false},
		{"a completed run is final", []Status{Running, Completed, Queued}, false},
		{"an aborted run is final", []Status{Running, Aborted, Running}, false},
		{"a completed run cannot be cancelled", []Status{Running, Completed, Cancelled}, false},
		{"an unknown status is refused", []Status{"paused"}, false},
	} {
		r := create(t, s, "b.yaml")
		var err error
		for _, st := range tc.steps {
			if err = s.SetStatus(r.ID, st); err != nil {
				break
			}
		}
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrTransition)) {
			t.Errorf("%s: %v", tc.name, err)
		}
		got, _ := s.GetRun(r.ID)
		last := tc.steps[len(tc.steps)-1]
		switch {
		case tc.ok && got.Status != last:
			t.Errorf("%s: status %s, want %s", tc.name, got.Status, last)
		case tc.ok && (got.FinishedAt != nil) != (last == Completed || last == Aborted || last == Cancelled):
			t.Errorf("%s: status %s with finished_at %v", tc.name, got.Status, got.FinishedAt)
		}
	}
}

func TestAbort(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	s.MarkRunning(r.ID, 0)
	a := &engine.Abort{Diagnostic: diag.Diagnostic{File: "data/invoices.jsonl", Phase: "dataset", Code: diag.InvalidDatasetRecord,
		Path: []string{}, Message: "line 3 is not JSON", Line: 3, Column: 1}}
	if err := s.Abort(r.ID, a); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetRun(r.ID)
	if got.Status != Aborted || got.Error == nil || !reflect.DeepEqual(*got.Error, a.Diagnostic) {
		t.Errorf("aborted: %+v, error %+v", got, got.Error)
	}
	b, _ := json.Marshal(got.Error)
	if want := `{"file":"data/invoices.jsonl","phase":"dataset","code":"` + string(diag.InvalidDatasetRecord) +
		`","path":[],"message":"line 3 is not JSON","line":3,"column":1}`; string(b) != want {
		t.Errorf("error JSON:\n got %s\nwant %s", b, want)
	}
}

// TestAbortStoredBefore: the error of a run aborted before a diagnostic carried its file
// (stored as {"file", ...the diagnostic}) reads back whole, file included, and a setup
// failure's (no file) reads with none.
func TestAbortStoredBefore(t *testing.T) {
	s, _ := open(t)
	for _, tc := range []struct{ stored, file string }{
		{`{"file":"data/x.jsonl","phase":"data","code":"invalid_dataset_record","path":["a"],"message":"line 2 is not JSON","line":2,"column":1}`, "data/x.jsonl"},
		{`{"phase":"setup","code":"adapter_error","path":[],"message":"cannot start","line":1,"column":1}`, ""},
	} {
		r := create(t, s, "b.yaml")
		if _, err := s.w.Exec(`UPDATE runs SET status = ?, error = ? WHERE id = ?`, string(Aborted), tc.stored, r.ID); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetRun(r.ID)
		if err != nil || got.Error == nil || got.Error.File != tc.file || got.Error.Message == "" || got.Error.Line == 0 {
			t.Fatalf("stored %s: read %+v, %v", tc.stored, got.Error, err)
		}
		if b, _ := json.Marshal(got.Error); string(b) != tc.stored {
			t.Errorf("stored %s\nreads back as %s", tc.stored, b)
		}
	}
}

func TestMarkInterrupted(t *testing.T) {
	s, path := open(t)
	queued := create(t, s, "b.yaml")
	running := create(t, s, "b.yaml")
	done := create(t, s, "b.yaml")
	cancelled := create(t, s, "b.yaml")
	s.MarkRunning(running.ID, 10)
	s.MarkRunning(done.ID, 10)
	s.SetStatus(done.ID, Completed)
	s.SetStatus(cancelled.ID, Cancelled)
	write(t, s, running.ID, 0, 4)
	s.Close() // the process ends

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, err := s.MarkInterrupted()
	if err != nil || n != 2 {
		t.Fatalf("MarkInterrupted: %d, %v; want 2", n, err)
	}
	for _, c := range []struct {
		id   string
		want Status
	}{{queued.ID, Interrupted}, {running.ID, Interrupted}, {done.ID, Completed}, {cancelled.ID, Cancelled}} {
		if got, _ := s.GetRun(c.id); got.Status != c.want {
			t.Errorf("%s: %s, want %s", c.id, got.Status, c.want)
		}
	}
	if got, _ := s.GetRun(running.ID); got.Done != 4 || got.Total != 10 {
		t.Errorf("interrupted run: done %d of %d, want 4 of 10", got.Done, got.Total)
	}
	if n, _ := s.MarkInterrupted(); n != 0 {
		t.Errorf("a second MarkInterrupted found %d runs", n)
	}
}

func TestIDsSortByTime(t *testing.T) {
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var prev string
	for i := range 5000 {
		// Many ids per millisecond, and a clock that steps back once.
		at := base.Add(time.Duration(i/100) * time.Millisecond)
		if i == 2500 {
			at = base
		}
		id := newID(at)
		if len(id) != 26 {
			t.Fatalf("id %q: %d characters", id, len(id))
		}
		if id <= prev {
			t.Fatalf("id %d: %s after %s: not increasing", i, id, prev)
		}
		prev = id
	}
	// The first ten digits are the milliseconds.
	ids.Lock()
	ids.ms = 0
	ids.Unlock()
	ms := int64(0x0123456789AB)
	id := newID(time.UnixMilli(ms))
	var got int64
	for _, c := range id[:10] {
		got = got<<5 | int64(strings.IndexRune(crockford, c))
	}
	if got != ms {
		t.Errorf("%s: time prefix reads %x, want %x", id, got, ms)
	}
}

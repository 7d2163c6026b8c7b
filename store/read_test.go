package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

func TestResume(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	s.MarkRunning(r.ID, 200)
	// Workers finish out of order; the run stops with holes.
	w := s.ResultWriter(r.ID)
	var stored []int
	for i := range 200 {
		if i%3 != 0 && i != 130 {
			w.Add(example(i))
			stored = append(stored, i)
		}
	}
	w.Close()
	s.SetStatus(r.ID, Interrupted)

	done, err := s.RecordedSet(r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Len() != len(stored) || done.Has(0) || !done.Has(1) || done.Has(130) || done.Has(-1) || done.Has(1<<20) {
		t.Errorf("Done: %d indices", done.Len())
	}
	missing := done.Missing(200)
	if len(missing)+len(stored) != 200 || missing[0] != 0 || !slices.Contains(missing, 130) {
		t.Errorf("Missing: %v", missing)
	}
	// Resuming reuses what is stored, byte for byte, and evaluates only the missing.
	s.SetStatus(r.ID, Running)
	w = s.ResultWriter(r.ID)
	for i := range 200 {
		res, ok, err := s.Result(r.ID, i)
		if err != nil {
			t.Fatal(err)
		}
		if ok != done.Has(i) {
			t.Fatalf("Result(%d): %v, Done says %v", i, ok, done.Has(i))
		}
		if !ok {
			res = example(i) // the AI-system is called for this one only
		} else if got, want := encoded(t, res), encoded(t, example(i)); got != want {
			t.Fatalf("stored result %d:\n got %s\nwant %s", i, got, want)
		}
		w.Add(res)
	}
	w.Close()
	if got, _ := s.GetRun(r.ID); got.Done != 200 {
		t.Errorf("after resuming: done %d, want 200", got.Done)
	}
}

func TestPage(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	const n = 1234
	write(t, s, r.ID, 0, n)
	other := create(t, s, "b.yaml")
	write(t, s, other.ID, 0, 50)

	indices := func(p Page) []int {
		var out []int
		for _, sh := range p.Results {
			out = append(out, sh.Index)
		}
		return out
	}
	for _, status := range []engine.Status{"", engine.StatusValid, engine.StatusInvalidOutput, engine.StatusExecutionError} {
		var want []int
		for i := range n {
			if status == "" || example(i).Status == status {
				want = append(want, i)
			}
		}
		for _, limit := range []int{1, 7, 100, 5000} {
			var got []int
			q := PageQuery{Status: status, After: First, Limit: limit}
			for pages := 0; ; pages++ {
				p, err := s.Page(r.ID, q)
				if err != nil {
					t.Fatal(err)
				}
				idx := indices(p)
				if len(idx) > limit || (p.Next != -1 && (len(idx) != limit || p.Next != idx[len(idx)-1])) {
					t.Fatalf("status %q, limit %d: page of %d ending %v, next %d", status, limit, len(idx), idx[len(idx)-1:], p.Next)
				}
				got = append(got, idx...)
				if p.Next == -1 {
					break
				}
				q.After = p.Next
			}
			if !slices.Equal(got, want) {
				t.Errorf("status %q, limit %d: %d results, want %d", status, limit, len(got), len(want))
			}
		}
	}
	// The stored results come back as they went in (short: none is clipped); a cursor
	// anywhere works; defaults apply.
	for _, after := range []int{499, 16, 34} { // valid, invalid_output, execution_error
		p, _ := s.Page(r.ID, PageQuery{After: after, Limit: 2})
		if len(p.Results) != 2 || asStored(t, p.Results[1]) != encoded(t, example(after+2)) || p.Next != after+2 || p.Results[1].Clipped {
			t.Errorf("page after %d: %+v, next %d\n got %s\nwant %s", after, p.Results, p.Next, asStored(t, p.Results[1]), encoded(t, example(after+2)))
		}
	}
	if p, _ := s.Page(r.ID, PageQuery{After: First}); len(p.Results) != 100 {
		t.Errorf("default limit: %d results", len(p.Results))
	}
	if p, err := s.Page("nope", PageQuery{After: First}); err != nil || len(p.Results) != 0 || p.Next != -1 {
		t.Errorf("unknown run: %+v, %v", p, err)
	}
}

// asStored is a shown result as the engine wrote it (its JSON).
func asStored(t *testing.T, sh Shown) string {
	t.Helper()
	res := engine.ExampleResult{Index: sh.Index, Status: sh.Status, Score: sh.Score, Contribution: sh.Contribution, Error: sh.Error}
	dec := json.NewDecoder(bytes.NewReader(sh.Prediction))
	dec.UseNumber()
	if err := errors.Join(dec.Decode(&res.Prediction), json.Unmarshal(sh.FieldScores, &res.FieldScores)); err != nil {
		t.Fatal(err)
	}
	if sh.Usage != nil && json.Unmarshal(sh.Usage, &res.Usage) != nil {
		t.Fatalf("usage %s", sh.Usage)
	}
	return encoded(t, res)
}

// TestPageUsesIndexes checks the query plans: a page seeks an index and reads in index
// order, with no scan of the run and no sort, so it costs the same on a run of a million.
func TestPageUsesIndexes(t *testing.T) {
	s, _ := open(t)
	for _, q := range []string{
		`SELECT ` + shownColumns + ` FROM results WHERE run_id = 'x' AND idx > 5 ORDER BY idx LIMIT 101`,
		`SELECT ` + shownColumns + ` FROM results WHERE run_id = 'x' AND status = 'valid' AND idx > 5 ORDER BY idx LIMIT 101`,
		`SELECT result FROM results WHERE run_id = 'x' ORDER BY idx`,
		`SELECT id FROM runs WHERE benchmark = 'b' ORDER BY id DESC LIMIT 100`,
		`UPDATE runs SET status = 'interrupted' WHERE status IN ('queued', 'running')`,
	} {
		rows, err := s.r.Query("EXPLAIN QUERY PLAN " + q)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			rows.Scan(&id, &parent, &notused, &detail)
			plan = append(plan, detail)
		}
		rows.Close()
		p := strings.Join(plan, "; ")
		if !strings.Contains(p, "USING INDEX") && !strings.Contains(p, "USING COVERING INDEX") || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%s\n  plan: %s", q, p)
		}
	}
}

// TestReadersWhileWriting reads pages and progress while a writer stores a run: WAL lets
// readers see consistent, growing snapshots, and neither side waits or fails.
func TestReadersWhileWriting(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	const n = 20_000
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lastDone := 0
			for reads := 0; ; reads++ {
				select {
				case <-stop:
					if reads < 3 {
						errs <- errorf("only %d reads while writing", reads)
					}
					return
				default:
				}
				run, err := s.GetRun(r.ID)
				if err != nil {
					errs <- err
					return
				}
				if run.Done < lastDone || run.Done > n {
					errs <- errorf("runs.done went %d -> %d", lastDone, run.Done)
					return
				}
				lastDone = run.Done
				// runs.done and the results commit together: the 50 results before done are there.
				p, err := s.Page(r.ID, PageQuery{After: lastDone - 1 - 50, Limit: 50})
				if err != nil {
					errs <- err
					return
				}
				if want := min(50, lastDone); len(p.Results) < want {
					errs <- errorf("done %d, but of the %d results before it %d are stored", lastDone, want, len(p.Results))
					return
				}
			}
		}()
	}
	w := s.ResultWriter(r.ID)
	for i := range n {
		if err := w.Add(example(i)); err != nil {
			t.Fatal(err)
		}
		if i%100 == 99 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	w.Close()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestPrior serves a resumed run the stored results in index order, across read chunks
// and long gaps, as engine.Options.Prior asks for them.
func TestPrior(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	stored := func(i int) bool { return i%5 != 0 && (i < 1200 || i > 2600) && i < 4000 }
	w := s.ResultWriter(r.ID)
	for i := range 5000 {
		if stored(i) {
			w.Add(example(i))
		}
	}
	w.Close()
	p := s.Prior(r.ID)
	for i := range 5000 {
		res, ok := p.Get(i)
		if ok != stored(i) {
			t.Fatalf("Get(%d): %v, want %v", i, ok, stored(i))
		}
		if ok && encoded(t, res) != encoded(t, example(i)) {
			t.Fatalf("Get(%d): %s", i, encoded(t, res))
		}
	}
	// Out of order still answers right, one query at a time.
	if res, ok := p.Get(7); !ok || res.Index != 7 {
		t.Errorf("Get(7) again: %v %d", ok, res.Index)
	}
	if _, ok := p.Get(10); ok {
		t.Error("Get(10) again: found")
	}
	if p.Err() != nil {
		t.Error(p.Err())
	}
	if _, ok := s.Prior("nope").Get(0); ok {
		t.Error("an unknown run has results")
	}
}

package server

import (
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/store"
)

// TestEvents follows a run from before its first example to its end: progress at once and
// then at most every progressEvery, one event per example in order, and done last.
func TestEvents(t *testing.T) {
	dir := runWorkspace(t, slow{gate: true, delay: 20})
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "slow/benchmark.yaml", "concurrency": 1}`)
	began := time.Now()
	next, closeStream := events(t, srv, id)
	defer closeStream()
	first, ok := next()
	if !ok || first.name != "progress" {
		t.Fatalf("first event %+v", first)
	}
	openGate(t, dir) // every example completes after the client is listening

	var examples []int
	var last api.Progress
	progress := 1
	for {
		e, ok := next()
		if !ok {
			t.Fatal("the stream ended without a done event")
		}
		switch e.name {
		case "progress":
			progress++
			json.Unmarshal([]byte(e.data), &last)
		case "example":
			var ex api.Example
			json.Unmarshal([]byte(e.data), &ex)
			examples = append(examples, ex.Index)
			if (ex.Index%4 == 3) != (ex.Status == "execution_error") || (ex.Score == nil) != (ex.Status != "valid") {
				t.Errorf("example %s", e.data)
			}
		case "done":
			var d api.Done
			json.Unmarshal([]byte(e.data), &d)
			if d.Status != api.Completed || d.Summary == nil || d.Summary.Examples != slowExamples || d.BenchmarkScore == nil {
				t.Errorf("done %s", e.data)
			}
			if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}; !slices.Equal(examples, want) {
				t.Errorf("examples %v, want %v", examples, want)
			}
			if last.Done != slowExamples || last.Total != slowExamples || last.Summary.Examples != slowExamples || last.Rate <= 0 {
				t.Errorf("last progress %+v", last)
			}
			// Apart from the first and the last, progress events are progressEvery apart.
			if most := 2 + int(time.Since(began)/progressEvery); progress > most {
				t.Errorf("%d progress events in %v, at most %d expected", progress, time.Since(began), most)
			}
			if _, more := next(); more {
				t.Error("events after done")
			}
			return
		default:
			t.Errorf("unexpected event %+v", e)
		}
	}
}

// TestEventsOfAFinishedRun: a run that is over answers with its done event alone.
func TestEventsOfAFinishedRun(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	waitStatus(t, srv, id, store.Completed)
	next, closeStream := events(t, srv, id)
	defer closeStream()
	e, ok := next()
	var d api.Done
	json.Unmarshal([]byte(e.data), &d)
	if !ok || e.name != "done" || d.Status != api.Completed || d.Summary.Valid != 6 || math.Abs(*d.BenchmarkScore-invoiceScore) > 1e-12 {
		t.Errorf("event %+v", e)
	}
	if _, more := next(); more {
		t.Error("events after done")
	}
	if r := call(t, srv, "GET", "/api/runs/NOPE/events", ""); r.status != http.StatusNotFound {
		t.Errorf("unknown run: %d", r.status)
	}
}

// TestSlowSubscriber: a subscriber that does not read keeps a bounded queue; what it
// missed comes back as one skipped range, right before the examples it kept.
func TestSlowSubscriber(t *testing.T) {
	b := newBroker(api.Progress{})
	idle, reader := b.subscribe(), b.subscribe()
	const n = 10_000
	var got []int
	for i := range n {
		b.example(api.Example{Index: i, Status: "valid"})
		b.setProgress(api.Progress{Done: i + 1, Total: n})
		if i%100 == 99 {
			bt := b.take(reader)
			if bt.skipped != nil {
				t.Fatalf("a reader that keeps up skipped %+v", bt.skipped)
			}
			for _, e := range bt.examples {
				got = append(got, e.Index)
			}
		}
		if len(idle.examples) > maxPending {
			t.Fatalf("%d events queued", len(idle.examples))
		}
	}
	if len(got) != n || got[n-1] != n-1 {
		t.Errorf("the reader got %d examples", len(got))
	}
	bt := b.take(idle)
	if bt.skipped == nil || bt.skipped.From != 0 || bt.skipped.To+1 != bt.examples[0].Index || bt.skipped.Count != bt.skipped.To+1 {
		t.Fatalf("skipped %+v, then from %d", bt.skipped, bt.examples[0].Index)
	}
	for i, e := range bt.examples {
		if e.Index != bt.examples[0].Index+i {
			t.Fatalf("kept examples are not consecutive: %d at %d", e.Index, i)
		}
	}
	if last := bt.examples[len(bt.examples)-1].Index; last != n-1 || bt.progress.Done != n || bt.seq != n {
		t.Errorf("last kept %d, progress %+v (seq %d)", last, bt.progress, bt.seq)
	}
	b.finish(api.Done{Status: api.Completed})
	if bt := b.take(idle); bt.final == nil || bt.skipped != nil || len(bt.examples) != 0 {
		t.Errorf("after finish: %+v", bt)
	}
	b.unsubscribe(idle)
	b.unsubscribe(reader)
	if len(b.subs) != 0 {
		t.Errorf("%d subscribers left", len(b.subs))
	}
}

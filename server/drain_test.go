package server

import (
	"testing"

	"github.com/benchy-eval/benchy/engine"
)

// TestDrain: once on, a drain lets the examples in flight finish and waits for their
// results to be written, in index order, before it says the run may stop.
func TestDrain(t *testing.T) {
	stop := make(chan struct{})
	d := newDrain(stop)
	drained := func() bool {
		select {
		case <-d.drained:
			return true
		default:
			return false
		}
	}
	prior := d.prior(func(i int) (engine.ExampleResult, bool) { return engine.ExampleResult{Index: i}, i == 0 })
	if _, ok := prior(0); !ok { // example 0 is reused
		t.Fatal("the stored result of example 0 was not reused")
	}
	d.wrote(0)
	if !d.begin() || !d.begin() { // examples 1 and 2 go to the AI-system
		t.Fatal("examples refused before the drain")
	}
	d.start()
	if d.begin() {
		t.Error("an example started once the drain was on")
	}
	steps := []struct {
		name string
		step func()
	}{
		{"example 2 answered", func() { d.evaluated(2) }},
		{"example 1 answered", func() { d.evaluated(1) }},
		{"example 1 written", func() { d.wrote(1) }},
	}
	for _, s := range steps {
		if drained() {
			t.Fatalf("drained before %s", s.name)
		}
		s.step()
	}
	if drained() {
		t.Fatal("drained before example 2 was written")
	}
	d.wrote(2)
	if !drained() {
		t.Fatal("not drained with nothing in flight and everything written")
	}
	close(stop) // the run ends: a dispatcher parked in Prior returns
	if _, ok := prior(3); ok {
		t.Error("a parked dispatcher got a result")
	}
}

// TestDrainIdle: a run with nothing in flight drains at once.
func TestDrainIdle(t *testing.T) {
	d := newDrain(make(chan struct{}))
	d.start()
	select {
	case <-d.drained:
	default:
		t.Error("an idle run did not drain")
	}
}

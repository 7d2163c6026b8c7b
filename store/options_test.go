package store

import (
	"errors"
	"strings"
	"testing"
)

// TestOptionsRoundTrip: a run's budget and cache mode are stored with its options and read
// back (GetRun, ListRuns), so that a resume goes on as the run began.
func TestOptionsRoundTrip(t *testing.T) {
	s, _ := open(t)
	sp := spec("b.yaml")
	sp.Options = Options{Limit: 3, Concurrency: 2, RecordRequests: -1, MaxCost: 0.05, MaxTokens: 9000, Cache: "use"}
	r, err := s.CreateRun(sp)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(r.ID)
	if err != nil || got.Options != sp.Options {
		t.Fatalf("GetRun's options %+v (%v), want %+v", got.Options, err, sp.Options)
	}
	list, err := s.ListRuns(Filter{}, 10)
	if err != nil || len(list) != 1 || list[0].Options != sp.Options {
		t.Fatalf("ListRuns' options %+v (%v), want %+v", list, err, sp.Options)
	}
	raised := sp.Options
	raised.MaxCost = 1
	if err := s.SetOptions(r.ID, raised); !errors.Is(err, ErrTransition) {
		t.Errorf("SetOptions of a queued run: %v, want ErrTransition", err)
	}
	if err := s.MarkRunning(r.ID, 3); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelFor(r.ID, "budget"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetOptions(r.ID, raised); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetRun(r.ID); err != nil || got.Options != raised {
		t.Errorf("after SetOptions: %+v (%v), want %+v", got.Options, err, raised)
	}
}

// TestResumed: a resume keeps the stored budget when it asks for none, takes a larger one
// or one on a side the run had no limit on, and refuses a smaller one.
func TestResumed(t *testing.T) {
	cost := Options{MaxCost: 0.05, Cache: "use"}
	both := Options{MaxCost: 0.05, MaxTokens: 1000}
	for _, c := range []struct {
		name    string
		stored  Options
		cost    float64
		tokens  int
		want    Options
		refusal string
	}{
		{"nothing asked keeps the budget", cost, 0, 0, cost, ""},
		{"nothing asked of a run without a budget", Options{Limit: 4}, 0, 0, Options{Limit: 4}, ""},
		{"a larger cost", cost, 0.5, 0, Options{MaxCost: 0.5, Cache: "use"}, ""},
		{"the same cost", cost, 0.05, 0, cost, ""},
		{"a larger token budget, the cost kept", both, 0, 5000, Options{MaxCost: 0.05, MaxTokens: 5000}, ""},
		{"a smaller cost", cost, 0.01, 0, cost, "max_cost $0.01 is below the run's budget of $0.05"},
		{"a smaller token budget", both, 0, 999, both, "max_tokens 999 is below the run's budget of 1000"},
		{"a cost on a run without one", Options{MaxTokens: 10}, 1, 0, Options{MaxCost: 1, MaxTokens: 10}, ""},
		{"tokens on a run without them", cost, 0, 10, Options{MaxCost: 0.05, MaxTokens: 10, Cache: "use"}, ""},
	} {
		got, err := c.stored.Resumed(c.cost, c.tokens)
		switch {
		case c.refusal == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.refusal != "" && (err == nil || !strings.Contains(err.Error(), c.refusal)):
			t.Errorf("%s: %v, want %q", c.name, err, c.refusal)
		case got != c.want:
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

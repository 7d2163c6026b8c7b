package store

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCancelFor: a run its budget stopped is cancelled with its reason, which GetRun,
// Peek, ListRuns and the run's JSON say; resuming it clears the reason; a user's cancel
// has none.
func TestCancelFor(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	if err := s.MarkRunning(r.ID, 5); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelFor(r.ID, "budget"); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetRun(r.ID)
	peek, _ := s.Peek(r.ID)
	list, _ := s.ListRuns(Filter{}, 10)
	if got.Status != Cancelled || got.Reason != "budget" || got.FinishedAt == nil || peek.Reason != "budget" || len(list) != 1 || list[0].Reason != "budget" {
		t.Fatalf("cancelled for the budget: %+v", got)
	}
	if b, _ := json.Marshal(got); !strings.Contains(string(b), `"reason":"budget"`) {
		t.Errorf("JSON %s lacks the reason", b)
	}
	if err := s.MarkRunning(r.ID, 5); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetRun(r.ID); got.Status != Running || got.Reason != "" {
		t.Errorf("resumed: status %s, reason %q", got.Status, got.Reason)
	}
	if err := s.SetStatus(r.ID, Cancelled); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetRun(r.ID); got.Reason != "" {
		t.Errorf("a user's cancel has reason %q", got.Reason)
	}
	if err := s.CancelFor(r.ID, "budget"); err == nil {
		t.Error("a cancelled run was cancelled again")
	}
}

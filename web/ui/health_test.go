package ui

import (
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestRunStatus: a completed run that failed as infrastructure is a red badge that says
// so; a completed run with a few execution errors, or one without health yet, stays as it is.
func TestRunStatus(t *testing.T) {
	for _, c := range []struct {
		run         api.Run
		class, text string
	}{
		{api.Run{Status: api.Completed, Health: &api.Health{Failed: true}}, "failed", "completed · failed infrastructure"},
		{api.Run{Status: api.Completed, Health: &api.Health{Failed: false, Code: "provider_error"}}, "completed", "completed"},
		{api.Run{Status: api.Completed}, "completed", "completed"},
		{api.Run{Status: api.Running}, "running", "running"},
		{api.Run{Status: api.Cancelled, Reason: api.ReasonBudget}, "cancelled", "cancelled: budget reached"},
		{api.Run{Status: api.Cancelled}, "cancelled", "cancelled"},
	} {
		if class, text := RunStatus(&c.run, c.run.Status); class != c.class || text != c.text {
			t.Errorf("%s %+v: %q %q, want %q %q", c.run.Status, c.run.Health, class, text, c.class, c.text)
		}
	}
}

package ui

import "github.com/benchy-eval/benchy/api"

// FailedInfra is the status text of a completed run that failed as infrastructure.
const FailedInfra = "failed infrastructure"

// RunStatus is the class and the text of run r's status badge, shown being the status as
// the page words it (r.Status, or a live phase such as "starting"). A run that failed as
// infrastructure (most examples execution errors, api.Health) is red and says so, not a
// green "completed": its score measures the setup, not the system.
func RunStatus(r *api.Run, shown string) (class, text string) {
	if r.Health != nil && r.Health.Failed {
		return "failed", shown + " · " + FailedInfra
	}
	if r.Status == api.Cancelled && r.Reason == api.ReasonBudget && shown == r.Status {
		return r.Status, shown + ": " + BudgetReached
	}
	return r.Status, shown
}

// BudgetReached is the status text's end of a run cancelled at its budget (api.ReasonBudget),
// and BudgetHint what to do about it.
const (
	BudgetReached = "budget reached"
	BudgetHint    = "The run stopped before its next requests would have exceeded its budget (max cost or max tokens). Resume it with a larger budget: it evaluates only the missing examples."
)

// Failed reports whether run r failed as infrastructure: its score is not meaningful and
// is never shown as a result (NotMeaningful).
func Failed(r *api.Run) bool { return r.Health != nil && r.Health.Failed }

// NotMeaningful is what a failed run shows beside its struck-out score.
const NotMeaningful = "not meaningful: the run failed, most examples did not execute"

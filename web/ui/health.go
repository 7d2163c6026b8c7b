package ui

import "github.com/benchy-eval/benchy/api"

// FailedInfra is the status text of a completed run that failed as infrastructure.
const FailedInfra = "failed infrastructure"

// RunStatus is run r's status as its badge shows it: the class and the text. A run that
// failed as infrastructure (most examples execution errors, api.Health) is red and says
// so, not a green "completed": its score measures the setup, not the system.
func RunStatus(r *api.Run) (class, text string) {
	if r.Health != nil && r.Health.Failed {
		return "failed", r.Status + " · " + FailedInfra
	}
	return r.Status, r.Status
}

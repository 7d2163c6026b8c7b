package slurm

// Ended reports whether a job or array task in state (squeue's %T) will not go on: it
// completed, failed, was cancelled, timed out or lost its node. A watcher (the server's
// cluster executor) settles a run once every task of its array has ended.
func Ended(state string) bool {
	switch state {
	case "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
		"OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "REVOKED", "SPECIAL_EXIT":
		return true
	}
	return false
}

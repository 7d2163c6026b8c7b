package cli

import "fmt"

// runSlurm is benchy slurm (issue 17): being built; it refuses every call until it lands.
func runSlurm(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "benchy slurm: not built yet")
	return ExitUsage
}

package cli

import "fmt"

// runMerge is benchy merge (issue 17): being built; it refuses every call until it lands.
func runMerge(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "benchy merge: not built yet")
	return ExitUsage
}

package cli

import "fmt"

// runK8s is benchy k8s (issue 17): being built; it refuses every call until it lands.
func runK8s(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "benchy k8s: not built yet")
	return ExitUsage
}

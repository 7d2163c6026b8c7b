package testkit

import (
	"os/exec"
	"testing"
)

// DeadPID is the id of a process that has exited and been reaped: an owner that is
// certainly gone. The test is skipped where `true` cannot run.
func DeadPID(t testing.TB) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	return cmd.Process.Pid
}

//go:build unix && !linux

package adapter

import (
	"os"
	"os/exec"
	"syscall"
)

// newProcessGroup puts a command in a process group of its own, so that its children die
// with it. There is no parent-death signal here: a command outlives a benchy killed with
// -9 until it reads the end of its stdin.
func newProcessGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func startCommand(cmd *exec.Cmd) error { return cmd.Start() }

// awaitExit cannot wait without reaping here: the group is killed after the command is
// reaped, while its other members keep the group's id from being reused.
func awaitExit(*os.Process) bool { return false }

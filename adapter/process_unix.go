//go:build unix

package adapter

import (
	"os"
	"syscall"
)

// newProcessGroup puts a command in a process group of its own.
func newProcessGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills a command and every process it started in its group.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
	p.Kill()
}

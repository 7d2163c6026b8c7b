//go:build unix

package adapter

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// baseEnv are the variables every command gets from benchy's environment, when set: enough
// to find programs, a home, the locale and a temporary directory, and nothing of benchy's
// own (BENCHY_TOKEN) or of the providers' (their keys). A binding's env adds to them.
var baseEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR"}

// killGroup kills every process of the command's process group, the command included.
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
	p.Kill()
}

// stopSignal reports whether a process that ended with err was stopped by a signal that
// ends a job (SIGTERM, SIGINT, SIGHUP), as a supervisor sends to every process of a job
// at once (Slurm's scancel, Kubernetes, a terminal's Ctrl-C): benchy is being stopped too.
func stopSignal(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return false
	}
	switch ws.Signal() {
	case syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP:
		return true
	}
	return false
}

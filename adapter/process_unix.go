//go:build unix

package adapter

import (
	"os"
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

//go:build !unix

package adapter

import (
	"os"
	"os/exec"
	"syscall"
)

// baseEnv: see process_unix.go; Windows programs need their system folders too.
var baseEnv = []string{"PATH", "PATHEXT", "SYSTEMROOT", "WINDIR", "COMSPEC", "TEMP", "TMP", "USERPROFILE", "HOME", "LANG"}

func newProcessGroup() *syscall.SysProcAttr { return nil }

func startCommand(cmd *exec.Cmd) error { return cmd.Start() }

func awaitExit(*os.Process) bool { return false }

func killGroup(p *os.Process) { p.Kill() }

// stopSignal: where a process's signal is not read, no death is a stop's.
func stopSignal(error) bool { return false }

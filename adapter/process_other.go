//go:build !unix

package adapter

import (
	"os"
	"syscall"
)

func newProcessGroup() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) { p.Kill() }

package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// terminalColumns is the width of the terminal f is, 0 when it cannot be asked. It goes
// through SyscallConn, not Fd, which would turn f to blocking mode.
func terminalColumns(f *os.File) int {
	c, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	var size struct{ rows, cols, x, y uint16 } // struct winsize
	var e syscall.Errno
	if c.Control(func(fd uintptr) {
		_, _, e = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&size)))
	}) != nil || e != 0 {
		return 0
	}
	return int(size.cols)
}

//go:build linux

package adapter

import (
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// newProcessGroup puts a command in a process group of its own, so that its children die
// with it, and has the kernel kill it (SIGKILL) when benchy dies, kill -9 included.
func newProcessGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// The parent-death signal fires when the thread that started the child ends, not the
// process (prctl(2); golang/go#27505), and the Go runtime ends a thread whose goroutine
// exits while locked to it: a child started from such a thread, by luck of scheduling,
// would be killed long before benchy ends. So every command starts from one goroutine
// locked to its thread for the life of the process: that thread never ends before benchy.
var spawner struct {
	once sync.Once
	reqs chan spawnRequest
}

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

// startCommand starts cmd from the spawner's thread.
func startCommand(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnRequest)
		go func() {
			runtime.LockOSThread() // never unlocked: this goroutine never returns
			for r := range spawner.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawner.reqs <- spawnRequest{cmd, done}
	return <-done
}

// awaitExit blocks until the process has exited, without reaping it: while it is a zombie
// its id still names its process group, so the group can be killed with no risk of hitting
// a new process that reused the id. It reports false when it cannot tell.
func awaitExit(p *os.Process) bool {
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, 1 /* P_PID */, uintptr(p.Pid),
			uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			return errno == 0
		}
	}
}

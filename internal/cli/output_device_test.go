//go:build unix

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputNeverReplacesADevice: -o naming a device, a FIFO or a socket is refused by
// benchy run and benchy runs export. Both write a new file and rename it into place, which
// for `-o /dev/null` run as root replaced the machine's /dev/null with a regular file (a FIFO
// stands in for the device here: the same path, without touching /dev).
func TestOutputNeverReplacesADevice(t *testing.T) {
	dir, id := storedRun(t)
	in := func(p string) string { return filepath.Join(dir, p) }
	fifo := in("sink")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, args := range [][]string{
		{"run", "--no-store", "-o", fifo, in("benchmark.yaml")},
		{"runs", "export", "--workspace", dir, "-o", fifo, id},
	} {
		code, _, stderr := runBenchy(t, args...)
		if code != 2 || !strings.Contains(stderr, "is not a regular file") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, %q; want 2 and one line saying it is not a regular file", args[0:2], code, stderr)
		}
		if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("%s: the FIFO was replaced: %v %v", args[0:2], info.Mode(), err)
		}
	}
}

package cli

import (
	"bytes"
	"path/filepath"
	"testing"
)

// BenchmarkStderrFile: a run's stderr log taking 64 MiB of 100-byte lines, what an adapter
// spamming its stderr costs the run beside what reaches the terminal.
func BenchmarkStderrFile(b *testing.B) {
	line := append(bytes.Repeat([]byte("x"), 99), '\n')
	b.SetBytes(stderrFileMost)
	for range b.N {
		f := &stderrFile{path: filepath.Join(b.TempDir(), "run.stderr.log")}
		for range stderrFileMost / (len(line) + len("sys[1]: ")) {
			f.write("sys[1]: ", line)
		}
		f.close()
	}
}

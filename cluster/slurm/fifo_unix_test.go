//go:build unix

package slurm

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/shard"
)

// TestShardsFIFORefused: a FIFO as a shard's journal or manifest is an error at once, not a
// read that waits for a writer: Shards is what the server's watcher reads every poll, and
// a hang there held the server's shutdown too.
func TestShardsFIFORefused(t *testing.T) {
	for _, name := range []string{shard.JournalFile, shard.ManifestFile} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			sd := shard.Dir(dir, engine.Shard{K: 0, N: 1})
			os.MkdirAll(sd, 0o755)
			p := filepath.Join(sd, name)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			t.Cleanup(func() { // let go a reader left waiting on it
				if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			})
			done := make(chan error, 1)
			go func() { _, err := Shards(dir, 1); done <- err }()
			select {
			case err := <-done:
				if err == nil {
					t.Fatalf("Shards read a FIFO as %s", name)
				}
				t.Log(err)
			case <-time.After(30 * time.Second):
				t.Fatal("still waiting after 30 s: a FIFO was opened as a file")
			}
		})
	}
}

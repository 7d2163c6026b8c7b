//go:build unix

package shard

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/engine"
)

// fifoAt puts a FIFO at path in place of what is there; cleanup opens it for writing once,
// so that a reader the code under test left waiting on it is let go.
func fifoAt(t *testing.T, path string) {
	t.Helper()
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
}

// promptly runs f and fails the test if it has not returned within 30 s (a FIFO waited
// on would hang it for ever), returning its error otherwise.
func promptly(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("still waiting after 30 s: a FIFO was opened as a file")
		return nil
	}
}

// TestShardFilesFIFORefused: a FIFO as a shard's results.jsonl or manifest.json is refused
// at once as not a regular file, by the merge and by the shard's own run, as every other
// input is: it hung benchy merge, and the server's watcher with its shutdown.
func TestShardFilesFIFORefused(t *testing.T) {
	for _, name := range []string{JournalFile, ManifestFile} {
		t.Run("merge "+name, func(t *testing.T) {
			dir := t.TempDir()
			want := writeSet(t, dir, 6, 2)
			out := filepath.Join(dir, "shards")
			fifoAt(t, filepath.Join(Dir(out, engine.Shard{K: 1, N: 2}), name))
			err := promptly(t, func() error {
				set, err := Open(out)
				if err != nil {
					return err
				}
				_, err = set.Report(want, nil)
				return err
			})
			if err == nil {
				t.Fatal("a merge over a FIFO succeeded")
			}
			t.Log(err)
		})
	}
	t.Run("run "+JournalFile, func(t *testing.T) {
		p := filepath.Join(t.TempDir(), JournalFile)
		fifoAt(t, p)
		err := promptly(t, func() error {
			j, err := OpenJournal(p, engine.Shard{K: 0, N: 1})
			if err == nil {
				j.Close()
			}
			return err
		})
		if err == nil {
			t.Fatal("a shard's run opened a FIFO as its journal")
		}
		t.Log(err)
	})
}

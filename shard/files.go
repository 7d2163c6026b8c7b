package shard

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/benchy-eval/benchy/engine"
)

// A shard's files are read as every other input is (engine.OpenRegular): a regular file,
// opened without blocking, so that a FIFO or a device put in a shard's folder is refused at
// once rather than waited on by benchy merge, a shard's run, or the server's watcher (and
// its shutdown behind it).

// MaxManifest bounds a manifest's size: the IR it holds is at most a few MiB.
const MaxManifest = 64 << 20

// readSmall reads the regular file at path, at most max bytes.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := engine.OpenRegular(path)
	if err != nil {
		return nil, notRegular(path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s is larger than %d MiB: not a shard's manifest", path, max>>20)
	}
	return b, err
}

// openJournalFile opens a journal for flag (writing, or reading it again), refusing what
// is not a regular file: a link too, since a journal is a file the shard created.
func openJournalFile(path string, flag int) (*os.File, error) {
	if info, err := os.Lstat(path); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, engine.ErrNotRegular)
	}
	f, err := os.OpenFile(path, flag|nonBlocking, 0o644)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, engine.ErrNotRegular)
	}
	return f, nil
}

// notRegular names path in engine.OpenRegular's ErrNotRegular, which does not.
func notRegular(path string, err error) error {
	if errors.Is(err, engine.ErrNotRegular) {
		return fmt.Errorf("%s: %w", path, err)
	}
	return err
}

package store

import (
	"path/filepath"
	"sync"
	"testing"
)

// TestOpenNewStoreTogether: two openers of one new store (benchy run --parallel-systems
// records each system's run through its own Store) both open it: the second was refused
// "database is locked" (SQLITE_BUSY) while the first turned WAL on and migrated, and its
// run went unrecorded.
func TestOpenNewStoreTogether(t *testing.T) {
	for i := range 40 {
		path := filepath.Join(t.TempDir(), "x", "benchy.db")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for j := range 2 {
			wg.Go(func() {
				s, err := Open(path)
				errs[j] = err
				if err == nil {
					s.Close()
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatalf("try %d: %v", i, err)
			}
		}
	}
}

package store

import (
	"database/sql"
	"testing"
	"time"
)

// TestAddDoesNotWaitForCommit: while another connection holds the database's write lock,
// so that a commit waits, Add goes on taking results past a full batch without waiting
// for it (the engine's writing loop calls Add, and a commit's fsync stalled the run); Close
// waits, and then every result is stored once.
func TestAddDoesNotWaitForCommit(t *testing.T) {
	s, path := open(t)
	r := create(t, s, "b.yaml")
	db, err := sql.Open("sqlite", path+"?"+pragmas)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	locker, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := locker.Exec(`UPDATE runs SET done = done WHERE id = ?`, r.ID); err != nil { // takes the write lock
		t.Fatal(err)
	}
	w := s.ResultWriter(r.ID)
	const n = batchSize + 500
	added := make(chan time.Duration)
	go func() {
		start := time.Now()
		for i := range n {
			if err := w.Add(example(i)); err != nil {
				t.Error(err)
			}
		}
		added <- time.Since(start)
	}()
	const hold = 2 * time.Second
	select {
	case took := <-added:
		t.Logf("%d results added in %s with the database locked", n, took)
	case <-time.After(hold):
		t.Errorf("Add waited for a commit: %d results not added within %s with the database locked", n, hold)
		locker.Rollback()
		<-added
	}
	locker.Rollback()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetRun(r.ID)
	done, err := s.RecordedSet(r.ID)
	if err != nil || got.Done != n || done.Len() != n {
		t.Errorf("runs.done %d, %d stored, %v; want %d", got.Done, done.Len(), err, n)
	}
}

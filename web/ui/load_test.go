package ui

import (
	"errors"
	"testing"
)

// TestLoad: each row is a sentence about a remote value a page shows.
func TestLoad(t *testing.T) {
	boom := errors.New("boom")
	t.Run("an answer is taken, and then shown", func(t *testing.T) {
		var l Load[int]
		tk := l.Start("a")
		if !l.Busy || l.Answered() {
			t.Fatalf("started: %+v", l)
		}
		if !l.Settle(tk, 7, nil) || l.Value != 7 || !l.OK || l.Busy || !l.Has("a") || l.Has("b") || !l.Answered() {
			t.Fatalf("settled: %+v", l)
		}
	})
	t.Run("only the newest request's answer is taken", func(t *testing.T) {
		var l Load[int]
		old := l.Start("a")
		tk := l.Start("a")
		if l.Settle(old, 1, nil) || l.OK || !l.Busy {
			t.Fatalf("a stale answer was taken: %+v", l)
		}
		if l.Current(old) || !l.Current(tk) || l.Ticket() != tk {
			t.Fatal("Current")
		}
		l.Settle(tk, 2, nil)
		if l.Value != 2 {
			t.Fatalf("%+v", l)
		}
	})
	t.Run("a refresh of the same key keeps the value until its answer", func(t *testing.T) {
		var l Load[int]
		l.Settle(l.Start("a"), 1, nil)
		tk := l.Start("a")
		if l.Value != 1 || !l.OK {
			t.Fatalf("refreshing dropped the value: %+v", l)
		}
		l.Settle(tk, 0, boom)
		if l.Value != 1 || !l.OK || l.Err != boom {
			t.Fatalf("a failed refresh: %+v", l)
		}
	})
	t.Run("another key drops the old value and error", func(t *testing.T) {
		var l Load[int]
		l.Settle(l.Start("a"), 1, boom)
		l.Start("b")
		if l.OK || l.Err != nil || l.Value != 0 || l.Key != "b" {
			t.Fatalf("%+v", l)
		}
	})
	t.Run("a reset drops the answer on its way", func(t *testing.T) {
		var l Load[int]
		tk := l.Start("a")
		l.Reset()
		if l.Settle(tk, 1, nil) || l.OK || l.Busy || l.Key != "" {
			t.Fatalf("%+v", l)
		}
	})
}

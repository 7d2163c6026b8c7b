package k8s_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/cluster/k8s"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/shard"
)

// TestWait: k8s.Wait returns only once every shard's manifest says complete, reporting each
// change of what is pending (missing, incomplete); a shard not there yet is waited for, an
// unreadable manifest is an error, and the context ends the wait.
func TestWait(t *testing.T) {
	dir := t.TempDir()
	write := func(k int, complete bool) {
		s := engine.Shard{K: k, N: 2}
		if err := os.MkdirAll(shard.Dir(dir, s), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := shard.WriteManifest(shard.Dir(dir, s), &shard.Manifest{K: k, N: 2, Complete: complete}); err != nil {
			t.Fatal(err)
		}
	}
	reports := make(chan string, 10)
	done := make(chan error, 1)
	go func() {
		done <- k8s.Wait(context.Background(), dir, 2, 5*time.Millisecond, func(p []shard.Missing) { reports <- fmt.Sprint(p) })
	}()
	next := func(want string) {
		t.Helper()
		select {
		case got := <-reports:
			if got != want {
				t.Fatalf("report %s, want %s", got, want)
			}
		case err := <-done:
			t.Fatalf("returned %v while waiting for %s", err, want)
		case <-time.After(5 * time.Second):
			t.Fatalf("no report %s", want)
		}
	}
	next("[{0/2 missing} {1/2 missing}]")
	write(1, false)
	next("[{0/2 missing} {1/2 incomplete}]")
	write(0, true)
	next("[{1/2 incomplete}]")
	write(1, true)
	next("[]")
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	os.WriteFile(shard.Dir(dir, engine.Shard{K: 0, N: 2})+"/manifest.json", []byte("{"), 0o644)
	if err := k8s.Wait(context.Background(), dir, 2, time.Millisecond, func([]shard.Missing) {}); err == nil {
		t.Error("an unreadable manifest: no error")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := k8s.Wait(ctx, t.TempDir(), 2, time.Millisecond, func([]shard.Missing) {}); err != context.DeadlineExceeded {
		t.Errorf("no shard ever: %v, want the deadline", err)
	}
}

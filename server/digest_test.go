package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/compiler"
	"github.com/benchy-eval/benchy/store"
)

// TestDigestSeesArtifactChange: the digest a page trusts is of the dataset as it stands,
// artifacts included: one byte of an image rewritten in place (its time set back, the JSONL
// file untouched) gives the file's board the new digest and the run's page no rows, and the
// byte set back gives them back. While nothing changed, a page validates nothing. The kept digest was the JSONL file's version's alone, so
// both showed the old exam until the server restarted.
func TestDigestSeesArtifactChange(t *testing.T) {
	dir := runWorkspace(t, slow{})
	_, srv := serve(t, Config{Workspace: dir})
	id := startRun(t, srv, `{"benchmark": "benchmark.yaml"}`)
	run := waitStatus(t, srv, id, store.Completed)
	forgetRows(t, dir, id) // its pages read the dataset (TestRecordedRowsShown)
	data := filepath.Join(dir, "data", "invoices.jsonl")
	rows, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	setFile(t, data, string(rows), time.Hour) // a version old enough to be kept
	look := func(what string, same bool) string {
		var board api.Leaderboard
		decode(t, srv, "GET", api.LeaderboardFor(url.Values{"benchmark": {"benchmark.yaml"}}), "", http.StatusOK, &board)
		var page api.ResultPage
		decode(t, srv, "GET", api.RunPath(id)+"/results?limit=1", "", http.StatusOK, &page)
		shown := len(page.Results) == 1 && page.Results[0].Input != nil
		if (board.DatasetDigest == run.DatasetDigest) != same || !strings.HasPrefix(board.DatasetDigest, "sha256:") || shown != same ||
			(!same && page.RowsNote != noteChanged) {
			return fmt.Sprintf("%s: the board's digest %s (the run's %s), rows shown %v (%q); want the run's dataset %v",
				what, board.DatasetDigest, run.DatasetDigest, shown, page.RowsNote, same)
		}
		return ""
	}
	check := func(what string, same bool) {
		t.Helper()
		if bad := look(what, same); bad != "" {
			t.Error(bad)
		}
	}
	// A change is seen once the last passing re-check is no longer trusted (recheckTrust
	// times what it took: longer on a loaded machine), not necessarily at the next page.
	eventually := func(what string, same bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			bad := look(what, same)
			if bad == "" {
				return
			}
			if time.Now().After(deadline) {
				t.Error(bad)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(2100 * time.Millisecond) // the files copied in are old enough to be vouched for
	check("the dataset as run", true)
	before := digests.runs.Load()
	check("the dataset as run, kept", true)
	if n := digests.runs.Load() - before; n != 0 {
		t.Errorf("a page of a dataset unchanged validated it %d times; its files' stat says it holds", n)
	}
	image := filepath.Join(dir, "images", "invoice-002.png")
	poke := func(b byte) {
		f, err := os.OpenFile(image, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt([]byte{b}, 40); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(image, old, old); err != nil {
			t.Fatal(err)
		}
	}
	orig, err := os.ReadFile(image)
	if err != nil || len(orig) < 41 {
		t.Fatalf("%s: %d bytes, %v", image, len(orig), err)
	}
	poke(orig[40] ^ 1)
	eventually("one byte of an image changed", false)
	check("one byte of an image changed, again", false)
	poke(orig[40])
	eventually("the byte set back", true)
}

// TestDigestValidatedOnce: requests waiting for the validation of one dataset share it,
// however many come at once and whether or not its result can be kept (a JSONL file
// written just now is not): eight boards at once validate once, not eight times in turn.
// A request that goes away stops waiting at once, and a validation no request waits for
// any more is dropped, unkept.
func TestDigestValidatedOnce(t *testing.T) {
	dir := runWorkspace(t, slow{})
	s, srv := serve(t, Config{Workspace: dir})
	data := filepath.Join(dir, "slow", "data.jsonl")
	setFile(t, data, slowData(), 0) // just now: not kept
	key := digestKey{s.dir, "slow/data.jsonl", ""}
	waiting := func() int { // the requests waiting for key's validation
		digests.mu.Lock()
		defer digests.mu.Unlock()
		for k, f := range digests.flights {
			if k.workspace == key.workspace && k.dataset == key.dataset {
				return f.waiting
			}
		}
		return 0
	}
	until := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited 10 s for %s", what)
			}
		}
	}

	digests.slot <- struct{}{} // hold the one validation slot: the requests gather
	before := digests.runs.Load()
	const n = 8
	var wg sync.WaitGroup
	boards := make([]api.Leaderboard, n)
	for i := range n {
		wg.Go(func() {
			decode(t, srv, "GET", api.LeaderboardFor(url.Values{"benchmark": {"slow/benchmark.yaml"}}), "", http.StatusOK, &boards[i])
		})
	}
	until("8 requests waiting", func() bool { return waiting() == n })
	<-digests.slot
	wg.Wait()
	if got := digests.runs.Load() - before; got != 1 {
		t.Errorf("%d requests at once validated %d times, want once", n, got)
	}
	for i, b := range boards {
		if !strings.HasPrefix(b.DatasetDigest, "sha256:") || b.DatasetDigest != boards[0].DatasetDigest || b.DatasetNote != "" {
			t.Errorf("request %d: digest %q, note %q", i, b.DatasetDigest, b.DatasetNote)
		}
	}

	// A request that goes away while the slot is held returns at once, and its validation,
	// waited for by nobody, is dropped without running.
	src, err := os.ReadFile(filepath.Join(dir, "slow", "benchmark.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b, ds := compiler.Compile(src)
	if len(ds) > 0 {
		t.Fatal(ds.Format("slow/benchmark.yaml"))
	}
	digests.slot <- struct{}{}
	before = digests.runs.Load()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan datasetNow)
	go func() { done <- s.datasetDigestNow(ctx, "slow/benchmark.yaml", b, "gone") }()
	until("the request waiting", func() bool { return waiting() == 1 })
	cancel()
	select {
	case d := <-done:
		if d.digest != "" || !strings.Contains(d.why, "the request ended") {
			t.Errorf("a request gone: %+v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a request gone kept waiting for the validation")
	}
	until("its validation dropped", func() bool { return waiting() == 0 })
	<-digests.slot
	time.Sleep(50 * time.Millisecond)
	if got := digests.runs.Load() - before; got != 0 {
		t.Errorf("a validation nobody waited for ran %d times", got)
	}
}

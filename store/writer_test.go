package store

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestWritesSurviveReopen(t *testing.T) {
	s, path := open(t)
	r := create(t, s, "b.yaml")
	const n = 2*batchSize + 345 // two full batches and a remainder that Close flushes
	write(t, s, r.ID, 0, n)
	s.Close()

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, _ := s.GetRun(r.ID)
	done, err := s.RecordedSet(r.ID)
	if err != nil || got.Done != n || done.Len() != n {
		t.Fatalf("after reopening: runs.done %d, %d stored, %v; want %d", got.Done, done.Len(), err, n)
	}
	for _, i := range []int{0, 7, 5, 999, 1000, n - 1} {
		res, ok, err := s.Result(r.ID, i)
		if err != nil || !ok {
			t.Fatalf("result %d: %v %v", i, ok, err)
		}
		if got, want := encoded(t, res), encoded(t, example(i)); got != want {
			t.Errorf("result %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

func TestTimedFlush(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	w := s.ResultWriter(r.ID)
	defer w.Close()
	for i := range 3 {
		if err := w.Add(example(i)); err != nil {
			t.Fatal(err)
		}
	}
	// No Flush: a slow run's results still reach the database within flushEvery.
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, _ := s.GetRun(r.ID)
		if got.Done == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("3 results added, %d stored after 5 s", got.Done)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestResultsAreWriteOnce(t *testing.T) {
	s, _ := open(t)
	r := create(t, s, "b.yaml")
	write(t, s, r.ID, 0, 10)
	// A resumed run adds everything again, some of it different: what was stored stays.
	w := s.ResultWriter(r.ID)
	for i := range 15 {
		res := example(i)
		if i < 10 {
			res.Contribution = 42
		}
		w.Add(res)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetRun(r.ID)
	res, _, _ := s.Result(r.ID, 3)
	if got.Done != 15 || res.Contribution == 42 {
		t.Errorf("done %d (want 15), result 3 contribution %v (want the first one)", got.Done, res.Contribution)
	}
}

func TestWriterErrors(t *testing.T) {
	s, _ := open(t)
	w := s.ResultWriter("no-such-run")
	w.Add(example(0))
	if err := w.Flush(); err == nil {
		t.Error("results of an unknown run were stored")
	}
	r := create(t, s, "b.yaml")
	w = s.ResultWriter(r.ID)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(example(0)); !errors.Is(err, ErrClosed) {
		t.Errorf("Add after Close: %v, want ErrClosed", err)
	}
}

// TestCommittedResultsSurviveSIGKILL runs a child process that stores results and kills
// itself with SIGKILL without closing anything: every result it flushed is there.
func TestCommittedResultsSurviveSIGKILL(t *testing.T) {
	if path := os.Getenv("BENCHY_STORE_CRASH"); path != "" {
		crashChild(path)
		return
	}
	_, path := open(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCommittedResultsSurviveSIGKILL$")
	cmd.Env = append(os.Environ(), "BENCHY_STORE_CRASH="+path)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child did not die by SIGKILL: %v\n%s", err, out)
	}
	id := string(out)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := s.MarkInterrupted(); n != 1 || err != nil {
		t.Fatalf("MarkInterrupted: %d, %v", n, err)
	}
	got, err := s.GetRun(id)
	done, _ := s.RecordedSet(id)
	if err != nil || got.Status != Interrupted || got.Done != 1500 || done.Len() != 1500 || !done.Has(1499) || done.Has(1500) {
		t.Fatalf("after SIGKILL: %+v, %d stored, %v; want interrupted with 1500", got, done.Len(), err)
	}
	if missing := done.Missing(got.Total); len(missing) != 500 || missing[0] != 1500 {
		t.Errorf("missing: %d indices from %v, want 500 from 1500", len(missing), missing[:1])
	}
}

func crashChild(path string) {
	s, err := Open(path)
	if err != nil {
		panic(err)
	}
	r, err := s.CreateRun(spec("b.yaml"))
	if err != nil {
		panic(err)
	}
	s.MarkRunning(r.ID, 2000)
	w := s.ResultWriter(r.ID)
	for i := range 1500 {
		if err := w.Add(example(i)); err != nil {
			panic(err)
		}
	}
	if err := w.Flush(); err != nil { // reported complete
		panic(err)
	}
	os.Stdout.WriteString(r.ID)
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	time.Sleep(time.Minute)
	panic("still alive after SIGKILL: " + strconv.Itoa(os.Getpid()))
}

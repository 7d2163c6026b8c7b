package adapter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

func init() { childMain = orphanChild }

// procState is a process's state letter from /proc, or 0 when it is gone; its process
// group too.
func procState(pid int) (state byte, pgrp int) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0
	}
	i := bytes.LastIndexByte(stat, ')')
	var ppid int
	fmt.Sscanf(string(stat[i+2:]), "%c %d %d", &state, &ppid, &pgrp)
	return state, pgrp
}

// alive reports whether pid runs: a zombie, which nothing may have reaped yet in a
// container, is dead.
func alive(pid int) bool {
	s, _ := procState(pid)
	return s != 0 && s != 'Z' && s != 'X'
}

// groupMembers lists the live processes of process group pgid.
func groupMembers(pgid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if s, g := procState(pid); g == pgid && s != 'Z' && s != 'X' && s != 0 {
			out = append(out, pid)
		}
	}
	return out
}

func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

type forked struct{ PID, Child int }

func fork(t *testing.T, a interface {
	Invoke(context.Context, int, map[string]any) (any, error)
}, index, ms int) forked {
	t.Helper()
	out, err := a.Invoke(context.Background(), index, map[string]any{"action": "fork", "ms": ms})
	if err != nil {
		t.Fatal(err)
	}
	var f forked
	b, _ := json.Marshal(out)
	json.Unmarshal(b, &f)
	if f.PID == 0 || f.Child == 0 || !alive(f.Child) {
		t.Fatalf("fork: %s", b)
	}
	return f
}

// TestHardeningAdapterGroupDiesWithRun: a command that leaves `sleep 1000` running in the
// background takes it along when it ends: when the run closes the adapter, and when an
// example times out. No process of its group remains.
func TestHardeningAdapterGroupDiesWithRun(t *testing.T) {
	a := newEcho(t, "300ms", nil)
	f := fork(t, a, 0, 0)
	if g := groupMembers(f.PID); len(g) != 2 {
		t.Fatalf("group %d has %v, want the command and its sleep", f.PID, g)
	}
	a.Close()
	if !waitFor(2*time.Second, func() bool { return len(groupMembers(f.PID)) == 0 }) {
		t.Errorf("after the adapter closed, group %d still has %v (the sleep %d: alive %v)", f.PID, groupMembers(f.PID), f.Child, alive(f.Child))
	}

	a = newEcho(t, "300ms", nil)
	f = fork(t, a, 0, 60_000) // answers, then hangs
	if _, err := a.Invoke(context.Background(), 1, map[string]any{}); failureOf(t, err).Code != diag.Timeout {
		t.Fatalf("want a timeout, got %v", err)
	}
	if !waitFor(2*time.Second, func() bool { return len(groupMembers(f.PID)) == 0 }) {
		t.Errorf("after a timeout, group %d still has %v", f.PID, groupMembers(f.PID))
	}
}

// orphanChild is a stand-in for benchy: it starts the echo adapter, has it fork a sleep
// and hang, prints the process ids and waits to be killed.
func orphanChild() {
	dir := os.Getenv(childEnv)
	rt, err := LoadRuntime(filepath.Join(dir, RuntimeFile))
	if err != nil {
		panic(err)
	}
	factory, _, err := rt.Factory(&ir.Benchmark{AISystem: ir.AISystem{Type: ir.SystemExternal, ID: "echo"}}, dir, nil)
	if err != nil {
		panic(err)
	}
	a, err := factory()
	if err != nil {
		panic(err)
	}
	out, err := a.Invoke(context.Background(), 0, map[string]any{"action": "fork", "ms": 60_000})
	if err != nil {
		panic(err)
	}
	json.NewEncoder(os.Stdout).Encode(out)
	time.Sleep(time.Minute)
}

// TestHardeningAdapterDiesWithBenchy: kill -9 of the process that runs an adapter (the
// server, or benchy run) kills the adapter too, through the parent-death signal, even one
// that is busy and never reads the end of its stdin. Its own children are not reached (see
// the runtime file's section of the README); this test ends them itself.
func TestHardeningAdapterDiesWithBenchy(t *testing.T) {
	dir := t.TempDir()
	src := fmt.Sprintf("bindings:\n  echo:\n    command: [%q]\n    timeout: 5s\n", echoBin)
	if err := os.WriteFile(filepath.Join(dir, RuntimeFile), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var f forked
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &f)
	}
	if err != nil || !alive(f.PID) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the stand-in for benchy: %q, %v", line, err)
	}
	t.Cleanup(func() { syscall.Kill(-f.PID, syscall.SIGKILL) }) // the group's sleep
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !waitFor(3*time.Second, func() bool { return !alive(f.PID) }) {
		t.Errorf("the adapter %d outlived kill -9 of its benchy", f.PID)
	}
	t.Logf("the adapter's own child %d after kill -9 of benchy: alive %v", f.Child, alive(f.Child))
}

// TestHardeningParentDeathSignalOutlivesThread: the parent-death signal follows the
// thread that started the command (golang/go#27505). Adapters made on goroutines whose
// locked threads then end must live on: commands start from the spawner's own thread.
// Four of them, since a goroutine that happens to run on the main thread keeps it (the
// runtime cannot end that one).
func TestHardeningParentDeathSignalOutlivesThread(t *testing.T) {
	factory := echoFactory(t, t.TempDir(), echoBin, "5s", nil)
	type adapter interface {
		Invoke(context.Context, int, map[string]any) (any, error)
		Close() error
	}
	made := make(chan any, 4)
	for range 4 {
		go func() {
			runtime.LockOSThread() // never unlocked: the runtime ends this thread with the goroutine
			a, err := factory()
			if err != nil {
				made <- err
				return
			}
			made <- a
		}()
	}
	var adapters []adapter
	for range 4 {
		got := <-made
		a, ok := got.(adapter)
		if !ok {
			t.Fatal(got)
		}
		defer a.Close()
		adapters = append(adapters, a)
	}
	time.Sleep(200 * time.Millisecond) // the locked threads are gone by now
	for i, a := range adapters {
		if p := a.(*commandAdapter).p; p.hasExited() {
			t.Errorf("adapter %d: its command died with the thread that started it: %s", i, p.exitText())
		}
	}
}

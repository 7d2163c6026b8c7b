//go:build unix

package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/store"
)

// gatedSystems is a workspace of the slow adapter's benchmark over n examples with the
// bindings of systems: each a slow adapter logging its calls to NAME.log and holding its
// answers until the file its gate names exists in dir.
func gatedSystems(t *testing.T, n int, systems ...[2]string) string {
	t.Helper()
	dir := slowWorkspace(t, n, 0)
	rt := "bindings:\n"
	for _, s := range systems {
		rt += fmt.Sprintf("  %s:\n    command: [%q, -log, %q, -gate, %q]\n", s[0], slowBin(t),
			filepath.Join(dir, s[0]+".log"), filepath.Join(dir, s[1]))
	}
	testkit.WriteFiles(t, dir, map[string]string{"benchy.runtime.yaml": rt})
	return dir
}

// startBenchy starts the real benchy binary in dir; the test ends it, and opens every gate
// of dir's adapters (open), if it is still running.
func startBenchy(t *testing.T, dir string, open []string, args ...string) (*exec.Cmd, *bytes.Buffer, chan error) {
	t.Helper()
	cmd := exec.Command(benchyBin.build(t), args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		for _, g := range open {
			os.WriteFile(filepath.Join(dir, g), nil, 0o644) // no adapter is left holding
		}
		cmd.Process.Kill()
	})
	return cmd, &stderr, done
}

// TestRunSystemsAtOnce: --parallel-systems 2 runs two systems at once. The first holds its
// answers until the second has been called, so run one after the other they never end.
func TestRunSystemsAtOnce(t *testing.T) {
	dir := gatedSystems(t, 4, [2]string{"first", "second.log"}, [2]string{"second", "never"})
	os.WriteFile(filepath.Join(dir, "never"), nil, 0o644) // the second answers at once
	_, out, done := startBenchy(t, dir, []string{"second.log"},
		"run", "--system", "first", "--system", "second", "--parallel-systems", "2", "-o", "r-{system}.json", "benchmark.yaml")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the first system's run waited for the second, which never ran beside it\n%s", out)
	}
	if !strings.Contains(out.String(), "first: score 1.0000") || !strings.Contains(out.String(), "second: score 1.0000") {
		t.Errorf("output:\n%s", out)
	}
}

// TestRunSystemsCtrlC: Ctrl-C cancels every system's run that is going, and the runs not
// started yet never start: nothing of them is stored; benchy run exits 1.
func TestRunSystemsCtrlC(t *testing.T) {
	dir := gatedSystems(t, 20, [2]string{"one", "gate"}, [2]string{"two", "gate"}, [2]string{"three", "gate"})
	cmd, out, done := startBenchy(t, dir, []string{"gate"},
		"run", "--system", "one", "--system", "two", "--system", "three", "--parallel-systems", "2", "--concurrency", "1", "benchmark.yaml")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		a, _ := os.ReadFile(filepath.Join(dir, "one.log"))
		b, _ := os.ReadFile(filepath.Join(dir, "two.log"))
		if len(a) > 0 && len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the two runs made no calls:\n%s", out)
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("exit %v, want 1", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("Ctrl-C did not end the runs\n%s", out)
	}
	runs := storedRuns(t, dir)
	if len(runs) != 2 || runs["one"].Status != store.Cancelled || runs["two"].Status != store.Cancelled {
		t.Errorf("stored %d runs (%s, %s), want one and two cancelled", len(runs), runs["one"].Status, runs["two"].Status)
	}
	if !strings.Contains(out.String(), "three: not started (interrupt signal received)") {
		t.Errorf("output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "three.log")); err == nil {
		t.Errorf("the third system was called")
	}
}

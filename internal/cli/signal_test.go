//go:build unix

package cli_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/store"
)

// benchyBin is cmd/benchy, for the tests that signal a real process.
var benchyBin = &program{pkg: "../../cmd/benchy"}

// TestSignalSaysWhich: a run stopped by Ctrl-C or by SIGTERM is stored as cancelled, and
// says which signal stopped it ("terminated signal received" from a supervisor is not "a
// user"), as before the run service.
func TestSignalSaysWhich(t *testing.T) {
	bin := benchyBin.build(t)
	for _, tt := range []struct {
		sig  syscall.Signal
		want string
	}{
		{syscall.SIGINT, "interrupt signal received"},
		{syscall.SIGTERM, "terminated signal received"},
	} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			dir := slowWorkspace(t, 40, 100*time.Millisecond)
			cmd := exec.Command(bin, "run", "--concurrency", "1", "-o", filepath.Join(dir, "out.json"), "benchmark.yaml")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(30 * time.Second); calls(dir) < 2; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("the run made no calls: %s", stderr.String())
				}
			}
			cmd.Process.Signal(tt.sig)
			cmd.Wait()
			if !strings.Contains(stderr.String(), "run cancelled after") || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr does not say the run was cancelled by %q:\n%s", tt.want, stderr.String())
			}
			st, err := store.Open(store.Path(dir))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			runs, err := st.ListRuns(store.Filter{}, 10)
			if err != nil || len(runs) != 1 || runs[0].Status != store.Cancelled {
				t.Errorf("stored runs %+v (%v), want one cancelled", runs, err)
			}
		})
	}
}

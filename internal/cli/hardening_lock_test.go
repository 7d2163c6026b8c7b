package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHardeningConcurrentRunsOverlappingOutputs: runs whose -o differ but whose files
// overlap are kept apart. -o same.json writes same.json and streams same.jsonl, the very
// document of -o same.jsonl (which streams same.jsonl.jsonl); so while either runs, the
// other stops at once with exit 1, naming the running process and the file they share,
// before any AI-system call, and the running one's results are whole. The lock goes by
// each file's name in its resolved folder, so a linked folder is no way around it.
func TestHardeningConcurrentRunsOverlappingOutputs(t *testing.T) {
	for _, c := range []struct{ running, second, shared string }{
		{"same.json", "same.jsonl", "same.jsonl"},             // the second's document is the first's stream
		{"same.jsonl", "same.json", "same.jsonl"},             // the second's stream is the first's document
		{"same.jsonl", "same.jsonl.json", "same.jsonl.jsonl"}, // both stream to one file
	} {
		t.Run(c.running+" then "+c.second, func(t *testing.T) {
			const n = 8
			dir := slowWorkspace(t, n, 100*time.Millisecond)
			bench := filepath.Join(dir, "benchmark.yaml")
			out := filepath.Join(dir, c.running)
			first := exec.Command("benchy", "run", "--no-store", "--concurrency", "1", "-o", out, bench)
			var firstErr strings.Builder
			first.Stderr = &firstErr
			if err := first.Start(); err != nil {
				t.Fatal(err)
			}
			defer first.Process.Kill()
			for deadline := time.Now().Add(10 * time.Second); calls(dir) == 0; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the first run did not start: %s", firstErr.String())
				}
			}
			link := filepath.Join(t.TempDir(), "ws")
			if err := os.Symlink(dir, link); err != nil {
				t.Fatal(err)
			}
			for _, second := range []string{filepath.Join(dir, c.second), filepath.Join(link, c.second)} {
				code, _, stderr := runBenchy(t, "run", "--no-store", "-o", second, bench)
				want := fmt.Sprintf("another benchy run is writing these results (process %d on ", first.Process.Pid)
				if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "which writes "+filepath.Join(filepath.Dir(second), c.shared)) {
					t.Errorf("-o %s beside a run with -o %s: exit %d, %s; want 1, %q and the shared file %s", second, out, code, stderr, want, c.shared)
				}
			}
			if err := first.Wait(); err != nil {
				t.Fatalf("the first run: %v\n%s", err, firstErr.String())
			}
			if got := calls(dir); got != n {
				t.Errorf("the AI-system was called %d times, want %d (the first run's only)", got, n)
			}
			stream := strings.TrimSuffix(out, ".json") + ".jsonl"
			doc, _ := os.ReadFile(out)
			lines, _ := os.ReadFile(stream)
			if strings.Count(string(lines), "\n") != n || !strings.Contains(strings.ReplaceAll(string(doc), " ", ""), fmt.Sprintf(`"examples":%d`, n)) {
				t.Errorf("the first run's results: %d lines in %s, %s holds %.200s", strings.Count(string(lines), "\n"), stream, out, doc)
			}
			if locks, _ := filepath.Glob(filepath.Join(dir, ".*.lock")); len(locks) != 0 {
				t.Errorf("lock files left behind: %v", locks)
			}
			// Once the first has ended, the second runs.
			if code, _, stderr := runBenchy(t, "run", "--no-store", "--limit", "1", "-o", filepath.Join(dir, c.second), bench); code != 0 {
				t.Errorf("-o %s after the first run ended: exit %d, %s", c.second, code, stderr)
			}
		})
	}
}

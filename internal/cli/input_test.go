package cli_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/internal/cli"
)

// TestInputNotRegular: a device or a FIFO named as the benchmark or the runtime file is
// refused at once, exit 1, saying so, by every command that reads one. Each command runs
// in a process of its own (this test binary as benchy), under a memory limit and a time
// bound: benchy read /dev/zero until it ran out of memory, and waited on a FIFO forever.
func TestInputNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	bin := benchyProcess(t)
	bench := filepath.Join(dir, "benchmark.yaml")
	os.WriteFile(bench, []byte(okYAML), 0o644)
	os.MkdirAll(filepath.Join(dir, "data"), 0o755)
	os.WriteFile(filepath.Join(dir, "data", "exam.jsonl"), []byte(`{"input": {"text": "hi"}, "expected": {"sentiment": "neutral"}}`+"\n"), 0o644)
	out := filepath.Join(dir, "results.json")
	for _, file := range []string{"/dev/zero", fifo} {
		for _, args := range [][]string{
			{"validate", file},
			{"validate", "--json", file},
			{"compile", file},
			{"fmt", file},
			{"run", "--no-store", "-o", out, file},
			{"run", "--no-store", "--runtime", file, "-o", out, bench},
		} {
			code, stdout, stderr := runLimited(t, bin, args...)
			if code != 1 || stdout != "" || !strings.Contains(stderr, file+" is not a regular file") {
				t.Errorf("benchy %s: exit %d, stdout %q, stderr %.300q; want 1 and %q", strings.Join(args, " "), code, stdout, stderr, file+" is not a regular file")
			}
		}
	}
}

// TestInputTooLarge: a benchmark file over the compiler's 1 MiB (this one sparse, 64 MiB),
// or standard input (endless), is refused with the compiler's too_large diagnostic, its
// size given when known, having read at most a byte more than the limit. benchy run takes
// IR JSON up to 8 MiB and refuses more with the same code.
func TestInputTooLarge(t *testing.T) {
	dir := t.TempDir()
	sparse := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		f.Truncate(size) // sparse: costs no disk
		f.Close()
		return p
	}
	huge := sparse("huge.yaml", 64<<20+1)
	hugeIR := sparse("huge.json", 9<<20)
	wantFile := huge + ":1:1: too_large: the file is 64.0 MiB; Benchy reads benchmark files of at most 1.0 MiB\n"
	for _, args := range [][]string{{"validate", huge}, {"compile", huge}, {"fmt", huge}} {
		if code, stdout, stderr := run(t, "", args...); code != 1 || stdout != "" || stderr != wantFile {
			t.Errorf("benchy %s: exit %d, stdout %q, stderr %q\nwant %q", strings.Join(args, " "), code, stdout, stderr, wantFile)
		}
	}
	if code, stdout, _ := run(t, "", "validate", "--json", huge); code != 1 || !strings.Contains(stdout, `"code": "too_large"`) {
		t.Errorf("validate --json: exit %d, stdout %q", code, stdout)
	}
	wantIR := "benchy run: " + hugeIR + ":1:1: too_large: the file is 9.0 MiB; Benchy reads IR JSON files of at most 8.0 MiB"
	if code, _, stderr := run(t, "", "run", "--no-store", "-o", filepath.Join(dir, "r.json"), hugeIR); code != 1 || !strings.HasPrefix(stderr, wantIR) {
		t.Errorf("run: exit %d, stderr %q\nwant %q", code, stderr, wantIR)
	}

	var outb, errb bytes.Buffer
	stdin := &counting{r: repeat('a')}
	code := cli.Main([]string{"validate", "-"}, stdin, &outb, &errb)
	want := "<stdin>:1:1: too_large: the file is more than 1.0 MiB; Benchy reads benchmark files of at most 1.0 MiB\n"
	if code != 1 || errb.String() != want || stdin.n > 1<<20+1 {
		t.Errorf("stdin: exit %d, stderr %q, %d bytes read\nwant %q", code, errb.String(), stdin.n, want)
	}
}

// repeat is an endless reader of one byte.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// counting counts the bytes read through it.
type counting struct {
	r io.Reader
	n int
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// benchyProcess is this test binary under the name benchy, which TestMain runs as the
// command.
func benchyProcess(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "benchy")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// runLimited runs bin with args with 1 GiB of data at most (ulimit -d counts the memory
// written, not the address space the Go runtime reserves, which makes ulimit -v flaky),
// killed after 20 seconds.
func runLimited(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -d 1048576 && exec "$0" "$@"`, bin}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("benchy %s: still running after 20s", strings.Join(args, " "))
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

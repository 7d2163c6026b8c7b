package cli_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// TestProgressBarKeepsLogLinesWhole runs a benchmark against a command adapter that writes
// a line to stderr before each answer, with benchy's standard error a real pseudo-terminal,
// so the progress bar is redrawn in place: every log line shows on a line of its own, none
// glued to a piece of the bar (they were: the adapter's line was written at the end of the
// bar's line), and the bar ends drawn whole below them.
func TestProgressBarKeepsLogLinesWhole(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"benchy.runtime.yaml": `bindings:
  sys:
    command: [sh, -c, 'while IFS= read -r l; do echo "thinking about it" >&2; sleep 0.15; printf "%s\n" "$l" | sed "s/\"input\"/\"output\"/"; done']
`,
		"rows.jsonl": strings.Repeat(`{"input": {"label": "x"}, "expected": {"label": "x"}}`+"\n", 5),
		"benchmark.yaml": `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: general, language: en}
program:
  input:
    label: string
  output:
    label: {enum: [x, y]}
scoring:
  weights:
    label: 1
  aggregator: weighted_mean
data:
  path: ./rows.jsonl
ai-system: {type: external, id: sys}
`}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	master, terminal := openPTY(t)
	cmd := exec.Command(benchyProcess(t), "run", "--no-store", "--concurrency", "1", "-o", "out.json", "benchmark.yaml")
	cmd.Dir, cmd.Stderr = dir, terminal
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	terminal.Close() // the child has its own: reading ends when it exits
	shown := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(master) // ends with EIO once the child's end closes
		shown <- b
	}()
	err := cmd.Wait()
	out := <-shown
	if err != nil {
		t.Fatalf("benchy run: %v\n%q", err, out)
	}
	lines := screen(out)
	logLine := regexp.MustCompile(`^sys\[\d+\]: thinking about it$`)
	logs, bars := 0, 0
	for _, l := range lines {
		switch {
		case strings.Contains(l, "thinking"):
			if !logLine.MatchString(l) {
				t.Errorf("a log line shares its line with something else: %q", l)
			}
			logs++
		case strings.HasPrefix(l, "[") && strings.Contains(l, "/5 "):
			bars++
			if !strings.HasPrefix(l, "[##############################] 5/5 ") || !strings.HasSuffix(l, "valid 5 · invalid 0 · errors 0") {
				t.Errorf("the bar is left as %q, want it finished and whole", l)
			}
		}
	}
	if logs != 5 || bars != 1 {
		t.Errorf("%d log lines and %d bars shown, want 5 and the finished one:\n%s\n(raw: %q)", logs, bars, strings.Join(lines, "\n"), out)
	}
}

// openPTY opens a pseudo-terminal: its master end, which reads what is shown, and the
// terminal itself.
func openPTY(t *testing.T) (master, terminal *os.File) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("ptsname: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// screen is the lines a terminal shows for out: a carriage return goes back to the line's
// start, ESC [ K erases to its end, other characters overwrite what is under the cursor.
func screen(out []byte) []string {
	var lines []string
	var line []rune
	col := 0
	for s := string(out); s != ""; {
		switch {
		case strings.HasPrefix(s, "\x1b[K"):
			line, s = line[:col], s[3:]
		case s[0] == '\r':
			col, s = 0, s[1:]
		case s[0] == '\n':
			lines = append(lines, string(line))
			line, col, s = nil, 0, s[1:]
		default:
			r, size := utf8.DecodeRuneInString(s)
			if col < len(line) {
				line[col] = r
			} else {
				line = append(line, r)
			}
			col, s = col+1, s[size:]
		}
	}
	if len(line) > 0 {
		lines = append(lines, string(line))
	}
	return lines
}

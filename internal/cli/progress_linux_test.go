package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"
)

// TestProgressBarKeepsLogLinesWhole runs a benchmark against a command adapter that writes
// a line to stderr before each answer, with benchy's standard error a real pseudo-terminal,
// so the progress bar is redrawn in place: every log line shows on a line of its own, none
// glued to a piece of the bar (they were: the adapter's line was written at the end of the
// bar's line), and the bar ends drawn whole below them. On an 80-column terminal too, where
// the whole bar (82 columns) wrapped to two rows and the clearing before each log line
// erased only the second: a stale first row stayed above every log line.
func TestProgressBarKeepsLogLinesWhole(t *testing.T) {
	for _, cols := range []int{200, 80, 40} {
		out := runOnPTY(t, `echo "thinking about it" >&2; sleep 0.15`, cols)
		lines := screen(out, cols)
		logLine := regexp.MustCompile(`^sys\[\d+\]: thinking about it$`)
		finished := regexp.MustCompile(`^\[#{10,30}\] 5/5 .*invalid 0 · errors 0$`)
		logs, bars := 0, 0
		for _, l := range lines {
			switch {
			case strings.Contains(l, "thinking"):
				if !logLine.MatchString(l) {
					t.Errorf("%d columns: a log line shares its line with something else: %q", cols, l)
				}
				logs++
			case strings.Contains(l, "/5 ") || strings.Contains(l, "errors") || strings.HasPrefix(l, "["):
				bars++
				if n := utf8.RuneCountInString(l); n >= cols {
					t.Errorf("%d columns: the bar fills the width (%d): %q", cols, n, l)
				}
				if !finished.MatchString(l) {
					t.Errorf("%d columns: the bar is left as %q, want it finished and whole", cols, l)
				}
			}
		}
		if logs != 5 || bars != 1 {
			t.Errorf("%d columns: %d log lines and %d bars shown, want 5 and the finished one:\n%s\n(raw: %q)", cols, logs, bars, strings.Join(lines, "\n"), out)
		}
		if cols == 200 && !strings.Contains(strings.Join(lines, "\n"), "[##############################] 5/5 ") {
			t.Errorf("%d columns: the bar is not 30 cells wide:\n%s", cols, strings.Join(lines, "\n"))
		}
	}
}

// TestAdapterStderrEscapedOnTerminal: what an adapter writes to stderr reaches a terminal
// with its control characters shown, not obeyed: ESC [ 2 J cleared the user's screen, a
// carriage return wrote over the binding's name, OSC 0 set the window's title; a byte that
// is not UTF-8 shows as \xff. The raw output holds no escape sequence but the bar's own.
func TestAdapterStderrEscapedOnTerminal(t *testing.T) {
	out := runOnPTY(t, `printf 'a\tb \033[2J\rX \033]0;owned\007 \377 \302\233 end\n' >&2`, 200)
	const want = `sys[1]: a	b \x1b[2J\rX \x1b]0;owned\x07 \xff \u009b end`
	if got := string(out); strings.Count(got, want) != 5 {
		t.Errorf("the log line is not shown 5 times as %q:\n%q", want, got)
	}
	rest := strings.NewReplacer("\r\x1b[K", "", "\r\n", "").Replace(string(out)) // the bar's, the terminal's line ends
	if i := strings.IndexAny(rest, "\x1b\x07\r\u009b"); i >= 0 {
		t.Errorf("a control character reached the terminal at %d: %q", i, rest[max(0, i-20):min(len(rest), i+20)])
	}
}

// TestAdapterStderrBoundedOnTerminal: an adapter writing 100 MB of stderr (one 100-byte line
// after another) showed all of it, for seconds, on the terminal; now a run shows its first
// MiB and then says how much more there was, once the command's stderr closed.
func TestAdapterStderrBoundedOnTerminal(t *testing.T) {
	const total = 100_000_000
	start := time.Now()
	out := runOnPTYRows(t, fmt.Sprintf(`if [ ! -e done ]; then touch done; yes %s | head -c %d >&2; fi`, strings.Repeat("x", 99), total), 200, 1)
	took := time.Since(start)
	t.Logf("100 MB of stderr: %v, %d bytes shown", took, len(out))
	if len(out) > 2<<20 {
		t.Errorf("%d bytes shown, want at most about 1 MiB", len(out))
	}
	lines := screen(out, 200)
	shown := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "sys[1]: xxx") {
			shown++
		}
	}
	want := (1 << 20) / len("sys[1]: "+strings.Repeat("x", 99)+"\n") // 1 MiB as shown
	notice := fmt.Sprintf("… sys[1]: %d more bytes of stderr not shown", total-want*100)
	if shown != want || !bytes.Contains(out, []byte(notice+"\r\n")) {
		t.Errorf("%d lines shown, want %d and %q; the end:\n%s", shown, want, notice, strings.Join(lines[max(0, len(lines)-5):], "\n"))
	}
}

// TestAdapterStderrLogFile: a stored run on a terminal keeps all of its adapters' stderr,
// bytes as written and its credentials masked, in a log of its own beside the store
// (.benchy/logs/RUN.stderr.log, owner only), and the note on what the terminal did not show
// names it; before, what was not shown was lost.
func TestAdapterStderrLogFile(t *testing.T) {
	const secret = "sk-Zq8vN3kT1bW6yH0pL4xR9cF2"
	t.Setenv("MY_API_KEY", secret)
	dir := scriptedBench(t, `if [ ! -e done ]; then touch done; i=0; while [ $i -lt 12000 ]; do echo "line $i $MY_API_KEY" >&2; i=$((i+1)); done; printf '\033[2J\n' >&2; fi`, 1)
	if err := os.WriteFile(filepath.Join(dir, "benchy.runtime.yaml"), []byte("bindings:\n  sys:\n    command: [sh, answer.sh]\n    env: [MY_API_KEY]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := ptyRun(t, dir, 200)
	logs, _ := filepath.Glob(filepath.Join(dir, ".benchy", "logs", "*.stderr.log"))
	if len(logs) != 1 {
		t.Fatalf("the run's logs: %v, want one\n%q", logs, out[max(0, len(out)-500):])
	}
	kept, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(logs[0]); info.Mode().Perm() != 0o600 {
		t.Errorf("the log's mode is %v, want 0600", info.Mode().Perm())
	}
	if n := bytes.Count(kept, []byte("sys[1]: line ")); n != 12000 || !bytes.HasSuffix(kept, []byte("sys[1]: \x1b[2J\n")) {
		t.Errorf("the log keeps %d lines, want 12000 then the raw escape; its end: %q", n, kept[max(0, len(kept)-100):])
	}
	if bytes.Contains(kept, []byte(secret)) || bytes.Contains(out, []byte(secret)) {
		t.Errorf("the key is in the log or on the terminal")
	}
	hidden := 0
	for i := 10000; i < 12000; i++ {
		hidden += len(fmt.Sprintf("line %d [redacted]\n", i))
	}
	hidden += len("\x1b[2J\n")
	notice := fmt.Sprintf("… sys[1]: %d more bytes of stderr not shown (the run's stderr is in %s)\r\n", hidden, logs[0])
	if !bytes.Contains(out, []byte(notice)) {
		t.Errorf("the terminal lacks %q; its end:\n%s", notice, out[max(0, len(out)-600):])
	}
}

// TestAdapterStderrRawInPipe: through a pipe (a log file, CI), an adapter's stderr goes as
// it wrote it, control characters, bytes that are not UTF-8 and all, for what reads it to
// judge: only a terminal obeys them.
func TestAdapterStderrRawInPipe(t *testing.T) {
	dir := scriptedBench(t, `printf 'a \033[2J\rX \377 end\n' >&2`, 2)
	cmd := exec.Command(benchyProcess(t), "run", "--no-store", "-o", "out.json", "benchmark.yaml")
	var stderr bytes.Buffer
	cmd.Dir, cmd.Stderr = dir, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("benchy run: %v\n%s", err, stderr.String())
	}
	if n := bytes.Count(stderr.Bytes(), []byte("]: a \x1b[2J\rX \xff end\n")); n != 2 {
		t.Errorf("the raw line is there %d times, want 2:\n%q", n, stderr.String())
	}
}

// runOnPTY runs a benchmark of 5 examples, with benchy's standard error a pseudo-terminal
// of cols columns, against a command adapter that runs script before each answer. It
// returns what the terminal was sent.
func runOnPTY(t *testing.T, script string, cols int) []byte { return runOnPTYRows(t, script, cols, 5) }

func runOnPTYRows(t *testing.T, script string, cols, rows int) []byte {
	t.Helper()
	return ptyRun(t, scriptedBench(t, script, rows), cols, "--no-store")
}

// ptyRun runs the benchmark in dir, with flags, standard error a terminal of cols columns,
// and returns what the terminal was sent.
func ptyRun(t *testing.T, dir string, cols int, flags ...string) []byte {
	t.Helper()
	master, terminal := openPTY(t, cols)
	args := append(append([]string{"run"}, flags...), "--concurrency", "1", "-o", "out.json", "benchmark.yaml")
	cmd := exec.Command(benchyProcess(t), args...)
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
		t.Fatalf("benchy run: %v\n%q", err, out[max(0, len(out)-2000):])
	}
	return out
}

// scriptedBench is a folder with a benchmark of rows examples and a command adapter that
// runs script before each answer.
func scriptedBench(t *testing.T, script string, rows int) string {
	dir := t.TempDir()
	files := map[string]string{
		"answer.sh":           "while IFS= read -r l; do\n" + script + "\nprintf '%s\\n' \"$l\" | sed 's/\"input\"/\"output\"/'; done\n",
		"benchy.runtime.yaml": "bindings:\n  sys:\n    command: [sh, answer.sh]\n",
		"rows.jsonl":          strings.Repeat(`{"input": {"label": "x"}, "expected": {"label": "x"}}`+"\n", rows),
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
	return dir
}

// openPTY opens a pseudo-terminal cols columns wide: its master end, which reads what is
// shown, and the terminal itself.
func openPTY(t *testing.T, cols int) (master, terminal *os.File) {
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
	size := struct{ rows, cols, x, y uint16 }{24, uint16(cols), 0, 0}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&size))); e != 0 {
		t.Fatalf("set the window size: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// screen is the rows a terminal cols columns wide shows for out: a carriage return goes
// back to the row's start, ESC [ K erases to its end, other characters overwrite what is
// under the cursor; a character written past the last column goes to the start of a new
// row (the line wraps), which the carriage return and ESC [ K of the row below do not touch.
func screen(out []byte, cols int) []string {
	var lines []string
	var line []rune
	col := 0
	for s := string(out); s != ""; {
		switch {
		case strings.HasPrefix(s, "\x1b[K"):
			line, s = line[:min(col, len(line))], s[3:]
		case s[0] == '\r':
			col, s = 0, s[1:]
		case s[0] == '\n':
			lines = append(lines, string(line))
			line, col, s = nil, 0, s[1:]
		default:
			r, size := utf8.DecodeRuneInString(s)
			if col == cols {
				lines = append(lines, string(line))
				line, col = nil, 0
			}
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

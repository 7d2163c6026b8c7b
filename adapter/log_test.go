package adapter

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// stderrRecord is a run log that takes stderr apart, as the CLI's terminal does.
type stderrRecord struct {
	testkit.Buffer
	mu     sync.Mutex
	lines  []string // source and line, as given to Stderr
	closed []string // the sources given to StderrEnd
}

func (r *stderrRecord) Stderr(source string, line []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, source+string(line))
}

func (r *stderrRecord) StderrEnd(source string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = append(r.closed, source)
}

// TestStderrLogApart: a log that takes stderr apart (the CLI's terminal, which escapes and
// bounds it) gets a command's stderr lines through Stderr, not Write, each whole with its
// line break and its secrets already masked, and hears through StderrEnd that the process's
// stderr closed, once it has, before Close returns.
func TestStderrLogApart(t *testing.T) {
	const secret = "sk-Zq8vN3kT1bW6yH0pL4xR9cF2"
	t.Setenv("MY_API_KEY", secret)
	var log stderrRecord
	a := bindEcho(t, "    env: [MY_API_KEY]\n", &log)
	if _, err := a.Invoke(context.Background(), 0, map[string]any{"action": "leak", "name": "MY_API_KEY"}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	log.mu.Lock()
	defer log.mu.Unlock()
	all := strings.Join(log.lines, "")
	if p := testkit.Leak(all, secret); p != "" || !strings.Contains(all, "echo[1]: using key [redacted]\n") {
		t.Errorf("the stderr lines keep %q of the key or lack the line: %q", p, log.lines)
	}
	for _, l := range log.lines {
		if !strings.HasPrefix(l, "echo[1]: ") || strings.Count(l, "\n") != 1 || !strings.HasSuffix(l, "\n") {
			t.Errorf("a stderr line is not one whole line of echo[1]: %q", l)
		}
	}
	if strings.Contains(log.String(), "using key") {
		t.Errorf("a stderr line went through Write too: %q", log.String())
	}
	if len(log.closed) != 1 || log.closed[0] != "echo[1]: " {
		t.Errorf("StderrEnd was given %q, want echo[1]: once", log.closed)
	}
}

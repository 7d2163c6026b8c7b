package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
	"github.com/benchy-eval/benchy/ir"
)

// echoBin is the test partner testdata/echo, built once for all tests.
var echoBin string

// childEnv set makes the test binary run childMain instead of the tests.
const childEnv = "BENCHY_ADAPTER_TEST_CHILD"

var childMain func()

func TestMain(m *testing.M) {
	if childMain != nil && os.Getenv(childEnv) != "" {
		childMain() // this binary is a test's stand-in for benchy: see hardening_process_linux_test.go
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "benchy-adapter-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	echoBin = filepath.Join(dir, "echo")
	if out, err := exec.Command("go", "build", "-o", echoBin, "./testdata/echo").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building testdata/echo: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// echoFactory writes a runtime file binding "echo" to command in dir and returns the
// binding's factory.
func echoFactory(t testing.TB, dir, command, timeout string, log *testkit.Buffer) engine.Factory {
	t.Helper()
	src := fmt.Sprintf("bindings:\n  echo:\n    command: [%q]\n    timeout: %s\n", command, timeout)
	var w io.Writer // nil: no log
	if log != nil {
		w = log
	}
	return bindFactory(t, src, dir, "echo", w)
}

// newEcho starts one command adapter on the echo program.
func newEcho(t testing.TB, timeout string, log *testkit.Buffer) engine.Adapter {
	t.Helper()
	return started(t, echoFactory(t, t.TempDir(), echoBin, timeout, log))
}

// pid asks the echo program for its process id.
func pid(t *testing.T, a engine.Adapter, index int) json.Number {
	t.Helper()
	out, err := a.Invoke(context.Background(), index, map[string]any{"action": "pid"})
	if err != nil {
		t.Fatalf("pid: %v", err)
	}
	return out.(map[string]any)["pid"].(json.Number)
}

func failureOf(t *testing.T, err error) *engine.Failure {
	t.Helper()
	var f *engine.Failure
	if !errors.As(err, &f) {
		t.Fatalf("err = %v (%T), want an *engine.Failure", err, err)
	}
	return f
}

func TestCommandEcho(t *testing.T) {
	a := newEcho(t, "5s", nil)
	input := map[string]any{
		"text":  "héllo <b> \"quoted\"\n",
		"int":   json.Number("121"),
		"float": json.Number("121.0"),
		"big":   json.Number("12345678901234567890"),
		"flag":  true,
		"inner": map[string]any{"date": "2026-01-01"},
	}
	for i := range 3 {
		out, err := a.Invoke(context.Background(), i, input)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out, input) {
			t.Fatalf("example %d: output = %#v\nwant %#v (numbers as json.Number, as written)", i, out, input)
		}
	}
}

func TestCommandKeepsProcess(t *testing.T) {
	a := newEcho(t, "5s", nil)
	if first, second := pid(t, a, 0), pid(t, a, 1); first != second {
		t.Errorf("process %s then %s: the process was not kept across examples", first, second)
	}
}

func TestCommandFailures(t *testing.T) {
	tests := []struct {
		action    string
		timeout   string
		code      diag.Code
		message   string // a substring of the failure's message
		restarted bool
	}{
		{"crash", "5s", diag.AdapterError, `exit status 3; its last stderr line: "crashing on purpose"`, true},
		{"exit0", "5s", diag.AdapterError, "stopped before answering: exit status 0", true},
		{"closeout", "5s", diag.AdapterError, "stopped answering", true},
		{"sleep", "200ms", diag.Timeout, "no answer within 200ms; the command was killed", true},
		{"garbage", "5s", diag.AdapterError, `the answer is not a JSON object: "this is not JSON"`, true},
		{"wrongid", "5s", diag.AdapterError, "the answer has id 6, want 5", true},
		{"error", "5s", diag.AdapterError, "boom", false},
		{"nooutput", "5s", diag.AdapterError, "neither output nor error", false},
		{"extra", "5s", diag.AdapterError, `unknown key "usage"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			t.Parallel()
			a := newEcho(t, tt.timeout, nil)
			before := pid(t, a, 4)
			start := time.Now()
			out, err := a.Invoke(context.Background(), 5, map[string]any{"action": tt.action, "ms": 10_000})
			if out != nil {
				t.Errorf("output = %v, want none", out)
			}
			f := failureOf(t, err)
			if f.Status != engine.StatusExecutionError || f.Code != tt.code || !strings.Contains(f.Message, tt.message) {
				t.Errorf("failure = %s %s %q, want %s %s containing %q", f.Status, f.Code, f.Message, engine.StatusExecutionError, tt.code, tt.message)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("the failure took %v", d)
			}
			after := pid(t, a, 6) // the next example succeeds
			if restarted := after != before; restarted != tt.restarted {
				t.Errorf("process %s then %s: restarted = %v, want %v", before, after, restarted, tt.restarted)
			}
		})
	}
}

func TestCommandExitBetweenExamples(t *testing.T) {
	var log testkit.Buffer
	a := newEcho(t, "5s", &log)
	before := pid(t, a, 0)
	if _, err := a.Invoke(context.Background(), 1, map[string]any{"action": "exitafter"}); err != nil {
		t.Fatalf("the answer before the exit: %v", err)
	}
	p := a.(*commandAdapter).p
	for deadline := time.Now().Add(2 * time.Second); !p.hasExited(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the process did not exit")
		}
	}
	// The next example was never sent to the dead process: it is not its failure.
	if after := pid(t, a, 2); after == before {
		t.Error("the process was not restarted")
	}
	if want := "echo[1]: (benchy) the command exited after its last answer (exit status 1); starting it again\n"; !strings.Contains(log.String(), want) {
		t.Errorf("log = %q, want it to contain %q", log.String(), want)
	}
}

func TestCommandContextEnds(t *testing.T) {
	a := newEcho(t, "30s", nil)
	before := pid(t, a, 0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := a.Invoke(ctx, 1, map[string]any{"action": "sleep", "ms": 10_000})
	if f := failureOf(t, err); f.Code != diag.Timeout || !strings.Contains(f.Message, "the run ended") {
		t.Errorf("failure = %s %q, want timeout", f.Code, f.Message)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancelling took %v", d)
	}
	if after := pid(t, a, 2); after == before {
		t.Error("the process was not replaced after the cancelled example")
	}

	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = a.Invoke(ctx, 3, map[string]any{"action": "sleep", "ms": 10_000})
	if f := failureOf(t, err); f.Code != diag.Timeout {
		t.Errorf("context deadline: failure = %s %q, want timeout", f.Code, f.Message)
	}
	_, err = a.Invoke(ctx, 4, map[string]any{})
	if f := failureOf(t, err); f.Code != diag.Timeout {
		t.Errorf("context already done: failure = %s %q, want timeout", f.Code, f.Message)
	}
}

func TestCommandWithinTimeout(t *testing.T) {
	a := newEcho(t, "2s", nil)
	if _, err := a.Invoke(context.Background(), 0, map[string]any{"action": "sleep", "ms": 50}); err != nil {
		t.Fatalf("a 50ms answer with a 2s timeout: %v", err)
	}
}

func TestCommandStderrToLog(t *testing.T) {
	var log testkit.Buffer
	a := newEcho(t, "5s", &log)
	if _, err := a.Invoke(context.Background(), 0, map[string]any{"action": "stderr"}); err != nil {
		t.Fatal(err)
	}
	want := "echo[1]: a note on stderr\n"
	for deadline := time.Now().Add(2 * time.Second); !strings.Contains(log.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("log = %q, want it to contain %q", log.String(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCommandWorkingDir(t *testing.T) {
	dir := t.TempDir()
	a := started(t, echoFactory(t, dir, echoBin, "5s", nil))
	out, err := a.Invoke(context.Background(), 0, map[string]any{"action": "cwd"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := filepath.EvalSymlinks(out.(map[string]any)["cwd"].(string))
	want, _ := filepath.EvalSymlinks(dir)
	if got != want {
		t.Errorf("working dir = %q, want the runtime file's dir %q", got, want)
	}
}

func TestCommandRelativeProgram(t *testing.T) {
	// The runtime file sits beside the program and names it ./echo; the test runs elsewhere.
	a := started(t, echoFactory(t, filepath.Dir(echoBin), "./"+filepath.Base(echoBin), "5s", nil))
	if _, err := a.Invoke(context.Background(), 0, map[string]any{"x": "y"}); err != nil {
		t.Fatal(err)
	}
}

func TestCommandBigOutput(t *testing.T) {
	a := newEcho(t, "10s", nil)
	const n = 5 << 20 // far past the read buffer
	out, err := a.Invoke(context.Background(), 0, map[string]any{"action": "big", "n": n})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(out.(map[string]any)["text"].(string)); got != n {
		t.Errorf("len(text) = %d, want %d", got, n)
	}
	if _, err := a.Invoke(context.Background(), 1, map[string]any{}); err != nil {
		t.Fatalf("after a big answer: %v", err)
	}
}

func TestCommandStartFailure(t *testing.T) {
	notExecutable := filepath.Join(t.TempDir(), "not-a-program")
	os.WriteFile(notExecutable, []byte("just text\n"), 0o644)
	f := echoFactory(t, t.TempDir(), notExecutable, "5s", nil)
	a, err := f()
	if err == nil {
		a.Close()
		t.Fatal("no error for a program that does not exist")
	}
	if !strings.Contains(err.Error(), `binding "echo": cannot start the command`) {
		t.Errorf("err = %v", err)
	}
}

// A binding whose program, or a program it requires, is not on this machine is a missing
// binding before any example runs, saying what to build or install.
func TestCommandNotInstalled(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ runtime, want string }{
		{"bindings:\n  echo:\n    command: [./no-such-program]\n", "no-such-program, which does not exist"},
		{"bindings:\n  echo:\n    command: [no-such-program-in-path]\n", "no-such-program-in-path, which is not installed"},
		{fmt.Sprintf("bindings:\n  echo:\n    command: [%q]\n    requires: {no-such-ocr: fake-ocr-pkg, sh: dash}\n", echoBin),
			`needs no-such-ocr, not installed here: apt-get install fake-ocr-pkg`},
		{fmt.Sprintf("bindings:\n  echo:\n    command: [%q]\n    requires: {/no/such/dir/langdetect: python3-langdetect}\n", echoBin),
			`needs /no/such/dir/langdetect, not installed here: apt-get install python3-langdetect`},
	} {
		path := filepath.Join(dir, "runtime.yaml")
		os.WriteFile(path, []byte(c.runtime), 0o644)
		rt, err := LoadRuntime(path)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = rt.Factory(&ir.Benchmark{AISystem: ir.AISystem{Type: ir.SystemExternal, ID: "echo"}}, "", nil)
		if !errors.Is(err, engine.ErrMissingBinding) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want a missing binding saying %q", c.runtime, err, c.want)
		}
	}
	path := filepath.Join(dir, "runtime.yaml")
	os.WriteFile(path, []byte(fmt.Sprintf("bindings:\n  echo:\n    command: [%q]\n    requires: {sh: dash}\n", echoBin)), 0o644)
	rt, err := LoadRuntime(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := rt.Factory(&ir.Benchmark{AISystem: ir.AISystem{Type: ir.SystemExternal, ID: "echo"}}, "", nil); err != nil {
		t.Errorf("everything installed: %v", err)
	}
	if _, err := ParseRuntime([]byte("bindings:\n  echo:\n    command: [x]\n    requires: [tesseract]\n"), dir); err == nil || !strings.Contains(err.Error(), "requires must be a mapping") {
		t.Errorf("requires as a list: %v", err)
	}
}

func TestCommandClose(t *testing.T) {
	a := newEcho(t, "5s", nil)
	pid(t, a, 0)
	p := a.(*commandAdapter).p
	start := time.Now()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	default:
		t.Fatal("the process still runs after Close")
	}
	if p.waitErr != nil || time.Since(start) > closeGrace/2 {
		t.Errorf("the process did not exit on its own at EOF: %v after %v", p.waitErr, time.Since(start))
	}
	if err := a.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

func TestCommandCloseKillsStubbornProcess(t *testing.T) {
	a := newEcho(t, "5s", nil)
	// The sleep outlasts the timeout only on the process side: Close must not wait for it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	a.Invoke(ctx, 0, map[string]any{"action": "sleep", "ms": 60_000})
	a.Close()

	b := newEcho(t, "5s", nil)
	p := b.(*commandAdapter).p
	p.stdin.Write([]byte(`{"id":0,"input":{"action":"sleep","ms":60000}}` + "\n"))
	start := time.Now()
	b.Close()
	if d := time.Since(start); d > closeGrace+time.Second {
		t.Errorf("Close took %v", d)
	}
	if p.waitErr == nil {
		t.Error("the stubborn process was not killed")
	}
}

func TestAnswer(t *testing.T) {
	tests := []struct {
		line   string
		want   any
		fail   string
		resync bool
	}{
		{`{"id":3,"output":{"a":1.50}}`, map[string]any{"a": json.Number("1.50")}, "", false},
		{"{\"id\":3,\"output\":\"x\"}\r\n", "x", "", false},
		{`{"id":3,"output":null}`, nil, "", false},
		{`{"output":1,"id":3}`, json.Number("1"), "", false},
		{`{"id":3.0,"output":1}`, nil, "the answer has id 3.0, want 3", true},
		{`{"id":"3","output":1}`, nil, `the answer has id "3", want 3`, true},
		{`{"output":1}`, nil, "the answer has no id", true},
		{`{"id":3,"output":1} {}`, nil, "not a JSON object", true},
		{`[1]`, nil, "not a JSON object", true},
		{`null`, nil, "not a JSON object", true},
		{``, nil, "not a JSON object", true},
		{`{"id":3,"error":""}`, nil, "without a message", false},
		{`{"id":3,"error":{"m":1}}`, nil, `the answer's error is not a string: {"m":1}`, false},
		{`{"id":3,"error":"x","output":1}`, nil, "both output and error", false},
		{`{"id":3,"z":1,"b":2,"output":1}`, nil, `unknown key "b"`, false},
	}
	for _, tt := range tests {
		out, f, resync := answer([]byte(tt.line), 3, nil)
		switch {
		case tt.fail == "" && f != nil:
			t.Errorf("%s: failure %v", tt.line, f)
		case tt.fail != "" && (f == nil || f.Code != diag.AdapterError || !strings.Contains(f.Message, tt.fail)):
			t.Errorf("%s: failure = %v, want adapter_error containing %q", tt.line, f, tt.fail)
		case !reflect.DeepEqual(out, tt.want):
			t.Errorf("%s: output = %#v, want %#v", tt.line, out, tt.want)
		case resync != tt.resync:
			t.Errorf("%s: resync = %v, want %v", tt.line, resync, tt.resync)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 10, "abc"},
		{"abcdef", 3, "abc"},
		{"aé", 2, "a"},  // é is two bytes: not cut in half
		{"a€b", 3, "a"}, // € is three
		{"a\xffb", 10, "a\uFFFDb"},
	} {
		if got := clip([]byte(tt.in), tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestCommandOneShot: a command that exits cleanly after each answer is restarted for the
// next example, however quickly or slowly its exit is noticed: no example fails for it.
func TestCommandOneShot(t *testing.T) {
	a := newEcho(t, "5s", nil)
	for i := range 20 {
		out, err := a.Invoke(context.Background(), i, map[string]any{"action": "once", "n": i})
		if err != nil || out == nil {
			t.Fatalf("example %d: %v", i, err)
		}
	}
}

// TestCommandStartupGrace: the first answer of a new process may take start-up time beyond
// the per-example timeout; later answers may not.
func TestCommandStartupGrace(t *testing.T) {
	a := newEcho(t, "300ms", nil)
	ca := a.(*commandAdapter)
	ca.p.kill()
	ca.p = nil // the next example starts a fresh process
	if _, err := a.Invoke(context.Background(), 1, map[string]any{"action": "sleep", "ms": 600}); err != nil {
		t.Errorf("first answer of a fresh process after 600ms with a 300ms timeout: %v", err)
	}
	if _, err := a.Invoke(context.Background(), 2, map[string]any{"action": "sleep", "ms": 600}); failureOf(t, err).Code != diag.Timeout {
		t.Errorf("a later slow answer: %v, want timeout", err)
	}
}

// TestCommandTimeoutKillsChildren: a command started through a wrapper (sh -c) loses its
// children too when it times out.
func TestCommandTimeoutKillsChildren(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "alive")
	a := started(t, bindFactory(t, fmt.Sprintf("bindings:\n  w:\n    command: [sh, -c, 'read line; (sleep 2; touch %s) & wait']\n    timeout: 200ms\n", marker), dir, "w", io.Discard))
	a.(*commandAdapter).p.answered = 1 // no start-up grace: time out at 200ms
	if _, err := a.Invoke(context.Background(), 0, map[string]any{}); failureOf(t, err).Code != diag.Timeout {
		t.Fatalf("want a timeout, got %v", err)
	}
	time.Sleep(2500 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the wrapper's child outlived the timeout")
	}
}

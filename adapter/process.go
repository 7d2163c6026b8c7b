package adapter

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/internal/redact"
)

// Limits of the line protocol.
const (
	maxLine     = 64 << 20    // the longest answer line read
	exitGrace   = time.Second // how long a process that closed its stdout may take to exit
	stderrGrace = time.Second // how long stderr may stay open after the process exited
	closeGrace  = time.Second // how long Close waits for an exit after closing stdin
	stderrClip  = 200         // bytes of the last stderr line kept for messages
	readBuffer  = 64 << 10    // the stdout and stderr read buffers
)

// errLineTooLong reports an answer line over maxLine bytes.
var errLineTooLong = fmt.Errorf("the answer line is longer than %d MiB", maxLine>>20)

// expired is a deadline in the past, to abandon a read or write at once.
var expired = time.Unix(1, 0)

// process is one running command. Its stdin and stdout are pipes with deadlines, so the
// worker that owns it can give up on a read or write at the example's timeout, without a
// goroutine per read. Two goroutines live beside it: one reaps it, one copies its stderr to
// the log.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	out    *bufio.Reader

	exited     chan struct{} // closed once Wait has returned
	waitErr    error         // Wait's result, once exited is closed
	stderrDone chan struct{} // closed once stderr is drained and closed

	mu      sync.Mutex
	lastErr string // the last non-empty line it wrote to stderr, redacted and clipped

	answered  int  // answers read
	allowance bool // its first answer may take the start-up allowance too
}

// launch is how a binding's processes start in one run: its command, the environment it
// gets and the secrets among that environment's values, and the run log.
type launch struct {
	b       *binding
	env     []string
	secrets *redact.Secrets
	log     *logSink

	mu      sync.Mutex
	copiers map[string]*sync.WaitGroup // per worker (its prefix): its processes' stderr copies
}

// copying is the stderr copies of the processes of the worker named prefix.
func (l *launch) copying(prefix string) *sync.WaitGroup {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.copiers == nil {
		l.copiers = map[string]*sync.WaitGroup{}
	}
	if l.copiers[prefix] == nil {
		l.copiers[prefix] = new(sync.WaitGroup)
	}
	return l.copiers[prefix]
}

// stderrCopied waits until the stderr of every process the worker named prefix started is
// in the log, those killed and replaced too (a killed process's stderr closes within
// stderrGrace, see wait): once a worker is closed its log is whole. Its last process was
// often one killed, whose lines reached the log after Close had returned.
func (l *launch) stderrCopied(prefix string) { l.copying(prefix).Wait() }

// startProcess starts the binding's command in its directory, with the launch's
// environment only, in a process group of its own (see newProcessGroup).
func startProcess(l *launch, prefix string, allowance bool) (*process, error) {
	b := l.b
	var pipes [6]*os.File // stdin r/w, stdout r/w, stderr r/w
	for i := 0; i < len(pipes); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(pipes[:i]...)
			return nil, err
		}
		pipes[i], pipes[i+1] = r, w
	}
	inR, inW, outR, outW, errR, errW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	if err := outR.SetReadDeadline(time.Time{}); err != nil {
		closeAll(pipes[:]...)
		return nil, fmt.Errorf("pipes on this system cannot time out: %w", err)
	}
	cmd := exec.Command(b.command[0], b.command[1:]...)
	cmd.Dir = b.dir
	cmd.Env = l.env                     // never nil: nil would pass benchy's whole environment
	cmd.SysProcAttr = newProcessGroup() // so that its end ends its children too (sh -c, uv run)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err := startCommand(cmd)
	closeAll(inR, outW, errW) // the child's ends: the child has its own copies
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, err
	}
	p := &process{cmd: cmd, stdin: inW, stdout: outR, out: bufio.NewReaderSize(outR, readBuffer),
		exited: make(chan struct{}), stderrDone: make(chan struct{}), allowance: allowance}
	copying := l.copying(prefix)
	copying.Add(1)
	go func() {
		defer copying.Done()
		p.copyStderr(errR, l.log, prefix, l.secrets)
	}()
	go p.wait(errR)
	return p, nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// wait reaps the process, and kills what is left of its process group the moment it exits,
// however it ends: the processes it started (a `sleep 1000 &`, a server it spawned) do not
// outlive it. A descendant that left the group (setsid) is beyond reach. A descendant may
// still hold stderr open; it gets stderrGrace to finish before the pipe is closed under it.
func (p *process) wait(stderr *os.File) {
	zombie := awaitExit(p.cmd.Process)
	if zombie {
		killGroup(p.cmd.Process)
	}
	p.waitErr = p.cmd.Wait()
	if !zombie {
		killGroup(p.cmd.Process)
	}
	close(p.exited)
	select {
	case <-p.stderrDone:
	case <-time.After(stderrGrace):
		stderr.Close()
	}
}

// copyStderr copies stderr to the log line by line, secrets masked (before the log sees
// them, so a log file or terminal never gets one), keeping the last line for messages. A line longer than the buffer is written in pieces; a secret split between
// two pieces is still masked.
func (p *process) copyStderr(r *os.File, log *logSink, prefix string, secrets *redact.Secrets) {
	defer close(p.stderrDone)
	defer log.stderrEnd(prefix)
	defer r.Close()
	br := bufio.NewReaderSize(r, readBuffer)
	masked := secrets.Stream()
	for {
		piece, err := br.ReadSlice('\n')
		ended := err != nil && err != bufio.ErrBufferFull
		line := masked.Write(piece)
		if ended || bytes.HasSuffix(piece, []byte("\n")) {
			line = append(line[:len(line):len(line)], masked.Flush()...)
		}
		line = secrets.Deep(line) // a key spelt in \u escapes too, as a reply is masked
		if len(line) > 0 {
			log.stderrLine(prefix, line)
			if t := bytes.TrimSpace(line); len(t) > 0 {
				p.mu.Lock()
				p.lastErr = clip(t, stderrClip)
				p.mu.Unlock()
			}
		}
		if ended {
			return
		}
	}
}

// hasExited reports whether the process has exited and been reaped.
func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// exitText describes how the process ended, once it has.
func (p *process) exitText() string {
	if p.waitErr == nil {
		return "exit status 0"
	}
	return p.waitErr.Error()
}

// setDeadline bounds the next write and read.
func (p *process) setDeadline(t time.Time) {
	p.stdin.SetWriteDeadline(t)
	p.stdout.SetReadDeadline(t)
}

// exchange writes one request line and reads one answer line. The line is valid until the
// next exchange.
func (p *process) exchange(req []byte) ([]byte, error) {
	if _, err := p.stdin.Write(req); err != nil {
		return nil, err
	}
	line, err := p.out.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	long := append([]byte(nil), line...)
	for {
		line, err = p.out.ReadSlice('\n')
		if len(long)+len(line) > maxLine {
			return nil, errLineTooLong
		}
		long = append(long, line...)
		if err != bufio.ErrBufferFull {
			return long, err
		}
	}
}

// kill ends the process and its group, if it still runs, and closes the worker's ends of
// its pipes. It does not wait: wait reaps it. Once reaped, its group is already gone, and
// its id may belong to another process.
func (p *process) kill() {
	if !p.hasExited() {
		killGroup(p.cmd.Process)
	}
	closeAll(p.stdin, p.stdout)
}

// death explains why a process stopped answering (err: what the read or write saw), once
// it has exited, killing it if it lingers with its stdout closed.
func (p *process) death(err error) string {
	var why string
	select {
	case <-p.exited:
		why = "the command stopped before answering: " + p.exitText()
	case <-time.After(exitGrace):
		why = fmt.Sprintf("the command stopped answering (%v) and was killed", err)
		p.kill()
		<-p.exited
	}
	p.kill()
	select {
	case <-p.stderrDone:
	case <-time.After(stderrGrace):
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lastErr != "" {
		why += fmt.Sprintf("; its last stderr line: %q", p.lastErr)
	}
	return why
}

// close closes stdin, the command's cue to exit, and kills it if it does not.
func (p *process) close() {
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(closeGrace):
		p.kill()
		<-p.exited
	}
	p.stdout.Close()
	<-p.stderrDone
}

// clip returns at most n bytes of b as valid UTF-8, cut at a rune boundary.
func clip(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
		for i := 0; i < utf8.UTFMax-1 && len(b) > 0; i++ {
			if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size > 1 {
				break
			}
			b = b[:len(b)-1]
		}
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

// isTimeout reports whether an I/O error is a passed deadline.
func isTimeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

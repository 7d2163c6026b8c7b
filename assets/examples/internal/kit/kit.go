// Package kit is what the examples' AI-system adapters share: the command adapter protocol
// (one JSON line in, one out), running a program once per example, and keeping a program
// alive across examples when it can answer one request at a time.
package kit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Answer turns one example's input into its output, or fails for this example only.
type Answer func(input map[string]any) (map[string]any, error)

// Serve speaks the command adapter protocol on stdin and stdout until stdin ends:
// {"id", "input"} in, {"id", "output"} or {"id", "error"} out, one line each.
func Serve(answer Answer) {
	if err := ServeIO(os.Stdin, os.Stdout, answer); err != nil {
		fmt.Fprintln(os.Stderr, "adapter:", err)
		os.Exit(1)
	}
}

// ServeIO is Serve on any reader and writer.
func ServeIO(r io.Reader, w io.Writer, answer Answer) error {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(w)
	for in.Scan() {
		var req struct {
			ID    int            `json:"id"`
			Input map[string]any `json:"input"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return fmt.Errorf("bad request line: %w", err)
		}
		reply := map[string]any{"id": req.ID}
		if output, err := answer(req.Input); err != nil {
			reply["error"] = err.Error()
		} else {
			reply["output"] = output
		}
		line, err := json.Marshal(reply)
		if err != nil {
			return err
		}
		out.Write(append(line, '\n'))
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

// String reads a string field of an input.
func String(input map[string]any, field string) (string, error) {
	s, ok := input[field].(string)
	if !ok {
		return "", fmt.Errorf("input field %q is not a string", field)
	}
	return s, nil
}

// Run runs a program once and returns its standard output. A failure carries the end of its
// standard error.
func Run(timeout time.Duration, stdin []byte, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", name, err, tail(stderr.String(), 300))
	}
	return out, nil
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return s
}

// Pipe is a program kept alive across examples that answers each request in turn: a request
// is written followed by the delimiter, the answer is read up to the next delimiter.
type Pipe struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	delim byte
}

// StartPipe starts a program for Ask. Its standard error goes to ours (the run log).
func StartPipe(delim byte, name string, args ...string) (*Pipe, error) {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	return &Pipe{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16), delim: delim}, nil
}

// ErrPipeClosed is returned once the program has ended.
var ErrPipeClosed = errors.New("the program ended")

// Ask sends one request and returns the answer, without the delimiter.
func (p *Pipe) Ask(request string) (string, error) {
	if strings.IndexByte(request, p.delim) >= 0 {
		return "", fmt.Errorf("the request holds the delimiter %q", p.delim)
	}
	if _, err := io.WriteString(p.in, request+string(p.delim)); err != nil {
		return "", ErrPipeClosed
	}
	answer, err := p.out.ReadString(p.delim)
	if err != nil {
		return "", ErrPipeClosed
	}
	return strings.TrimSuffix(answer, string(p.delim)), nil
}

// Close ends the program.
func (p *Pipe) Close() error {
	p.in.Close()
	return p.cmd.Wait()
}

package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
)

// commandFactory makes command adapters for b. Each starts its own process at once, so
// that a command that cannot start stops the run before any example, and keeps it across
// examples, so that a model loads once per worker, not once per example.
//
// The environment is read here, once per run: every process of the run gets the same.
func (b *binding) commandFactory(log io.Writer) engine.Factory {
	env, secrets := b.environ(os.LookupEnv)
	l := &launch{b: b, env: env, secrets: secrets, log: newLogSink(log)}
	var workers atomic.Int64
	return func() (engine.Adapter, error) {
		a := &commandAdapter{b: b, l: l, log: l.log, prefix: fmt.Sprintf("%s[%d]: ", b.name, workers.Add(1))}
		a.enc = json.NewEncoder(&a.req)
		a.enc.SetEscapeHTML(false)
		p, err := startProcess(l, a.prefix, true)
		if err != nil {
			return nil, fmt.Errorf("binding %q: cannot start the command: %w", b.name, err)
		}
		a.p = p
		return a, nil
	}
}

// commandAdapter speaks the line protocol with one process: per example one request line
// {"id": INDEX, "input": {...}} on its stdin, one answer line on its stdout,
// {"id": INDEX, "output": VALUE} or {"id": INDEX, "error": "message"}.
type commandAdapter struct {
	b      *binding
	l      *launch
	log    *logSink
	prefix string   // names the binding and worker in the log
	p      *process // nil after a failure: started again by the next example
	req    bytes.Buffer
	enc    *json.Encoder // writes into req

	cleanExit bool // the last exchange failed because the process had exited with status 0
	hung      bool // the last process was killed for a timeout before it ever answered
}

// startupGrace is the least start-up allowance: the first answer of a fresh process may
// take the binding's timeout plus max(timeout, startupGrace), for loading a model, say. A
// variable so that tests need not wait for it.
var startupGrace = 30 * time.Second

// allowance is the start-up allowance of a fresh process. Every worker's first process gets
// it, and so does each process replacing one that answered, crashed or exited; a process
// replacing one that timed out without ever answering does not, so that a command that
// hangs costs its timeout per example, not timeout plus allowance.
func (a *commandAdapter) allowance() bool { return !a.hung }

// Invoke asks the process for one example's output. A process that fails, breaks the
// protocol or times out is killed and replaced for the next example; one that answers with
// an error is kept. The secrets of the binding's environment are masked in the output and
// the failure.
func (a *commandAdapter) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	out, err := a.invoke(ctx, index, input)
	return maskResult(a.l.secrets, out, err)
}

func (a *commandAdapter) invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	if ctx.Err() != nil {
		return nil, engine.ExecutionError(diag.Timeout, "the run ended before the AI-system was asked (%v)", context.Cause(ctx))
	}
	req, err := a.request(index, input)
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "cannot encode the input as JSON: %v", err)
	}
	if a.p != nil && a.p.hasExited() {
		// It stopped after its last answer: this example was never sent to it, so it is
		// not this example's failure. The log says why.
		a.log.line(a.prefix, fmt.Appendf(nil, "(benchy) the command exited after its last answer (%s); starting it again", a.p.exitText()))
		a.p.kill()
		a.p = nil
	}
	if a.p == nil {
		if a.p, err = startProcess(a.l, a.prefix, a.allowance()); err != nil {
			return nil, engine.ExecutionError(diag.AdapterError, "cannot restart the command: %v", err)
		}
	}
	out, err := a.ask(ctx, index, req)
	if f := (*engine.Failure)(nil); err != nil && errors.As(err, &f) && f.Code == diag.AdapterError && a.cleanExit {
		// It exited cleanly after its last answer, as one-shot commands do, and the exit
		// was noticed only now: not this example's failure. Ask a fresh process, once.
		a.cleanExit = false
		a.log.line(a.prefix, []byte("(benchy) the command exited after its last answer; starting it again"))
		if a.p, err = startProcess(a.l, a.prefix, true); err != nil {
			return nil, engine.ExecutionError(diag.AdapterError, "cannot restart the command: %v", err)
		}
		return a.ask(ctx, index, req)
	}
	return out, err
}

// ask runs one exchange with the current process.
func (a *commandAdapter) ask(ctx context.Context, index int, req []byte) (any, error) {
	a.cleanExit = false
	p := a.p
	// The first answer of a process may include its start-up (loading a model, say).
	deadline := time.Now().Add(a.b.timeout)
	if p.answered == 0 && p.allowance {
		deadline = deadline.Add(max(a.b.timeout, startupGrace))
	}
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	p.setDeadline(deadline)
	if ctx.Done() != nil {
		fired := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			p.setDeadline(expired)
			close(fired)
		})
		defer func() {
			if !stop() {
				<-fired // it must not expire the next example's deadline
			}
		}()
	}
	line, err := p.exchange(req)
	if err != nil {
		a.p = nil
		f := a.lost(ctx, p, err)
		a.cleanExit = p.answered > 0 && p.hasExited() && p.waitErr == nil
		a.hung = p.answered == 0 && isTimeout(err) && ctx.Err() == nil
		return nil, f
	}
	p.answered++
	a.hung = false
	// Masked before anything is read from it: a message below quotes a clipped piece.
	line = a.l.secrets.Bytes(line)
	out, f, resync := answer(line, index, a.l.secrets)
	if resync {
		a.p = nil
		p.kill()
		f.Message += "; the command was killed"
	}
	if f != nil {
		return nil, f
	}
	return out, nil
}

// lost accounts for a process whose exchange failed.
func (a *commandAdapter) lost(ctx context.Context, p *process, err error) *engine.Failure {
	switch {
	case isTimeout(err):
		p.kill()
		if ctx.Err() != nil {
			return engine.ExecutionError(diag.Timeout, "the run ended before the AI-system answered (%v); the command was killed", context.Cause(ctx))
		}
		return engine.ExecutionError(diag.Timeout, "no answer within %v; the command was killed", a.b.timeout)
	case err == errLineTooLong:
		p.kill()
		return engine.ExecutionError(diag.AdapterError, "%v; the command was killed", err)
	}
	why := p.death(err)
	if p.hasExited() && stopSignal(p.waitErr) {
		// Stopped by a signal benchy did not send, as a supervisor stops every process of
		// a job at once: benchy's own stop (its run context) may be a moment behind. That
		// stop drops this example, to be asked again on a resume or a shard's re-run, where
		// a failure written now would be kept as the system's.
		select {
		case <-ctx.Done():
			return engine.ExecutionError(diag.Timeout, "the run ended before the AI-system answered (%v); %s", context.Cause(ctx), why)
		case <-time.After(stopGrace):
		}
	}
	return engine.ExecutionError(diag.AdapterError, "%s", why)
}

// stopGrace is how long a command stopped by a job's signal waits for benchy's own stop
// before its death is reported as the example's failure.
const stopGrace = 2 * time.Second

// request encodes one request line into a.req.
func (a *commandAdapter) request(index int, input map[string]any) ([]byte, error) {
	a.req.Reset()
	a.req.WriteString(`{"id":`)
	a.req.WriteString(strconv.Itoa(index))
	a.req.WriteString(`,"input":`)
	if err := a.enc.Encode(input); err != nil {
		return nil, err
	}
	a.req.Truncate(a.req.Len() - 1) // Encode's newline
	a.req.WriteString("}\n")
	return a.req.Bytes(), nil
}

// Close ends the process: it closes stdin, the command's cue to exit, and kills it if it
// does not exit within a second.
func (a *commandAdapter) Close() error {
	if a.p != nil {
		a.p.close()
		a.p = nil
	}
	a.l.stderrCopied(a.prefix) // its killed processes' stderr too
	return nil
}

// answer decodes one answer line for example index. resync reports a line that may
// belong to another example (not JSON, no id or another id): the process's answers can
// no longer be matched to requests, so it must be restarted. A line that is no JSON
// object is quoted in the failure masked by secrets (quotedLine).
func answer(line []byte, index int, secrets *redact.Secrets) (out any, f *engine.Failure, resync bool) {
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	v, strict, ok := decodeReply(line)
	m, _ := v.(map[string]any)
	if !ok || m == nil {
		return nil, engine.ExecutionError(diag.AdapterError, "the answer is not a JSON object: %q", quotedLine(secrets, line)), true
	}
	id, ok := m["id"]
	if !ok {
		return nil, engine.ExecutionError(diag.AdapterError, "the answer has no id (want %d)", index), true
	}
	if n, ok := id.(json.Number); !ok || string(n) != strconv.Itoa(index) {
		text, _ := json.Marshal(id)
		return nil, engine.ExecutionError(diag.AdapterError, "the answer has id %s, want %d", clip(text, 200), index), true
	}
	var unknown []string
	for k := range m {
		if k != "id" && k != "output" && k != "error" {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, engine.ExecutionError(diag.AdapterError, "the answer has the unknown key %q; an answer has id and either output or error", unknown[0]), false
	}
	output, hasOutput := m["output"]
	message, hasError := m["error"]
	switch {
	case hasOutput && hasError:
		return nil, engine.ExecutionError(diag.AdapterError, "the answer has both output and error"), false
	case hasOutput && strict != nil:
		return nil, engine.InvalidOutput(output, "the answer is not strict JSON (RFC 8259): %v; the prediction shows it as encoding/json would repair it, and it is not scored", strict), false
	case hasOutput:
		return output, nil, false
	case !hasError:
		return nil, engine.ExecutionError(diag.AdapterError, "the answer has neither output nor error"), false
	}
	switch s, ok := message.(string); {
	case !ok:
		text, _ := json.Marshal(message)
		return nil, engine.ExecutionError(diag.AdapterError, "the answer's error is not a string: %s", clip(text, 200)), false
	case s == "":
		return nil, engine.ExecutionError(diag.AdapterError, "the AI-system reported an error without a message"), false
	default:
		return nil, engine.ExecutionError(diag.AdapterError, "%s", s), false
	}
}

// maxQuoted bounds the start of a line that is no JSON answer masked for its failure's
// quote: far more than the 200 bytes quoted, so that where it cuts a secret is past the
// quote (unless masks swallowed nearly all of it, and then less than redact.Gram bytes of
// the secret are left, which no mask hides either), and little enough that a 64 MiB line
// does not cost 9 times its size to mask (Secrets.Deep keeps a position per byte).
const maxQuoted = 64 << 10

// quotedLine is the start of a line that is no JSON answer as its failure quotes it: masked
// with Secrets.Deep, as a provider's reply is, before it is cut to 200 bytes. Its decoded
// fields are masked by maskResult afterwards, but the line is quoted as written, where a
// secret may be spelt with JSON escapes (\u0073k-..., or \\u0073 in a JSON text inside a
// string) that a reader decodes back.
func quotedLine(secrets *redact.Secrets, line []byte) string {
	return clip(secrets.Deep(line[:min(len(line), maxQuoted)]), 200)
}

// decodeReply decodes an AI-system's reply (a command's answer line, an HTTP response
// body): exactly one JSON value, numbers as json.Number so that 121 and 121.0
// stay as written for the engine's int and float checks. ok is false when b is not JSON;
// strict is set when b is JSON that breaks RFC 8259's rules (invalid UTF-8, a lone
// surrogate, a duplicate key: engine.DecodeJSON), and then v is the repaired value, to
// show as an invalid output, never to score.
func decodeReply(b []byte) (v any, strict error, ok bool) {
	v, err := engine.DecodeJSON(b)
	var se *engine.StrictError
	switch {
	case err == nil:
		return v, nil, true
	case errors.As(err, &se):
		return v, se, true
	}
	return nil, nil, false
}

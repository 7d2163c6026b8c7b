package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// wire is one provider protocol: how to ask and how to read the answer.
type wire interface {
	// endpoint is the path after the base URL.
	endpoint() string
	// headers are the request's headers, the key included.
	headers(key string) http.Header
	// body builds the request for one example; a *engine.Failure when the protocol cannot
	// carry the input (an audio field for a provider without audio input, say). The body
	// streams its media parts from their files each time it is sent.
	body(t *Task, mode string, parts []Part) (*requestBody, error)
	// reply reads a 2xx body: the output, or an invalid_output failure (a refusal, a
	// truncated reply, text with no JSON object), and the tokens used when the body says.
	reply(body []byte, mode string) (any, *engine.Usage, *engine.Failure)
}

// NewFactory returns the adapters for one model AI-system: they share one client, so the
// concurrency cap and the rate limit hold across all workers. The key is read from the
// environment variable the provider names, through getenv, and goes nowhere but the
// request headers.
func NewFactory(cfg Config, task Task, getenv func(string) string) (engine.Factory, error) {
	cfg = cfg.withDefaults()
	var w wire
	switch cfg.Kind {
	case KindOpenAI:
		w = openAI{}
	case KindAnthropic:
		w = anthropic{}
	default:
		return nil, fmt.Errorf("provider %q: unknown kind %q (want openai or anthropic)", cfg.Name, cfg.Kind)
	}
	key := ""
	if cfg.APIKeyEnv != "" {
		if key = getenv(cfg.APIKeyEnv); key == "" {
			return nil, fmt.Errorf("provider %q: the environment variable %s that holds its key is not set", cfg.Name, cfg.APIKeyEnv)
		}
	}
	c := newClient(cfg, key)
	url := strings.TrimSuffix(cfg.BaseURL, "/") + w.endpoint()
	return func() (engine.Adapter, error) {
		return &modelAdapter{c: c, w: w, task: &task, url: url}, nil
	}, nil
}

// modelAdapter evaluates one example through a provider.
type modelAdapter struct {
	c    *client
	w    wire
	task *Task
	url  string
}

func (a *modelAdapter) Invoke(ctx context.Context, _ int, input map[string]any) (any, error) {
	parts, err := Render(a.task.Input, input)
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "%v", err)
	}
	body, err := a.w.body(a.task, a.c.cfg.StructuredOutput, parts)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	resp, f := a.c.send(ctx, a.url, a.w.headers(a.c.key), body)
	latency := float64(time.Since(start).Microseconds()) / 1000
	if f != nil {
		f.Usage = &engine.Usage{LatencyMS: latency}
		return nil, a.c.redact(f)
	}
	// The key is masked in the body before it is read, so that no message cut from it keeps
	// a piece, and in the output after, which the body's JSON escapes may have spelt out.
	out, usage, f := a.w.reply(a.c.secrets.Bytes(resp.body), a.c.cfg.StructuredOutput)
	if usage == nil {
		usage = &engine.Usage{}
	}
	usage.LatencyMS = latency
	if f != nil {
		f.Usage = usage
		return nil, a.c.redact(f)
	}
	return &engine.Answer{Output: a.c.secrets.Value(out), Usage: usage}, nil
}

func (a *modelAdapter) Close() error { return nil }

// schemaName is the name the output schema goes by in requests.
const schemaName = "benchy_output"

// withParameters merges ai-system.parameters into a request object, unchanged: unknown
// parameters are the provider's business. The request's own keys win.
func withParameters(req map[string]any, params map[string]any) map[string]any {
	for k, v := range params {
		if _, set := req[k]; !set {
			req[k] = v
		}
	}
	return req
}

package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
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
// request headers. A prompt file that is a template (template.go) is parsed here, so that
// its errors, a diag.List positioned in task.PromptFile, come before any example runs.
func NewFactory(cfg Config, task Task, getenv func(string) string) (engine.Factory, error) {
	cfg = cfg.withDefaults()
	if cfg.Kind != KindOpenAI && cfg.Kind != KindAnthropic {
		return nil, fmt.Errorf("provider %q: unknown kind %q (want openai or anthropic)", cfg.Name, cfg.Kind)
	}
	tmpl, ds := ParseTemplate(task.PromptFile, task.Prompt, task.Input, cfg.Kind)
	if ds != nil {
		return nil, ds.Err()
	}
	if tmpl != nil && tmpl.static {
		task.Prompt = tmpl.text
	}
	base, err := parseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("provider %q: base_url %v", cfg.Name, err)
	}
	if err := checkCache(cfg); err != nil {
		return nil, err
	}
	if cfg.Batch.On && cfg.CacheMode != "" && cfg.CacheMode != CacheOff {
		// A batch run keeps its replies in the run's record, not in the response cache.
		return nil, fmt.Errorf("provider %q: batch: true cannot be used with cache: %s (or --cache %s): run it with the cache off", cfg.Name, cfg.CacheMode, cfg.CacheMode)
	}
	key := ""
	if cfg.APIKeyEnv != "" {
		// A replay from the cache alone (cache: only) sends nothing, so it needs no key: a CI
		// job replays a recorded run without the secret.
		if key = getenv(cfg.APIKeyEnv); key == "" && cfg.CacheMode != CacheOnly {
			return nil, fmt.Errorf("provider %q: the environment variable %s that holds its key is not set", cfg.Name, cfg.APIKeyEnv)
		}
	}
	c := newClient(cfg, key)
	price := cfg.price(task.System.Model)
	var w wire = openAI{c.secrets, price}
	if cfg.Kind == KindAnthropic {
		w = anthropic{c.secrets, price}
	}
	url := endpointURL(base, w.endpoint())
	// The headers are the same for every request: made once, shared read-only by every
	// attempt of every worker (net/http does not change a request's headers).
	header := w.headers(key)
	header.Set("Content-Type", "application/json")
	pdf := &pdfCounts{} // the budget's and --estimate's page counts, each PDF read once
	return func() (engine.Adapter, error) {
		return &modelAdapter{c: c, w: w, task: &task, tmpl: tmpl, base: base, url: url, header: header, line: requestLine(w.endpoint()), pdf: pdf}, nil
	}, nil
}

// parseBaseURL reads a provider's base URL. Its errors never quote it: it may hold a
// password or a token.
func parseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		return nil, fmt.Errorf("is not a valid URL: %v", ue.Err)
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("is not a valid URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("must be an http:// or https:// URL")
	case u.Host == "":
		return nil, fmt.Errorf("has no host")
	}
	return u, nil
}

// endpointURL is the URL of a protocol's endpoint under a provider's base URL: the
// endpoint's path joined to the base's path (https://host/v1 and https://host/v1/ both give
// https://host/v1/chat/completions), the base's query kept at the end, where a server reads
// it (?api-version=..., ?key=...). A fragment is never sent.
func endpointURL(base *url.URL, endpoint string) string {
	u := base.JoinPath(endpoint)
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// modelAdapter evaluates one example through a provider.
type modelAdapter struct {
	c      *client
	w      wire
	task   *Task
	tmpl   *Template // nil: the prompt file is not a template (template.go)
	base   *url.URL  // the provider's base URL, which the batch APIs' endpoints are under
	url    string
	header http.Header // every request's, the key's included: never changed once made
	line   string      // the recorded request's first line (requestLine)
	// replies, when set, answers each example from its batch (Batcher.Factory) instead of
	// the network.
	replies BatchReplies
	pdf     *pdfCounts // the page counts of the PDFs its estimates read (pdfbound.go)
}

func (a *modelAdapter) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	task, parts, err := a.render(input)
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "%v", err)
	}
	body, err := a.w.body(task, a.c.cfg.StructuredOutput, parts)
	if err != nil {
		return nil, err
	}
	// What was sent goes with the answer and with every failure from here on, so that an
	// example that failed shows what it asked.
	// Only when the run keeps it: rendering it costs a copy of the body per example.
	request := ""
	if engine.KeepsRequest(ctx) {
		request = body.record(a.line, a.c.secrets)
	}
	start := time.Now()
	if a.replies != nil {
		return a.fromBatch(index, request, start)
	}
	mode, key := a.c.cacheMode(), ""
	if mode != CacheOff {
		if key, err = a.lookup(mode, body); err != nil {
			return nil, err
		}
	}
	switch {
	case key == "":
	case mode == CacheUse || mode == CacheOnly:
		reply, ok, err := a.c.cfg.Cache.Get(key)
		switch {
		case err != nil:
			f := engine.ExecutionError(diag.AdapterError, "reading the response cache: %v", err)
			f.Usage, f.Request = &engine.Usage{LatencyMS: since(start), Cached: cached(mode, false)}, request
			return nil, a.c.redact(f)
		case ok:
			return a.answer(reply, request, start, cached(mode, true), "")
		case mode == CacheOnly:
			f := engine.ExecutionError(diag.CacheMiss, "the response cache holds no reply to this request, and --cache only sends none")
			f.Usage, f.Request = &engine.Usage{LatencyMS: since(start), Cached: cached(mode, false)}, request
			return nil, f
		}
	}
	// The latency is the provider's: from when the request went, past the rate limit and the
	// cap on requests in flight, its retries included. A request that never went took none.
	resp, sent, f := a.c.exchange(ctx, a.url, a.header, body)
	if f != nil {
		f.Usage, f.Request = &engine.Usage{LatencyMS: latency(sent), Cached: cached(mode, false)}, request
		return nil, a.c.redact(f)
	}
	// The key is masked in the body before it is read, so that no message cut from it keeps
	// a piece, also where JSON escapes at any depth spell it (the body is what the response
	// cache keeps, which a replay without the key reads), and in the output after.
	return a.answer(a.c.secrets.Deep(resp.body), request, sent, cached(mode, false), key)
}

// fromBatch answers example index from the reply its batch gave, read as a reply sent now
// would be; a request the batch failed is the provider_error it said.
func (a *modelAdapter) fromBatch(index int, request string, start time.Time) (any, error) {
	reply, msg, ok, err := a.replies.BatchReply(index)
	var f *engine.Failure
	switch {
	case err != nil:
		f = engine.ExecutionError(diag.AdapterError, "reading the reply of this example's batch: %v", err)
	case !ok:
		f = engine.ExecutionError(diag.AdapterError, "no batch of this run holds a reply to this example")
	case msg != "" || reply == nil:
		f = engine.ExecutionError(diag.ProviderError, "%s", msg)
	default:
		return a.answer(reply, request, start, nil, "")
	}
	f.Usage, f.Request = &engine.Usage{LatencyMS: since(start)}, request
	return nil, a.c.redact(f)
}

// lookup is the cache key of body, a failure that keeps the example's request when its
// files cannot be read.
func (a *modelAdapter) lookup(mode string, body *requestBody) (string, error) {
	key, f := a.c.cacheKey(a.task.System.Model, body)
	if f != nil {
		f.Usage = &engine.Usage{Cached: cached(mode, false)}
		return "", a.c.redact(f)
	}
	return key, nil
}

// answer reads a reply (the provider's, secrets masked, or the cache's): the output, or the
// failure it is, with what it cost and whether it came from the cache. A provider's reply
// the protocol reads is kept under key, when there is one: the cache keeps the masked
// body, so that a replay reads the very bytes read here.
func (a *modelAdapter) answer(reply []byte, request string, start time.Time, fromCache *bool, key string) (any, error) {
	out, usage, f := a.w.reply(reply, a.c.cfg.StructuredOutput)
	if key != "" && cacheable(f) {
		// A reply that could not be kept costs the next run a call, not this one its answer.
		_ = a.c.cfg.Cache.Put(key, reply, a.c.cacheMode() == CacheRefresh)
	}
	if usage == nil {
		usage = &engine.Usage{}
	}
	usage.LatencyMS, usage.Cached = since(start), fromCache
	if f != nil {
		f.Usage, f.Request = usage, request
		return nil, a.c.redact(f)
	}
	return &engine.Answer{Output: a.c.secrets.Value(out), Usage: usage, Request: request}, nil
}

// since is the milliseconds from start, to the microsecond.
func since(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }

// latency is since(sent), 0 when nothing was sent (sent is zero).
func latency(sent time.Time) float64 {
	if sent.IsZero() {
		return 0
	}
	return since(sent)
}

// cached is Usage.Cached for a reply in mode: nil without a cache.
func cached(mode string, hit bool) *bool {
	if mode == CacheOff {
		return nil
	}
	return &hit
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

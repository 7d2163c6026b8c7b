package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
)

// client is what the adapters of one provider share: the HTTP client and the key. The
// limits on its requests are the process's limiter for the provider (ratelimit.go), which
// every client sending to it shares.
type client struct {
	cfg     Config
	key     string
	secrets *redact.Secrets // the key and the base URL's credentials, masked in everything read back
	// cacheBase is the base URL as response cache keys hold it: its credentials masked.
	cacheBase string
	http      *http.Client
	lim       atomic.Pointer[boundLimiter] // the provider's limiter, looked up at the first request
	sleep     func(context.Context, time.Duration) error
	jitter    func() float64 // in [0, 1)
}

func newClient(cfg Config, key string) *client {
	c := &client{
		cfg:     cfg,
		key:     key,
		secrets: redact.New(append(redact.URLSecrets(cfg.BaseURL), key)...),
		http:    &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, MaxIdleConnsPerHost: 256, IdleConnTimeout: 30 * time.Second}},
		sleep:   sleepCtx,
		jitter:  rand.Float64,
	}
	c.cacheBase = c.secrets.String(cfg.BaseURL)
	return c
}

// response is a provider's answer to one request.
type response struct {
	status int
	body   []byte
}

// maxBody bounds a provider's reply.
const maxBody = 64 << 20

// send POSTs body to url with the headers, retrying with exponential backoff and jitter on
// 429, 5xx and connection failures, honouring Retry-After; other 4xx are not retried. It
// returns the 2xx response, or a failure: timeout when the per-request time ran out,
// provider_error with the HTTP status when the retries are spent. Each attempt sends the
// whole body again, its files opened again; a file that changed fails the request at once
// (an adapter_error), without a retry.
func (c *client) send(ctx context.Context, url string, header http.Header, body *requestBody) (*response, *engine.Failure) {
	resp, _, f := c.exchange(ctx, url, header, body)
	return resp, f
}

// exchange is send, and when its first attempt went out, past the rate limit and the cap on
// requests in flight (zero: none went): the provider's answer, its retries included, took
// from then on. A run's budget (engine.MeterOf) holds each attempt's bound: an attempt that
// failed is charged it unless the provider's answer proves it was not billed (try's
// billed), and a retry reserves it again first, or does not go.
func (c *client) exchange(ctx context.Context, url string, header http.Header, body *requestBody) (resp *response, sent time.Time, f *engine.Failure) {
	var last string
	unreachable := false // the last attempt found no server
	retrying := false    // the attempt waited out a 429's Retry-After
	var place uint64     // the request's place in the limiter's queue, kept by its retries
	meter := engine.MeterOf(ctx)
	for attempt := 0; ; attempt++ {
		resp, at, wait, billed, err := c.try(ctx, url, header, body, retrying, &place)
		if sent.IsZero() {
			sent = at
		}
		if err != nil || resp.status < 200 || resp.status >= 300 {
			if billed {
				meter.Billed()
			} else {
				meter.Unbilled()
			}
		}
		var fileFailure *engine.Failure
		switch {
		case errors.As(err, &fileFailure):
			return nil, sent, fileFailure
		case err != nil && ctx.Err() != nil:
			return nil, sent, engine.ExecutionError(diag.Timeout, "the request was cancelled: %v", context.Cause(ctx))
		case err != nil && errors.Is(err, context.DeadlineExceeded):
			return nil, sent, engine.ExecutionError(diag.Timeout, "the provider did not answer within %s", c.cfg.Timeout)
		case err != nil:
			last, unreachable = "cannot reach "+c.secrets.String(origin(url))+": "+c.secrets.String(hideURL(err, url)), !billed
			if resp != nil { // the reply began: its status and headers came, then it was cut
				last = fmt.Sprintf("HTTP %d: the reply was cut short: %s", resp.status, c.secrets.String(hideURL(err, url)))
			}
		case resp.status >= 200 && resp.status < 300:
			return resp, sent, nil
		case resp.status == http.StatusTooManyRequests || resp.status >= 500:
			last, unreachable = fmt.Sprintf("HTTP %d: %s", resp.status, snippet(c.secrets, resp.body)), false
		default:
			return nil, sent, engine.ExecutionError(diag.ProviderError, "HTTP %d: %s", resp.status, snippet(c.secrets, resp.body))
		}
		if attempt >= c.cfg.MaxRetries {
			hint := ""
			if unreachable {
				hint = " — is the server running?"
			}
			return nil, sent, engine.ExecutionError(diag.ProviderError, "%s (after %d attempts)%s", last, attempt+1, hint)
		}
		tooMany := err == nil && resp.status == http.StatusTooManyRequests
		retrying = tooMany && wait > 0
		why := whyRetryAfter
		if wait == 0 {
			wait, why = c.backoff(attempt), whyTooMany
		}
		done := func() {}
		if tooMany {
			done = c.limiter(url).pausing(why) // the progress line says the run waits for the rate limit
		}
		slept := c.sleep(ctx, wait)
		done()
		if slept != nil {
			return nil, sent, engine.ExecutionError(diag.Timeout, "cancelled while waiting to retry: %s", last)
		}
		if err := meter.Again(ctx); errors.Is(err, engine.ErrBudget) {
			return nil, sent, engine.ExecutionError(diag.ProviderError, "%s (after %d attempts; no retry: %v)", last, attempt+1, err)
		} else if err != nil {
			return nil, sent, engine.ExecutionError(diag.Timeout, "cancelled while waiting for the budget to retry: %s", last)
		}
	}
}

// try makes one attempt within the provider's limits (ratelimit.go) and the per-request
// timeout; retrying says it follows a 429 whose Retry-After it waited out, place is its
// request's place in the limiter's queue. sent is when it went, past the limits (zero: it
// did not); wait is the server's Retry-After, or 0, also of a reply cut after its headers.
// The error is an *engine.Failure when a file of the body failed it; with a reply cut short,
// resp holds its status (and no body). billed says the attempt may have been billed: the
// request went whole (net/http wrote all of it) and no 4xx refused it, which no provider
// bills. A refused connection, a body that failed before it was all sent, and a 429 were
// not. The reply, whatever its status, goes to the limiter: its rate-limit headers and the
// tokens it reports.
func (c *client) try(ctx context.Context, url string, header http.Header, body *requestBody, retrying bool, place *uint64) (resp *response, sent time.Time, wait time.Duration, billed bool, err error) {
	l := c.limiter(url)
	raw := 1
	if l.tokensPerMinute() > 0 {
		raw = requestTokens(body)
	}
	t, err := l.enter(ctx, raw, retrying, place)
	if err != nil {
		return nil, time.Time{}, 0, false, err
	}
	sent = t.at
	status, replied, data := 0, http.Header(nil), []byte(nil)
	defer func() { l.leave(t, status, replied, data) }()
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var wrote atomic.Bool // the whole request was written to a connection
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(w httptrace.WroteRequestInfo) {
		if w.Err == nil {
			wrote.Store(true)
		}
	}})
	s := &sending{b: body}
	rd, err := s.reader()
	if err != nil {
		return nil, sent, 0, false, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, rd)
	if err != nil {
		rd.Close()
		return nil, sent, 0, false, err
	}
	req.ContentLength = body.size
	req.GetBody = s.reader
	req.Header = header // shared, read only: it holds the Content-Type (NewFactory)
	r, err := c.http.Do(req)
	if f := s.failure(); f != nil {
		if err == nil {
			r.Body.Close()
		}
		return nil, sent, 0, wrote.Load() && (err != nil || r.StatusCode < 400 || r.StatusCode >= 500), f
	}
	if err != nil {
		return nil, sent, 0, wrote.Load(), err
	}
	defer r.Body.Close()
	status, replied = r.StatusCode, r.Header
	billed = wrote.Load() && (status < 400 || status >= 500)
	data, err = io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return &response{status: status}, sent, retryAfterHeaders(r.Header), billed, err
	}
	if len(data) > maxBody {
		return &response{status: status}, sent, 0, billed, fmt.Errorf("the reply is larger than %d MiB", maxBody>>20)
	}
	return &response{status: r.StatusCode, body: data}, sent, retryAfterHeaders(r.Header), billed, nil
}

// backoff is the wait before retry attempt+1: 0.5 s doubling to at most 30 s, with ±50%
// jitter so workers do not retry in step.
func (c *client) backoff(attempt int) time.Duration {
	base := min(500*time.Millisecond<<attempt, 30*time.Second)
	return time.Duration(float64(base) * (0.5 + c.jitter()))
}

// retryAfter reads a Retry-After header: seconds or an HTTP date; at most maxWait. The
// seconds are bounded before they become a Duration: 1e30 seconds overflowed it into a
// negative wait, which retried at once.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return min(time.Duration(min(s, maxWait.Seconds())*float64(time.Second)), maxWait)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(t), 0), maxWait)
	}
	return 0
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// snippet is the start of a reply body, for messages, cut at a character boundary after its
// secrets are masked: the cut must not split a key, and a key the server echoed with its
// characters \u-escaped, in whole or in part, is spelt out (a JSON body is re-encoded)
// before it is looked for.
func snippet(secrets *redact.Secrets, body []byte) string {
	s := strings.ToValidUTF8(strings.TrimSpace(string(secrets.JSONBody(body))), "\uFFFD")
	if len(s) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// hideURL is the message of a failed request without its URL, which may hold a password
// or a token: net/http's errors say `Post "URL": why`, with the password masked but the
// query as is. Only why is kept, with the URL, in either spelling, taken out of it too.
// origin is the scheme, host and port of the endpoint raw, what a failure to reach it
// names ("cannot reach http://127.0.0.1:11434"): never its user information, path or
// query, which may hold a key.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the provider's endpoint"
	}
	return u.Scheme + "://" + u.Host
}

func hideURL(err error, raw string) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	if u, perr := url.Parse(raw); perr == nil {
		msg = strings.ReplaceAll(msg, u.Redacted(), "the provider's endpoint")
	}
	return strings.ReplaceAll(msg, raw, "the provider's endpoint")
}

// redact masks the key and the base URL's credentials in a failure's message and
// prediction: a server may echo what it was sent, and keys never appear in results, logs
// or errors.
func (c *client) redact(f *engine.Failure) *engine.Failure {
	f.Message = c.secrets.String(f.Message)
	f.Prediction = c.secrets.Value(f.Prediction)
	return f
}

package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// The batch APIs' calls: a few per batch (upload, create, polls, results, cancel), so they
// go outside the synchronous path's concurrency cap and rate limit, with its retries: 429,
// 5xx and connection failures are tried again with backoff, honouring Retry-After; any
// other failure is the call's error, its message with the key masked.

// batchTimeout bounds one batch call: an upload or a result file of hundreds of MB takes
// longer than a chat completion's timeout.
const batchTimeout = 10 * time.Minute

// path is the URL of endpoint under the provider's base URL.
func (b *Batcher) path(endpoint string) string { return endpointURL(b.base, endpoint) }

// jsonBody is a request body of JSON bytes, for call.
func jsonBody(data []byte) func() (io.ReadCloser, string, error) {
	return func() (io.ReadCloser, string, error) {
		return io.NopCloser(bytes.NewReader(data)), "application/json", nil
	}
}

// call makes one batch call and decodes its 2xx JSON reply into out (nil: not read).
// body gives a fresh request body for each attempt; nil sends none.
func (b *Batcher) call(ctx context.Context, method, url string, body func() (io.ReadCloser, string, error), out any) error {
	return b.stream(ctx, method, url, body, func(r io.Reader) error {
		if out == nil {
			return nil
		}
		data, err := io.ReadAll(io.LimitReader(r, maxBody))
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("the reply is not the JSON expected: %s", snippet(b.a.c.secrets, data))
		}
		return nil
	})
}

// stream makes one batch call and hands its 2xx reply's body to read.
func (b *Batcher) stream(ctx context.Context, method, url string, body func() (io.ReadCloser, string, error), read func(io.Reader) error) error {
	c := b.a.c
	var last string
	for attempt := 0; ; attempt++ {
		wait, err := b.try(ctx, method, url, body, read)
		var retry *retryable
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return fmt.Errorf("cancelled: %w", context.Cause(ctx))
		case !errors.As(err, &retry):
			return err
		}
		last = retry.msg
		if attempt >= c.cfg.MaxRetries {
			return fmt.Errorf("%s (after %d attempts)", last, attempt+1)
		}
		if wait == 0 {
			wait = c.backoff(attempt)
		}
		if c.sleep(ctx, wait) != nil {
			return fmt.Errorf("cancelled while waiting to retry: %s", last)
		}
	}
}

// RefusedError is a provider's 4xx answer to a batch call (but 408 and 429): a request it
// will refuse again however often it is sent (a bad key, an unknown model, a file it cannot
// take). A run whose batch is refused at its creation aborts rather than waiting for a
// resume that cannot help.
type RefusedError struct {
	Status int
	msg    string // "HTTP 400: <the provider's reply, the key masked>"
}

func (r *RefusedError) Error() string { return r.msg }

// retryable is a failure worth another attempt.
type retryable struct{ msg string }

func (r *retryable) Error() string { return r.msg }

func (b *Batcher) try(ctx context.Context, method, url string, body func() (io.ReadCloser, string, error), read func(io.Reader) error) (time.Duration, error) {
	c := b.a.c
	ctx, cancel := context.WithTimeout(ctx, max(c.cfg.Timeout, batchTimeout))
	defer cancel()
	var rd io.ReadCloser
	ctype := ""
	if body != nil {
		var err error
		if rd, ctype, err = body(); err != nil {
			return 0, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		if rd != nil {
			rd.Close()
		}
		return 0, fmt.Errorf("the request: %s", c.secrets.String(hideURL(err, url)))
	}
	req.Header = b.a.w.headers(c.key)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, &retryable{"cannot reach " + c.secrets.String(origin(url)) + ": " + c.secrets.String(hideURL(err, url))}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		msg := fmt.Sprintf("HTTP %d: %s", resp.StatusCode, snippet(c.secrets, data))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return retryAfter(resp.Header.Get("Retry-After")), &retryable{msg}
		}
		if resp.StatusCode >= 400 && resp.StatusCode != http.StatusRequestTimeout {
			return 0, &RefusedError{Status: resp.StatusCode, msg: msg}
		}
		return 0, errors.New(msg)
	}
	if err := read(resp.Body); err != nil {
		if ctx.Err() != nil {
			return 0, &retryable{"reading the reply: " + c.secrets.String(err.Error())}
		}
		return 0, err
	}
	return 0, nil
}

// sameOrigin says raw is on the base URL's scheme, host and port: where the key may go.
func (b *Batcher) sameOrigin(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == b.base.Scheme && u.Host == b.base.Host
}

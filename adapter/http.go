package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// Limits of the HTTP adapter.
const (
	maxBody        = 64 << 20 // the largest response body read
	maxPrediction  = 64 << 10 // the part of a non-JSON body kept as the prediction
	maxErrorBody   = 64 << 10 // the part of an error response read (and so drained)
	maxIdlePerHost = 256      // idle connections kept per host: well above any sane concurrency
)

// errBindingTimeout is the cause of a request's context when the binding's timeout ends it,
// to tell it from the end of the run.
var errBindingTimeout = errors.New("the binding's timeout passed")

// httpShared is a binding's HTTP client, made on first use and shared by all its adapters,
// so that every worker draws on one pool of kept-alive connections.
type httpShared struct {
	once   sync.Once
	client *http.Client
}

// httpFactory makes HTTP adapters for b. They hold no connection of their own, so making
// one cannot fail.
func (b *binding) httpFactory() engine.Factory {
	b.http.once.Do(func() { b.http.client = newHTTPClient() })
	client := b.http.client
	return func() (engine.Adapter, error) {
		return &httpAdapter{b: b, client: client}, nil
	}
}

// newHTTPClient has http.DefaultTransport's settings but for two: room for many idle
// connections per host (the default keeps 2, so 64 workers against one endpoint would dial
// anew for most requests) and a shorter idle timeout. The timeout is per request, from the
// binding, not the client's.
func newHTTPClient() *http.Client {
	return &http.Client{CheckRedirect: noRedirects, Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: maxIdlePerHost,
		// Below the 5s keep-alive of Node and uvicorn servers, so that the client drops an
		// idle connection before the server does, not while a request is on its way.
		IdleConnTimeout:       4 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}}
}

// httpAdapter posts each input object as JSON and takes a 2xx response's JSON body as the
// output.
type httpAdapter struct {
	b      *binding
	client *http.Client
}

// Invoke posts one example's input. Non-2xx answers and unreachable endpoints are
// provider_error, a body that is not JSON is invalid_output with the body as prediction.
// The tokens of the binding's URL are masked in all of it, before any part is cut.
func (a *httpAdapter) Invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	out, err := a.invoke(ctx, index, input)
	return maskResult(a.b.secrets, out, err)
}

func (a *httpAdapter) invoke(ctx context.Context, index int, input map[string]any) (any, error) {
	var body bytes.Buffer // not reused: the transport may still read it after Do returns
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(input); err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "cannot encode the input as JSON: %v", err)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, a.b.timeout, errBindingTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.b.url, &body)
	if err != nil {
		return nil, engine.ExecutionError(diag.AdapterError, "cannot make the request: %v", unwrapURL(err))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, a.failed(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		if text := clip(bytes.TrimSpace(a.b.secrets.JSONBody(data)), 200); text != "" {
			return nil, engine.ExecutionError(diag.ProviderError, "HTTP %s: %s", resp.Status, text)
		}
		return nil, engine.ExecutionError(diag.ProviderError, "HTTP %s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, a.failed(ctx, err)
	}
	if len(data) > maxBody {
		return nil, engine.ExecutionError(diag.AdapterError, "the response is larger than %d MiB", maxBody>>20)
	}
	data = a.b.secrets.Bytes(data) // before the prediction of a body that is not JSON is cut
	out, strict, ok := decodeReply(data)
	if !ok {
		// Kept as written, where a secret may be spelt with JSON escapes that a reader
		// decodes back: masked as a provider's reply is, before it is cut.
		kept := a.b.secrets.Deep(data[:min(len(data), maxQuoted)])
		return nil, engine.InvalidOutput(clip(kept, maxPrediction), "the response is not JSON (HTTP %s, Content-Type %q, %d bytes)",
			resp.Status, resp.Header.Get("Content-Type"), len(data))
	}
	if strict != nil {
		return nil, engine.InvalidOutput(out, "the response is not strict JSON (RFC 8259): %v; the prediction shows it as encoding/json would repair it, and it is not scored", strict)
	}
	return out, nil
}

// failed accounts for a request that got no complete response.
func (a *httpAdapter) failed(ctx context.Context, err error) *engine.Failure {
	switch {
	case context.Cause(ctx) == errBindingTimeout:
		return engine.ExecutionError(diag.Timeout, "no answer within %v", a.b.timeout)
	case ctx.Err() != nil:
		return engine.ExecutionError(diag.Timeout, "the run ended before the AI-system answered (%v)", context.Cause(ctx))
	}
	return engine.ExecutionError(diag.ProviderError, "the request failed: %v", unwrapURL(err))
}

// unwrapURL drops the "Post URL:" wrapping of an error: the URL may hold a token, and the
// binding's name already says which endpoint it was.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// Close does nothing: the connections belong to the binding's shared client.
func (a *httpAdapter) Close() error { return nil }

// noRedirects keeps a POST a POST: a redirect is answered as the non-2xx it is, a
// provider_error, instead of being followed as a GET.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

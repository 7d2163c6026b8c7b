package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// The response cache: a provider's successful reply kept under the sha256 of what was
// asked, so that a run asked again (a rerun, a replay with --cache only, another
// benchmark's identical request) does not pay twice. The client knows only this small
// interface; the run service gives it the workspace store's cache (store.Cache).

// Cache modes, as --cache and a provider's cache: give them.
const (
	CacheOff     = "off"     // the default: no lookup, nothing kept
	CacheUse     = "use"     // a reply kept is replayed; a miss is sent and its reply kept
	CacheRefresh = "refresh" // every request is sent and its reply kept over any before
	CacheOnly    = "only"    // replay only, without the network: a miss is a cache_miss
)

// CacheModes are the modes, in the order the documentation gives them.
var CacheModes = []string{CacheOff, CacheUse, CacheRefresh, CacheOnly}

// Cache keeps replies by request key (CacheKey). It must be safe for concurrent use: every
// worker of a run, and every run of a server, shares one.
type Cache interface {
	// Get returns the reply kept under key, if there is one.
	Get(key string) (reply []byte, ok bool, err error)
	// Put keeps reply under key: beside a reply already kept it is dropped, unless replace.
	Put(key string, reply []byte, replace bool) error
}

// cacheVersion starts every key's hashed text: a change to what a key covers changes it,
// so that no cache filled before answers a request it no longer matches.
const cacheVersion = "benchy response cache 1"

// CacheKey is the hex sha256 of what a request asks: the provider's kind, its base URL,
// the model and the request body exactly as sent (every byte of every artifact in it).
// Each goes in with its length, so that no two different requests hash the same text. The
// base URL is given with its credentials masked (a password, a ?key= token), as the
// system's fingerprint holds it: a rotated token is the same endpoint with the same
// answers, and no secret, not even hashed, is kept in the store; the API key, which goes
// in a header, is never part of it. Nothing else is either: not the time, not the run.
func CacheKey(kind Kind, baseURL, model string, body io.Reader, size int64) (string, error) {
	h := sha256.New()
	head := cacheVersion + "\n"
	for _, s := range []string{string(kind), baseURL, model} {
		head += strconv.Itoa(len(s)) + ":" + s + "\n"
	}
	io.WriteString(h, head+strconv.FormatInt(size, 10)+"\n")
	n, err := io.Copy(h, body)
	if err != nil {
		return "", err
	}
	if n != size {
		return "", fmt.Errorf("the request body is %d bytes, not the %d it counted", n, size)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cacheKey is the key of one request of this client's: its body read as it would be sent,
// its artifacts opened and encoded again (a file changed since fails it as a send would).
func (c *client) cacheKey(model string, body *requestBody) (string, *engine.Failure) {
	s := &sending{b: body}
	rd, err := s.reader()
	var f *engine.Failure
	if errors.As(err, &f) {
		return "", f
	}
	if err != nil {
		return "", engine.ExecutionError(diag.AdapterError, "reading the request for its cache key: %v", err)
	}
	key, err := CacheKey(c.cfg.Kind, c.cacheBase, model, rd, body.size)
	rd.Close()
	if f := s.failure(); f != nil {
		return "", f
	}
	if err != nil {
		return "", engine.ExecutionError(diag.AdapterError, "reading the request for its cache key: %v", err)
	}
	return key, nil
}

// cacheMode is the client's mode: off when it has no cache.
func (c *client) cacheMode() string {
	if c.cfg.Cache == nil || c.cfg.CacheMode == "" {
		return CacheOff
	}
	return c.cfg.CacheMode
}

// cacheable says a reply may be kept: one the protocol reads, whatever the model said in it
// (an answer that is not the output's JSON is the model's answer, and replays as the same
// invalid_output). A reply the protocol cannot read (no choices, not JSON) is a failed
// call, never kept.
func cacheable(f *engine.Failure) bool {
	return f == nil || f.Status == engine.StatusInvalidOutput
}

// checkCache checks a provider's cache settings when its factory is made.
func checkCache(cfg Config) error {
	switch cfg.CacheMode {
	case "", CacheOff:
		return nil
	case CacheUse, CacheRefresh, CacheOnly:
		if cfg.Cache == nil {
			return fmt.Errorf("provider %q: cache: %s needs the workspace's response cache (its run store, .benchy/benchy.db), and this run has none: run the benchmark inside a workspace", cfg.Name, cfg.CacheMode)
		}
		return nil
	}
	return fmt.Errorf("provider %q: unknown cache mode %q (want off, use, refresh or only)", cfg.Name, cfg.CacheMode)
}

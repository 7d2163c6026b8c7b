package workspace

import (
	"fmt"
	"sync"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// withCache gives rt's providers the response cache when the benchmark's model AI-system
// runs with one (Setup.CacheMode, else its provider's cache:), and --cache's mode in any
// case. A run in no workspace has no store to keep a cache in, and says so.
func withCache(rt *adapter.Runtime, b *ir.Benchmark, setup Setup) (*adapter.Runtime, error) {
	if b.AISystem.Type != ir.SystemModel {
		return rt, nil // only model calls are cached
	}
	mode := rt.CacheMode(b.AISystem.Provider, setup.CacheMode)
	if mode == provider.CacheOff {
		return rt.WithCache(nil, setup.CacheMode), nil
	}
	if setup.Cache == nil {
		return nil, fmt.Errorf("cache %s: the response cache is kept in a workspace's store (%s/%s), and this benchmark is in no workspace: run it inside one, or with --cache off", mode, store.Dir, store.File)
	}
	c, err := setup.Cache()
	if err != nil {
		return nil, fmt.Errorf("cache %s: cannot open the response cache: %w", mode, err)
	}
	return rt.WithCache(c, setup.CacheMode), nil
}

// StoreCache opens the response cache of the workspace ws's store when a run first asks
// for it (Setup.Cache), once however many plans ask (benchy run --systems), and closes it
// with Close. The server gives its own open store's cache instead.
type StoreCache struct {
	ws   string
	mu   sync.Mutex
	st   *store.Store
	err  error
	done bool
}

// NewStoreCache is the cache of workspace ws's store, not opened yet.
func NewStoreCache(ws string) *StoreCache { return &StoreCache{ws: ws} }

// Open opens the store, once, and returns its cache.
func (s *StoreCache) Open() (provider.Cache, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.done {
		s.st, s.err = store.Open(store.Path(s.ws))
		s.done = true
	}
	if s.err != nil {
		return nil, s.err
	}
	return s.st.Cache(), nil
}

// Close closes the store if Open opened it.
func (s *StoreCache) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st == nil {
		return nil
	}
	err := s.st.Close()
	s.st = nil
	return err
}

package store

import (
	"database/sql"
	"errors"
)

// Cache is the workspace's response cache: a model provider's successful reply by the key
// of the request that got it (provider.CacheKey: a hex sha256, which holds no secret). It
// lives in the run store's file rather than beside it, so that the CLI and the server,
// which share the store, share it too, with the store's WAL, busy timeout and single
// writer connection: no second file to lock, migrate or leave behind. Replies are stored as
// the provider sent them with the run's secrets already masked (the provider does it).
// Safe for concurrent use, within a process and across processes.
type Cache struct{ s *Store }

// Cache is the store's response cache.
func (s *Store) Cache() *Cache { return &Cache{s: s} }

// Get returns the reply stored under key, and whether there is one. It reads through the
// read-only pool, so that a replay never waits on the writer.
func (c *Cache) Get(key string) ([]byte, bool, error) {
	var reply []byte
	err := c.s.hit.QueryRow(key).Scan(&reply)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return reply, true, nil
}

// cacheGet is Get's query, prepared once: a replay asks it for every example, and preparing
// it each time took a third of its time (BenchmarkCacheReplay).
const cacheGet = `SELECT reply FROM reply_cache WHERE key = ?`

// Put stores reply under key. A key already stored keeps its reply (INSERT OR IGNORE: two
// runs that asked the same at once agree on the first answer), unless replace is set
// (--cache refresh), which writes the new one over it.
func (c *Cache) Put(key string, reply []byte, replace bool) error {
	q := `INSERT OR IGNORE INTO reply_cache (key, reply, created_at) VALUES (?, ?, ?)`
	if replace {
		q = `INSERT INTO reply_cache (key, reply, created_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET reply = excluded.reply, created_at = excluded.created_at`
	}
	if reply == nil {
		reply = []byte{} // NOT NULL: an empty reply is still a reply
	}
	_, err := c.s.w.Exec(q, key, reply, c.s.timestamp())
	return err
}

package workspace

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchy-eval/benchy/adapter"
	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/store"
)

// keyNoter is a real cache that notes every key looked up in it.
type keyNoter struct {
	provider.Cache
	mu   sync.Mutex
	keys []string
}

func (k *keyNoter) Get(key string) ([]byte, bool, error) {
	k.mu.Lock()
	k.keys = append(k.keys, key)
	k.mu.Unlock()
	return k.Cache.Get(key)
}

// BenchmarkCacheReplay replays a run of 100,000 model examples from the workspace's
// response cache (--cache only: no network) through the run service, with each result
// stored ("stored") and without a store ("results only"), and reports examples/s (the
// issue's bound: 20,000). The cache is filled in one transaction beforehand, under the
// keys a first pass looked up.
func BenchmarkCacheReplay(b *testing.B) {
	const n = 100_000
	ws := b.TempDir()
	var rows strings.Builder
	for i := range n {
		fmt.Fprintf(&rows, `{"input": {"text": "review %d"}, "expected": {"name": "n"}}`+"\n", i)
	}
	os.WriteFile(filepath.Join(ws, "data.jsonl"), []byte(rows.String()), 0o644)
	sc := NewStoreCache(ws)
	defer sc.Close()
	noter := &keyNoter{}
	prepare := func(cache func() (provider.Cache, error)) *Plan {
		p, err := Prepare(Source{Name: "b.yaml", Text: []byte(modelSystem)}, Setup{Dir: ws, Paths: engine.Paths{Workspace: ws}, CacheMode: provider.CacheOnly, Cache: cache,
			Runtime: func() (*adapter.Runtime, string, error) {
				rt, err := adapter.ParseRuntime([]byte("providers:\n  local:\n    kind: openai\n    base_url: http://127.0.0.1:1/v1\n"), ws)
				return rt, "rt.yaml", err
			}})
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	// The first pass misses every example and notes its key.
	p := prepare(func() (provider.Cache, error) {
		c, err := sc.Open()
		noter.Cache = c
		return noter, err
	})
	if end := Execute(context.Background(), p, Options{Concurrency: 8}, Record{}, Observer{}); end.Err != nil || len(noter.keys) != n {
		b.Fatalf("%v, %d keys", end.Err, len(noter.keys))
	}
	db, err := sql.Open("sqlite", store.Path(ws)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		b.Fatal(err)
	}
	reply := `{"choices":[{"message":{"role":"assistant","content":"{\"name\":\"n\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`
	tx, _ := db.Begin()
	for _, k := range noter.keys {
		if _, err := tx.Exec(`INSERT OR IGNORE INTO reply_cache (key, reply, created_at) VALUES (?, ?, '')`, k, reply); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	db.Close()

	replay := prepare(sc.Open)
	st := sc.st
	for _, c := range []struct {
		name  string
		store bool
	}{{"results only", false}, {"stored", true}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				rec := Record{}
				if c.store {
					run, err := st.CreateRun(replay.Spec("b.yaml", store.Options{}))
					if err != nil || st.MarkRunning(run.ID, 0) != nil {
						b.Fatal(err)
					}
					rec = Record{Store: st, ID: run.ID}
				}
				start := time.Now()
				end := Execute(context.Background(), replay, Options{Concurrency: 8}, rec, Observer{})
				if end.Err != nil || end.Report.Cache == nil || end.Report.Cache.Hits != n || end.Report.Summary.Valid != n {
					b.Fatalf("%v %+v", end.Err, end.Report.Cache)
				}
				b.ReportMetric(float64(n)/time.Since(start).Seconds(), "examples/s")
			}
		})
	}
}

package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// BenchmarkCache times one example through a response cache of the workspace store: hit
// (render, key, lookup, read the reply; the bound is 100 µs) and put (a miss's
// reply kept, one write transaction of the store).
func BenchmarkCache(b *testing.B) {
	task := Task{
		System: ir.AISystem{Model: "gpt-test", Parameters: map[string]any{"temperature": 0.0}},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "question", Type: ir.TypeString}, {Name: "context", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "answer", Type: ir.TypeString}, {Name: "confidence", Type: ir.TypeFloat}}},
		Prompt: "You answer questions about the context. Reply with JSON only.",
	}
	input := map[string]any{"question": "Is the invoice paid?", "context": strings.Repeat("The invoice INV-2024-001 was issued on 1 March and paid on 15 March. ", 8)}
	reply := []byte(oaCompletion(`{"answer":"yes, on 15 March","confidence":0.93}`, "stop"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(reply) }))
	defer srv.Close()
	cache := testCache(b)
	perOp := func(b *testing.B) { b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/op") }

	b.Run("hit", func(b *testing.B) {
		a, _ := oaAdapter(b, Config{BaseURL: srv.URL + "/v1", CacheMode: CacheUse, Cache: cache}, task)
		if _, err := a.Invoke(context.Background(), 0, input); err != nil { // kept
			b.Fatal(err)
		}
		only, _ := oaAdapter(b, Config{BaseURL: srv.URL + "/v1", CacheMode: CacheOnly, Cache: cache}, task)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := only.Invoke(context.Background(), 0, input); err != nil {
				b.Fatal(err)
			}
		}
		perOp(b)
	})
	b.Run("put", func(b *testing.B) {
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			i++
			if err := cache.Put(fmt.Sprintf("key-%d", i), reply, false); err != nil {
				b.Fatal(err)
			}
		}
		perOp(b)
	})
}

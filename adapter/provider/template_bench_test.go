package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/ir"
)

// BenchmarkOpenAITemplateOverhead is BenchmarkOpenAIOverhead's call with a template: a
// system part with a placeholder and a user part placing both fields. "adapter" is the
// adapter's own work per call (render, body, reply), without the network; the target is
// at most 50 µs.
func BenchmarkOpenAITemplateOverhead(b *testing.B) {
	task := Task{
		System: ir.AISystem{Model: "gpt-test", Parameters: map[string]any{"temperature": 0.0, "max_tokens": 256.0}},
		Input: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
			{Name: "question", Type: ir.TypeString},
			{Name: "context", Type: ir.TypeString},
		}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
			{Name: "answer", Type: ir.TypeString},
			{Name: "confidence", Type: ir.TypeFloat},
			{Name: "label", Type: ir.TypeEnum, Values: []string{"yes", "no", "unknown"}},
			{Name: "date", Type: ir.TypeDate},
		}},
		Prompt: "You answer questions about the context. Reply with JSON only.\nThe question: {{question}}\n" +
			"---user---\nContext:\n{{context}}\n\nQuestion: {{question}}\nAnswer with {{{{\"answer\": ...}}.\n",
	}
	input := map[string]any{
		"question": "Is the invoice paid?",
		"context":  strings.Repeat("The invoice INV-2024-001 was issued on 1 March and paid on 15 March. ", 8),
	}
	reply := []byte(oaCompletion(`{"answer":"yes, on 15 March","confidence":0.93,"label":"yes","date":"2024-03-15"}`, "stop"))
	perOp := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/op")
	}

	b.Run("call", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for buf := make([]byte, 4096); ; {
				if _, err := r.Body.Read(buf); err != nil {
					break
				}
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(reply)
		}))
		defer srv.Close()
		a, _ := oaAdapter(b, Config{BaseURL: srv.URL + "/v1"}, task)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.Invoke(context.Background(), 0, input); err != nil {
				b.Fatal(err)
			}
		}
		perOp(b)
	})

	b.Run("adapter", func(b *testing.B) {
		a, _ := oaAdapter(b, Config{BaseURL: "http://127.0.0.1:9/v1"}, task)
		b.ReportAllocs()
		for b.Loop() {
			t, parts, err := a.render(input)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := a.w.body(t, ModeJSONSchema, parts); err != nil {
				b.Fatal(err)
			}
			if _, _, f := a.w.reply(reply, ModeJSONSchema); f != nil {
				b.Fatal(f)
			}
		}
		perOp(b)
	})
}

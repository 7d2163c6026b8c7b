package provider

import (
	"testing"
	"time"

	"github.com/benchy-eval/benchy/ir"
)

// BenchmarkOpenAIPath times what the adapter does for each example of
// bench/throughput/run.sh's benchmark besides the call itself: render the input, build the
// body, record the request (done for every example: the engine keeps the first 20) and read
// the reply. It is the adapter's share of the whole-run throughput target.
func BenchmarkOpenAIPath(b *testing.B) {
	task := Task{
		System: ir.AISystem{Model: "stub-model", Parameters: map[string]any{"temperature": 0.0}},
		Input:  ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "text", Type: ir.TypeString}}},
		Output: ir.Field{Type: ir.TypeObject, Fields: []ir.Field{{Name: "sentiment", Type: ir.TypeEnum, Values: []string{"positive", "neutral", "negative"}}}},
		Prompt: "You classify the sentiment of one customer-support ticket.\n\nThe user message gives the ticket as a line `text: ...`. Answer with the sentiment the\ncustomer expresses towards the company, its products or its service:\n\n- positive: satisfied, pleased or thankful;\n- negative: unhappy, frustrated or complaining, including sarcasm and complaints stated\n  without angry words;\n- neutral: a question, a request or a statement of fact, with no feeling either way.\n\nAnswer with a JSON object and nothing else.\n",
	}
	input := map[string]any{"text": "Ticket 17 about order 134623: the parcel was delivered to the wrong address and I would like to know what happens next [neutral]."}
	reply := []byte(oaCompletion(`{"sentiment": "neutral"}`, "stop"))
	a, _ := oaAdapter(b, Config{BaseURL: "http://127.0.0.1:9/v1"}, task)
	step := func(b *testing.B, what string) {
		b.ReportAllocs()
		for b.Loop() {
			t, parts, err := a.render(input)
			if err != nil {
				b.Fatal(err)
			}
			if what == "render" {
				continue
			}
			if what == "body-unframed" { // the body as it was built before frames
				if _, err := unframedBody(t, ModeJSONSchema, parts); err != nil {
					b.Fatal(err)
				}
				continue
			}
			body, err := a.w.body(t, ModeJSONSchema, parts)
			if err != nil {
				b.Fatal(err)
			}
			if what == "body" {
				continue
			}
			body.record(a.line, a.c.secrets)
			if what == "record" {
				continue
			}
			if _, err := a.answer(a.c.secrets.Bytes(reply), "", time.Now(), nil, ""); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, what := range []string{"render", "body-unframed", "body", "record", "all"} {
		b.Run(what, func(b *testing.B) { step(b, what) })
	}
}

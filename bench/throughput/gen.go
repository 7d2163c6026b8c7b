package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// benchmarkYAML is the benchmark both clients run: the model example's shape (one text
// input, one enum output, a system prompt, temperature 0) against the runtime file's stub.
const benchmarkYAML = `version: "1.0"
ontology_version: "1.0"
benchmark:
  task: classify
  domain: customer_support
  language: en
program:
  input:
    text: string
  output:
    sentiment:
      enum: [positive, neutral, negative]
scoring:
  weights:
    sentiment: 1
  aggregator: weighted_mean
data:
  path: ./data.jsonl
ai-system:
  type: model
  provider: stub
  model: stub-model
  prompt: ./prompt.md
  parameters:
    temperature: 0
`

// promptText is the system message: as long as the model example's, with none of the
// bracketed labels the stub looks for.
const promptText = `You classify the sentiment of one customer-support ticket.

The user message gives the ticket as a line ` + "`text: ...`" + `. Answer with the sentiment the
customer expresses towards the company, its products or its service:

- positive: satisfied, pleased or thankful;
- negative: unhappy, frustrated or complaining, including sarcasm and complaints stated
  without angry words;
- neutral: a question, a request or a statement of fact, with no feeling either way.

Answer with a JSON object and nothing else.
`

var sentiments = []string{"positive", "neutral", "negative"}

// gen writes the benchmark folder: the benchmark, its prompt and n examples, deterministic.
func gen(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "benchmark.yaml"), []byte(benchmarkYAML), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "prompt.md"), []byte(promptText), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "data.jsonl"))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := range n {
		s := sentiments[i%3]
		text := fmt.Sprintf("Ticket %d about order %06d: the parcel was delivered to the wrong address and I would like to know what happens next [%s].", i, (i*7919)%1000000, s)
		if err := enc.Encode(map[string]any{"input": map[string]any{"text": text}, "expected": map[string]any{"sentiment": s}}); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

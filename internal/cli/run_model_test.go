package cli_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRunModelEndToEnd runs a classify benchmark with ai-system {type: model, provider:
// local} against a local OpenAI-compatible server, as a newcomer would point Benchy at vLLM
// or Ollama: the prompt file is the system message, the output schema goes as strict
// structured output, and tokens are recorded per example and in total.
func TestRunModelEndToEnd(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
			ResponseFormat struct {
				Type       string `json:"type"`
				JSONSchema struct {
					Strict bool `json:"strict"`
				} `json:"json_schema"`
			} `json:"response_format"`
			Temperature *float64 `json:"temperature"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil || req.Model != "tiny" ||
			req.ResponseFormat.Type != "json_schema" || !req.ResponseFormat.JSONSchema.Strict || req.Temperature == nil ||
			len(req.Messages) != 2 || !strings.Contains(fmt.Sprint(req.Messages[0].Content), "Classify the sentiment") {
			http.Error(w, "unexpected request: "+string(body), http.StatusBadRequest)
			return
		}
		label := "negative"
		if strings.Contains(fmt.Sprint(req.Messages[1].Content), "love") {
			label = "positive"
		}
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":"{\"sentiment\":\"%s\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`, label)
	}))
	defer srv.Close()

	dir := t.TempDir()
	write := func(name, text string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("benchmark.yaml", sentimentModel)
	write("prompts/sentiment.md", "Classify the sentiment of the review.\n")
	write("data/reviews.jsonl", `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Broken on arrival"}, "expected": {"sentiment": "negative"}}
{"input": {"text": "I love how it broke"}, "expected": {"sentiment": "negative"}}
`)
	write("benchy.runtime.yaml", "providers:\n  local:\n    kind: openai\n    base_url: "+srv.URL+"/v1\n")
	out := filepath.Join(dir, "results.json")
	code, _, stderr := runBenchy(t, "run", "-o", out, filepath.Join(dir, "benchmark.yaml"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	data, _ := os.ReadFile(out)
	var doc struct {
		Score   float64 `json:"benchmark_score"`
		Binding string  `json:"binding"`
		Usage   struct {
			Examples     int `json:"examples"`
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
		Results []struct {
			Status string `json:"status"`
			Usage  *struct {
				InputTokens int `json:"input_tokens"`
			} `json:"usage"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Binding != "local" || doc.Score < 0.66 || doc.Score > 0.67 || requests.Load() != 3 {
		t.Errorf("binding %q score %v after %d requests\n%s", doc.Binding, doc.Score, requests.Load(), stderr)
	}
	if doc.Usage.Examples != 3 || doc.Usage.InputTokens != 36 || doc.Usage.OutputTokens != 12 {
		t.Errorf("usage totals %+v", doc.Usage)
	}
	for i, r := range doc.Results {
		if r.Status != "valid" || r.Usage == nil || r.Usage.InputTokens != 12 {
			t.Errorf("example %d: %+v", i, r)
		}
	}
}

// sentimentModel is a benchmark of a model AI-system with a prompt file and a parameter,
// on data/reviews.jsonl, for the model runs' tests.
const sentimentModel = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: classify, domain: customer_support, language: en}
program:
  input: {text: string}
  output:
    sentiment:
      enum: [positive, negative]
scoring:
  weights: {sentiment: 1}
  aggregator: weighted_mean
data: {path: data/reviews.jsonl}
ai-system:
  type: model
  provider: local
  model: tiny
  prompt: prompts/sentiment.md
  parameters: {temperature: 0}
`

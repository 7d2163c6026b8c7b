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

	"github.com/benchy-eval/benchy/internal/testkit"
)

// TestRunModelEndToEnd runs a classify benchmark with ai-system {type: model, provider:
// local} against a local OpenAI-compatible server, as a newcomer would point Benchy at vLLM
// or Ollama: the prompt file is the system message, the output schema goes as strict
// structured output, and tokens are recorded per example and in total.
func TestRunModelEndToEnd(t *testing.T) {
	var requests atomic.Int32
	srv := sentimentProvider(t, func(req chatRequest) (string, bool) {
		requests.Add(1)
		if req.Model != "tiny" || req.ResponseFormat.Type != "json_schema" || !req.ResponseFormat.JSONSchema.Strict || req.Temperature == nil ||
			!strings.Contains(fmt.Sprint(req.Messages[0].Content), "Classify the sentiment") {
			return "", false
		}
		if strings.Contains(fmt.Sprint(req.Messages[1].Content), "love") {
			return "positive", true
		}
		return "negative", true
	})

	dir := t.TempDir()
	testkit.WriteFiles(t, dir, map[string]string{
		"benchmark.yaml":       sentimentModel,
		"prompts/sentiment.md": "Classify the sentiment of the review.\n",
		"data/reviews.jsonl": `{"input": {"text": "I love it"}, "expected": {"sentiment": "positive"}}
{"input": {"text": "Broken on arrival"}, "expected": {"sentiment": "negative"}}
{"input": {"text": "I love how it broke"}, "expected": {"sentiment": "negative"}}
`,
		"benchy.runtime.yaml": "providers:\n  local:\n    kind: openai\n    base_url: " + srv.URL + "/v1\n",
	})
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

// chatRequest is what a test's provider reads of an OpenAI Chat Completions request.
type chatRequest struct {
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

// sentimentProvider is a loopback server speaking the OpenAI Chat Completions format for
// sentimentModel: each request of a system and a user message is answered the sentiment
// label says (12 input tokens, 4 output), or refused (400) when it says not ok.
func sentimentProvider(t *testing.T, label func(chatRequest) (sentiment string, ok bool)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req chatRequest
		if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil || len(req.Messages) != 2 {
			http.Error(w, "unexpected request: "+string(body), http.StatusBadRequest)
			return
		}
		sentiment, ok := label(req)
		if !ok {
			http.Error(w, "unexpected request: "+string(body), http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":"{\"sentiment\":\"%s\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":4}}`, sentiment)
	}))
	t.Cleanup(srv.Close)
	return srv
}

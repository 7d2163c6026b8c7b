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
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

const secretBenchmark = `version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {text: string}
  output: {label: string}
scoring:
  weights: {label: 1}
  aggregator: weighted_mean
data: {path: data/rows.jsonl}
`

// TestHardeningSecretsNeverWritten: a provider that echoes its key, in 1 KB error bodies
// (OpenAI's documented error format), in a valid answer and in a reply that is not JSON,
// and a command that echoes the credential its binding passes it, on stderr and in its
// answers, leave no six characters of either in any file of the workspace (the result
// document, the stream, the run store), in the run log or in an export.
func TestHardeningSecretsNeverWritten(t *testing.T) {
	const key, token = "sk-Zq8vN3kT1bW6yH0pL4xR9cF2", "tok-Hq2Lm5Vx9Rz3Wp7Nd4Tc6"
	t.Setenv("BENCHY_TEST_PROVIDER_KEY", key)
	t.Setenv("MY_SERVICE_TOKEN", token)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.Contains(string(body), "refuse"):
			w.WriteHeader(http.StatusUnauthorized)
			msg := strings.Repeat("x", 135) + " Incorrect API key provided: " + got + ". " + strings.Repeat("y", 800)
			fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, msg)
		case strings.Contains(string(body), "prose"):
			content, _ := json.Marshal("I cannot answer, my key is " + got)
			fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s},"finish_reason":"stop"}]}`, content)
		default:
			content, _ := json.Marshal(`{"label":"the key is ` + got + `"}`)
			fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s},"finish_reason":"stop"}]}`, content)
		}
	}))
	defer srv.Close()

	dir := t.TempDir()
	rows := `{"input": {"text": "answer"}, "expected": {"label": "x"}}
{"input": {"text": "refuse"}, "expected": {"label": "x"}}
{"input": {"text": "prose"}, "expected": {"label": "x"}}
`
	echoer := `while read -r line; do
  id=$(printf '%s' "$line" | sed 's/^{"id":\([0-9]*\).*/\1/')
  echo "using $MY_SERVICE_TOKEN for request $id" >&2
  case "$line" in
    *refuse*) printf '{"id":%s,"error":"denied for %s"}\n' "$id" "$MY_SERVICE_TOKEN" ;;
    *) printf '{"id":%s,"output":{"label":"the token is %s"}}\n' "$id" "$MY_SERVICE_TOKEN" ;;
  esac
done`
	runtime := fmt.Sprintf("bindings:\n  echoer:\n    command: [sh, -c, %q]\n    env: [MY_SERVICE_TOKEN]\n"+
		"providers:\n  p:\n    kind: openai\n    base_url: %s/v1\n    api_key_env: BENCHY_TEST_PROVIDER_KEY\n    max_retries: 0\n", echoer, srv.URL)
	testkit.WriteFiles(t, dir, map[string]string{
		"model/benchmark.yaml":    secretBenchmark + "ai-system: {type: model, provider: p, model: m}\n",
		"model/data/rows.jsonl":   rows,
		"command/benchmark.yaml":  secretBenchmark + "ai-system: {type: external, id: echoer}\n",
		"command/data/rows.jsonl": rows,
		"benchy.runtime.yaml":     runtime,
	})

	logs := runEach(t, dir, "model", "command")
	for _, b := range []string{"model", "command"} {
		doc, _ := os.ReadFile(filepath.Join(dir, b, "results.json"))
		if !strings.Contains(string(doc), "[redacted]") {
			t.Errorf("%s: nothing was masked; the adapters did not echo?\n%s", b, doc)
		}
	}
	if !strings.Contains(logs, "using [redacted] for request") {
		t.Errorf("the command's stderr is not in the log, masked:\n%s", logs)
	}
	exports := exportAll(t, dir)
	if strings.Count(exports, "the key is [redacted]") < 2 || strings.Count(exports, "the token is [redacted]") < 2 {
		t.Errorf("the exports have no masked value:\n%.500s", exports)
	}
	for what, text := range map[string]string{"the run log": logs, "the exports": exports} {
		for _, s := range []string{key, token} {
			if p := testkit.Leak(text, s); p != "" {
				t.Errorf("%s keep %q", what, p)
			}
		}
	}
	eachFile(t, dir, func(path, data string) {
		for _, s := range []string{key, token} {
			if p := testkit.Leak(data, s); p != "" {
				t.Errorf("%s keeps %q", path, p)
			}
		}
	})
}

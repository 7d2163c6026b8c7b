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

// TestHardeningProviderCredentialsNeverWritten: a provider whose base_url carries user
// information and a query token (http://user:PROVPASS4242@host/v1?key=PROVQUERYKEY777),
// against a loopback server that echoes the URL and credentials it was sent (in an error
// body and in a valid answer) and the key with its characters \u-escaped (in OpenAI's
// documented error format), and against an unreachable one (127.0.0.1:1), leaves no six
// characters of the password, the token or the key, nor the URL, in any file of the
// workspace (the result documents, the streams, the run store), in the run log or in an
// export. The server is asked for /v1/chat/completions?key=..., the query last.
func TestHardeningProviderCredentialsNeverWritten(t *testing.T) {
	const key, password, token = "sk-Zq8vN3kT1bW6yH0pL4xR9cF2", "PROVPASS4242", "PROVQUERYKEY777"
	t.Setenv("BENCHY_TEST_PROVIDER_KEY", key)
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.RequestURI())
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		body, _ := io.ReadAll(r.Body)
		echo := fmt.Sprintf("you asked for %s with the key %s", r.URL.RequestURI(), got)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.Contains(string(body), "escaped"):
			var esc strings.Builder
			for _, c := range got {
				fmt.Fprintf(&esc, `\u%04x`, c)
			}
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, esc.String())
		case strings.Contains(string(body), "refuse"):
			msg, _ := json.Marshal(echo)
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, `{"error":{"message":%s,"type":"invalid_request_error","param":null,"code":null}}`, msg)
		default:
			content, _ := json.Marshal(map[string]string{"label": echo})
			text, _ := json.Marshal(string(content))
			fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s},"finish_reason":"stop"}]}`, text)
		}
	}))
	defer srv.Close()

	dir := t.TempDir()
	rows := `{"input": {"text": "answer"}, "expected": {"label": "x"}}
{"input": {"text": "refuse"}, "expected": {"label": "x"}}
{"input": {"text": "escaped"}, "expected": {"label": "x"}}
`
	withCredentials := func(base string) string {
		return strings.Replace(base, "http://", "http://user:"+password+"@", 1) + "/v1?key=" + token
	}
	testkit.WriteFiles(t, dir, map[string]string{
		"echo/benchmark.yaml":         secretBenchmark + "ai-system: {type: model, provider: echo, model: m}\n",
		"echo/data/rows.jsonl":        rows,
		"unreachable/benchmark.yaml":  secretBenchmark + "ai-system: {type: model, provider: unreachable, model: m}\n",
		"unreachable/data/rows.jsonl": rows,
		"benchy.runtime.yaml": fmt.Sprintf("providers:\n"+
			"  echo: {kind: openai, base_url: %q, api_key_env: BENCHY_TEST_PROVIDER_KEY, max_retries: 0}\n"+
			"  unreachable: {kind: openai, base_url: %q, api_key_env: BENCHY_TEST_PROVIDER_KEY, max_retries: 0}\n",
			withCredentials(srv.URL), withCredentials("http://127.0.0.1:1")),
	})

	logs := runEach(t, dir, "echo")
	// Every example of the unreachable provider fails: the run says so and exits 3.
	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, "unreachable", "results.json"), filepath.Join(dir, "unreachable", "benchmark.yaml"))
	if code != 3 || !strings.Contains(stderr, "was never reached") {
		t.Errorf("unreachable: exit %d, want 3 saying the system was never reached\n%s", code, stderr)
	}
	logs += stderr
	echoed, _ := os.ReadFile(filepath.Join(dir, "echo", "results.json"))
	if strings.Count(string(echoed), "[redacted]") < 4 {
		t.Errorf("the echoes were not masked, or not made:\n%s", echoed)
	}
	unreachable, _ := os.ReadFile(filepath.Join(dir, "unreachable", "results.json"))
	if strings.Count(string(unreachable), "cannot reach http://127.0.0.1:1: dial tcp 127.0.0.1:1") != 3 {
		t.Errorf("the unreachable provider's failures:\n%s", unreachable)
	}
	for _, p := range paths {
		if want := "/v1/chat/completions?key=" + token; p != want {
			t.Errorf("the provider was asked for %s, want %s", p, want)
		}
	}
	exports := exportAll(t, dir)
	if strings.Count(exports, "cannot reach http://127.0.0.1:1: ") < 3 || strings.Count(exports, "[redacted]") < 4 {
		t.Errorf("the exports lack the runs:\n%.800s", exports)
	}
	leak := func(text string) string {
		// A JSON reader of the text sees its \u escapes spelt out.
		text = strings.NewReplacer(`\u0026`, "&", `\u003c`, "<", `\u003e`, ">").Replace(text)
		var spelt strings.Builder
		for i := 0; i < len(text); i++ {
			var r rune
			if i+6 <= len(text) && text[i:i+2] == `\u` {
				if _, err := fmt.Sscanf(text[i+2:i+6], "%04x", &r); err == nil {
					spelt.WriteRune(r)
					i += 5
					continue
				}
			}
			spelt.WriteByte(text[i])
		}
		for _, s := range []string{key, password, token} {
			if p := testkit.Leak(spelt.String(), s); p != "" {
				return p
			}
		}
		// A failure to reach the provider names its origin (scheme, host, port: what to
		// check), never its user information, path or query.
		for _, s := range []string{"user:", "@127.0.0.1", "127.0.0.1:1/"} {
			if strings.Contains(spelt.String(), s) {
				return s
			}
		}
		return ""
	}
	for what, text := range map[string]string{"the run log": logs, "the exports": exports} {
		if p := leak(text); p != "" {
			t.Errorf("%s keep %q", what, p)
		}
	}
	eachFile(t, dir, func(path, data string) {
		if filepath.Base(path) == "benchy.runtime.yaml" {
			return
		}
		if p := leak(data); p != "" {
			t.Errorf("%s keeps %q", path, p)
		}
	})
}

package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/testkit"
)

// bindEcho binds "echo" to the echo program with the runtime file's extra binding lines.
func bindEcho(t *testing.T, extra string, log io.Writer) engine.Adapter {
	t.Helper()
	src := fmt.Sprintf("bindings:\n  echo:\n    command: [%q]\n    timeout: 5s\n%s", echoBin, extra)
	return started(t, bindFactory(t, src, t.TempDir(), "echo", log))
}

// TestHardeningMinimalEnvironment: a command gets PATH, HOME, LANG, LC_ALL, LC_CTYPE and
// TMPDIR, and the variables its binding lists under env that are set, and nothing else of
// benchy's environment: not BENCHY_TOKEN, not a provider's key.
func TestHardeningMinimalEnvironment(t *testing.T) {
	t.Setenv("BENCHY_TOKEN", "server-token-0123456789")
	t.Setenv("OPENAI_API_KEY", "sk-not-for-adapters-0123456789")
	t.Setenv("HF_HOME", "/tmp/hf")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("TMPDIR", t.TempDir())
	os.Unsetenv("BENCHY_UNSET_FOR_TEST")
	a := bindEcho(t, "    env: [HF_HOME, BENCHY_UNSET_FOR_TEST]\n", nil)
	out, err := a.Invoke(context.Background(), 0, map[string]any{"action": "env"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, kv := range out.(map[string]any)["env"].([]any) {
		name, _, _ := strings.Cut(kv.(string), "=")
		names = append(names, name)
	}
	slices.Sort(names)
	var want []string
	for _, n := range append(slices.Clone(baseEnv), "HF_HOME") {
		if _, ok := os.LookupEnv(n); ok {
			want = append(want, n)
		}
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("the command's environment has %v, want exactly %v", names, want)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestHardeningCommandSecretsMasked: the value of a credential a command binding passes
// (env: [MY_API_KEY]) appears nowhere the engine writes: not in the outputs (values and
// keys), not in the failures (an error message, a non-JSON answer cut at 200 bytes), not
// in the run log (a stderr line, and one that crosses the 64 KB read buffer).
func TestHardeningCommandSecretsMasked(t *testing.T) {
	const secret = "sk-Zq8vN3kT1bW6yH0pL4xR9cF2"
	t.Setenv("MY_API_KEY", secret)
	var log testkit.Buffer
	a := bindEcho(t, "    env: [MY_API_KEY]\n", &log)
	in := func(action string) map[string]any { return map[string]any{"action": action, "name": "MY_API_KEY"} }
	out, err := a.Invoke(context.Background(), 0, in("leak"))
	if err != nil {
		t.Fatal(err)
	}
	if p := testkit.Leak(jsonText(out), secret); p != "" || !strings.Contains(jsonText(out), "the key is [redacted]") {
		t.Errorf("output %s keeps %q", jsonText(out), p)
	}
	for i, action := range []string{"leakerror", "leakgarbage"} {
		_, err := a.Invoke(context.Background(), 1+i, in(action))
		f := failureOf(t, err)
		if p := testkit.Leak(f.Message+jsonText(f.Prediction), secret); p != "" {
			t.Errorf("%s: the failure keeps %q: %.300s", action, p, f.Message)
		}
	}
	a.Close()
	if p := testkit.Leak(log.String(), secret); p != "" || !strings.Contains(log.String(), "using key [redacted]") {
		t.Errorf("the run log keeps %q of the key:\n%.400s", p, log.String()[max(0, len(log.String())-400):])
	}
}

// TestHardeningCommandURLSecretsMasked: a variable whose name does not say credential but
// whose value is a URL with one (env: [DATABASE_URL], postgres://bob:PASSWORD@db/x) has
// that password masked in the outputs and the run log; the old code masked only values of
// credential-named variables.
func TestHardeningCommandURLSecretsMasked(t *testing.T) {
	const secret = "s3cr3tpwQv7Lx"
	t.Setenv("DATABASE_URL", "postgres://bob:"+secret+"@db/x")
	var log testkit.Buffer
	a := bindEcho(t, "    env: [DATABASE_URL]\n", &log)
	out, err := a.Invoke(context.Background(), 0, map[string]any{"action": "leak", "name": "DATABASE_URL"})
	if err != nil {
		t.Fatal(err)
	}
	if p := testkit.Leak(jsonText(out), secret); p != "" || !strings.Contains(jsonText(out), "postgres://bob:[redacted]@db/x") {
		t.Errorf("output %s keeps %q", jsonText(out), p)
	}
	a.Close()
	if p := testkit.Leak(log.String(), secret); p != "" || !strings.Contains(log.String(), "using key postgres://bob:[redacted]@db/x") {
		t.Errorf("the run log keeps %q of the password:\n%.400s", p, log.String()[max(0, len(log.String())-400):])
	}
}

// TestHardeningHTTPTokenMasked: a token in an http binding's URL (?token=, ?key=) that
// the endpoint echoes, in a 1 KB error body, in a valid answer or in a body that is not
// JSON, is masked before anything is cut.
func TestHardeningHTTPTokenMasked(t *testing.T) {
	const token, key = "tok-8Hq2Lm5Vx9Rz3Wp7", "key-Nd4Tc6Yb1Jf0Gs"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		echo := q.Get("token") + " " + q.Get("key") + " " + q.Get("format")
		var in map[string]any
		json.NewDecoder(r.Body).Decode(&in)
		switch in["action"] {
		case "error":
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"%s bad credentials %s%s"}}`, strings.Repeat("x", 130), echo, strings.Repeat("y", 800))
		case "escaped": // the token echoed with every character \u-escaped
			var esc strings.Builder
			for _, c := range q.Get("token") {
				fmt.Fprintf(&esc, `\u%04x`, c)
			}
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"bad token %s"}}`, esc.String())
		case "text":
			fmt.Fprintf(w, "%s %s %s", strings.Repeat("t", 190), echo, strings.Repeat("u", 800))
		default:
			json.NewEncoder(w).Encode(map[string]any{"text": "echo " + echo})
		}
	}))
	defer srv.Close()
	a := started(t, bindFactory(t, fmt.Sprintf("bindings:\n  h:\n    http: '%s/x?token=%s&key=%s&format=json'\n", srv.URL, token, key), t.TempDir(), "h", nil))
	for i, action := range []string{"ok", "error", "text", "escaped"} {
		out, err := a.Invoke(context.Background(), i, map[string]any{"action": action})
		text := jsonText(out)
		if err != nil {
			fl := failureOf(t, err)
			text = fl.Message + jsonText(fl.Prediction)
		}
		for _, s := range []string{token, key} {
			if p := testkit.Leak(text, s); p != "" {
				t.Errorf("%s: keeps %q: %.300s", action, p, text)
			}
		}
		if !strings.Contains(text, "[redacted]") {
			t.Errorf("%s: nothing masked: %.300s", action, text)
		}
		if action == "ok" && !strings.Contains(text, "json") {
			t.Errorf("a query value that is not a credential (format=json) was masked: %s", text)
		}
	}
}

package adapter

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

// escapes are \u escapes behind any number of backslashes: a character spelt in a JSON
// string, in a JSON text inside one, or quoted again by a message's %q.
var escapes = regexp.MustCompile(`\\+u([0-9a-fA-F]{4})`)

// unescaped is s with every \u escape, at any depth, spelt out: what a reader of a
// message could decode back.
func unescaped(s string) string {
	return escapes.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[len(m)-4:], 16, 32)
		return string(rune(n))
	})
}

// TestCommandMalformedLineMasksEscapedSecret: a command binding given a credential through
// env that prints a line that is no JSON answer, with the credential spelt in \u escapes
// (once, or twice as a JSON text inside a string is), has that line quoted in its failure
// masked as a provider's reply is (Secrets.Deep): neither the message nor the prediction,
// which the engine stores and the API serves, nor the run log, which has the line it
// wrote to stderr, lets 6 bytes of the key be decoded back.
func TestCommandMalformedLineMasksEscapedSecret(t *testing.T) {
	const secret = "sk-Zq8vN3kT1bW6yH0pL4xR9cF2"
	t.Setenv("MY_API_KEY", secret)
	var log testkit.Buffer
	a := bindEcho(t, "    env: [MY_API_KEY]\n", &log)
	for i, depth := range []int{1, 2} {
		_, err := a.Invoke(context.Background(), i, map[string]any{"action": "leakescaped", "name": "MY_API_KEY", "n": depth})
		f := failureOf(t, err)
		text := f.Message + jsonText(f.Prediction)
		if p := testkit.Leak(unescaped(text), secret); p != "" || !strings.Contains(text, "[redacted]") {
			t.Errorf("escaped %d times: the failure keeps %q of the key: %.300s", depth, p, f.Message)
		}
	}
	a.Close() // its stderr read to the end
	if p := testkit.Leak(unescaped(log.String()), secret); p != "" || !strings.Contains(log.String(), "warning: key [redacted]") {
		t.Errorf("the run log keeps %q of the key spelt in escapes:\n%.400s", p, log.String())
	}
}

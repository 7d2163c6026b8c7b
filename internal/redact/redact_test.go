package redact

import (
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/internal/testkit"
)

const key = "sk-proj-Zq8vN3kT1bW6yH0pL4xR9cF2"

func TestString(t *testing.T) {
	s := New(key, "ab", "")
	for _, c := range []struct{ name, in string }{
		{"whole", "Incorrect API key provided: " + key + "."},
		{"twice, adjacent", key + key},
		{"masked in part", "Incorrect API key provided: " + key[:12] + "****************" + key[len(key)-8:]},
		{"wrapped", key[:16] + "\n" + key[16:]},
		{"JSON with escaped slashes", `{"key":"` + strings.ReplaceAll(key, "-", `-`) + `"}`},
		{"URL-escaped", "GET /x?key=" + key},
		{"in a multibyte text", "é" + key + "€"},
	} {
		got := s.String(c.in)
		if l := testkit.Leak(got, key); l != "" {
			t.Errorf("%s: %q keeps %q", c.name, got, l)
		}
		if !strings.Contains(got, Mask) {
			t.Errorf("%s: %q has no mask", c.name, got)
		}
	}
	if got := s.String("a plain answer about abc"); got != "a plain answer about abc" {
		t.Errorf("a text without the key changed: %q (secrets under %d bytes are not secrets)", got, MinSecret)
	}
	if New("", "x") != nil {
		t.Error("New of no secret is not nil")
	}
	var none *Secrets
	if none.String(key) != key {
		t.Error("nil Secrets changed a text")
	}
}

func TestShortSecret(t *testing.T) {
	s := New("abc")
	if got := s.String("token abc, xabcx"); got != "token "+Mask+", x"+Mask+"x" {
		t.Errorf("got %q", got)
	}
}

func TestValue(t *testing.T) {
	s := New(key)
	v := s.Value(map[string]any{"a": []any{"x " + key}, key: "y", "n": 1.5})
	m := v.(map[string]any)
	if m["a"].([]any)[0] != "x "+Mask || m[Mask] != "y" || m["n"] != 1.5 || len(m) != 3 {
		t.Errorf("got %v", m)
	}
}

// TestStream writes the key split at every position and in one-byte pieces.
func TestStream(t *testing.T) {
	s := New(key)
	text := "stderr: the key is " + key + " and that is all"
	for cut := range len(text) {
		st := s.Stream()
		got := string(st.Write([]byte(text[:cut]))) + string(st.Write([]byte(text[cut:]))) + string(st.Flush())
		if want := s.String(text); got != want {
			t.Fatalf("cut at %d: %q, want %q", cut, got, want)
		}
	}
	st := s.Stream()
	var b strings.Builder
	for i := range len(text) {
		b.Write(st.Write([]byte{text[i]}))
	}
	b.Write(st.Flush())
	if l := testkit.Leak(b.String(), key); l != "" || b.String() != s.String(text) {
		t.Errorf("byte by byte: %q", b.String())
	}
}

func TestEscapedForms(t *testing.T) {
	secret := "ab/cd+ef/gh=ij"
	s := New(secret)
	for _, in := range []string{`{"k":"ab\/cd+ef\/gh=ij"}`, "?t=ab%2Fcd%2Bef%2Fgh%3Dij", `"ab/cd+ef/gh\u003dij"`} {
		if got := s.String(in); !strings.Contains(got, Mask) || strings.Contains(got, "cd+ef") || strings.Contains(got, "cd%2Bef") {
			t.Errorf("%s -> %s", in, got)
		}
	}
}

// BenchmarkBytes masks a 1 MB reply that holds the key once: the cost a provider's reply
// pays for redaction.
func BenchmarkBytes(b *testing.B) {
	s := New(key)
	text := []byte(strings.Repeat("lorem ipsum dolor sit amet, ", 1<<20/28) + key)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s.Bytes(text)
	}
}

package main

import (
	"os/exec"
	"testing"
)

// TestPipeMatchesOnce checks that the kept-alive pipeline answers as `apertium -u spa-eng`
// run once per text does, in an order where each answer could leak into the next (state
// left over after a NUL, an answer read a request late). Needs Debian's apertium and
// apertium-en-es.
func TestPipeMatchesOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs apertium once per text (about half a second each)")
	}
	for _, program := range []string{"apertium", "apertium-destxt", "apertium-retxt", "apertium-wblank-mode", "bash"} {
		if _, err := exec.LookPath(program); err != nil {
			t.Skipf("%s is not installed (apt-get install apertium apertium-en-es)", program)
		}
	}
	texts := []string{
		"Hola, ¿cómo estás?",
		"Análisis semántico (computacional)", // twice: apertium/apertium#101, state kept after a NUL
		"Análisis semántico (computacional)",
		"Me gusta leer por la noche", // no final punctuation
		"",
		"Primera línea.\n\nSegunda línea.\tCon tabulador  y espacios.",
		`a\b [c] ^d$ e/f <g> @h {k} ~l *m #n`,
		"Xyzzy frobnicar 25,50 € 😀...",
		"Hola, ¿cómo estás?",
	}
	tr := &translator{}
	defer tr.close()
	for _, text := range texts {
		in := map[string]any{"text": text}
		want, err := translateOnce(in)
		if err != nil {
			t.Fatalf("apertium -u spa-eng on %q: %v", text, err)
		}
		got, err := tr.translate(in)
		if err != nil {
			t.Fatalf("pipeline on %q: %v", text, err)
		}
		if got["translation"] != want["translation"] {
			t.Errorf("%q: pipeline %q, apertium -u spa-eng %q", text, got["translation"], want["translation"])
		}
	}
	if _, err := tr.translate(map[string]any{"text": "a\x00b"}); err == nil {
		t.Errorf("a text with a NUL byte was sent")
	}
}

package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuntimeText: a runtime file under another name is told whatever its length and
// wherever its first lines fall against the 512 bytes a medium is told by (a character
// cut there, text longer than them); a medium is told by its first bytes alone.
func TestRuntimeText(t *testing.T) {
	runtime := "providers:\n  p: {kind: openai, base_url: \"https://llm.example/v1\"}\n"
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"runtime file", runtime, true},
		{"runtime file, a character across byte 512", runtime + "# " + strings.Repeat("a", 512-len(runtime)-3) + "é…\n", true},
		{"runtime file, long", runtime + strings.Repeat("# a comment line\n", 4000), true},
		{"prose", "Notes on the invoices.\n", false},
		{"png", "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00\xff", 2000), false},
		{"wav", "RIFF\x24\x08\x00\x00WAVEfmt " + strings.Repeat("\x10\x00\x01\x80", 2000), false},
	} {
		p := filepath.Join(t.TempDir(), "f")
		os.WriteFile(p, []byte(c.text), 0o644)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := runtimeText(f); got != c.want {
			t.Errorf("%s: runtimeText = %v, want %v", c.name, got, c.want)
		}
		f.Close()
	}
}

// BenchmarkRuntimeText: the check of one audio file, as each range request makes it.
func BenchmarkRuntimeText(b *testing.B) {
	p := filepath.Join(b.TempDir(), "s.wav")
	os.WriteFile(p, []byte("RIFF\x24\x08\x00\x00WAVEfmt "+strings.Repeat("\x10\x00\x01\x80", 1<<20)), 0o644)
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ReportAllocs()
	for b.Loop() {
		if runtimeText(f) {
			b.Fatal("a wav told as a runtime file")
		}
	}
}

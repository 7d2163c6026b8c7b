package compiler

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// FuzzCompile checks the front end's invariants on any input: it never panics; a failure
// carries at least one diagnostic, every one with a registered code and a position inside
// the input; a success recompiles to identical bytes, and fmt keeps its meaning.
func FuzzCompile(f *testing.F) {
	for _, file := range benchmarkFiles() {
		src, _ := os.ReadFile(file)
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		canonical, hash, ds := CompileCanonical(src)
		if len(ds) == 0 {
			again, hash2, ds2 := CompileCanonical(src)
			if len(ds2) > 0 || !bytes.Equal(canonical, again) || hash != hash2 {
				t.Fatalf("recompiling gives different bytes")
			}
			b, _ := Compile(src)
			raw, _ := json.Marshal(b)
			if ref, err := ir.Canonicalize(raw); err != nil || !bytes.Equal(ref, canonical) {
				t.Fatalf("ir.Marshal differs from the reference encoding:\n%s\n%s", canonical, ref)
			}
			if out, ds := Format(src); len(ds) == 0 {
				if _, h, fds := CompileCanonical(out); h != hash {
					t.Fatalf("fmt changed the meaning: %s -> %s %v\n%s", hash, h, fds, out)
				}
			}
			return
		}
		checkDiagnostics(t, src, ds)
	})
}

// checkDiagnostics asserts every diagnostic is registered and points inside src.
func checkDiagnostics(t *testing.T, src []byte, ds diag.List) {
	t.Helper()
	// YAML breaks lines at \r\n, \r and \n, and so do positions.
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(string(src), "\r\n", "\n"), "\r", "\n"), "\n")
	for _, d := range ds {
		if !diag.Registered(d.Code) {
			t.Fatalf("unregistered code %q", d.Code)
		}
		if d.Path == nil {
			t.Fatalf("%s: nil path", d.Code)
		}
		if d.Line < 1 || d.Column < 1 {
			t.Fatalf("%s at %d:%d: positions are 1-based", d.Code, d.Line, d.Column)
		}
		if len(src) == 0 {
			continue // an empty file is reported at 1:1
		}
		if d.Line > len(lines) {
			t.Fatalf("%s at line %d, but the input has %d lines", d.Code, d.Line, len(lines))
		}
		if width := utf8.RuneCountInString(lines[d.Line-1]); d.Column > width+1 && utf8.Valid(src) {
			t.Fatalf("%s at %d:%d, but line %d has %d characters: %q", d.Code, d.Line, d.Column, d.Line, width, lines[d.Line-1])
		}
	}
}

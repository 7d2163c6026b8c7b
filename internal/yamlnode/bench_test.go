package yamlnode

import (
	"os"
	"testing"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
)

// BenchmarkStages measures the front end's steps on the paper's invoice example and goccy's
// parser beside them; the compiler's BenchmarkStages measures the stages after.
func BenchmarkStages(b *testing.B) {
	src, err := os.ReadFile("../../compiler/testdata/compile/ok_paper_invoice.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("lex", func(b *testing.B) {
		for b.Loop() {
			lexer.Tokenize(string(src))
		}
	})
	b.Run("guard", func(b *testing.B) {
		for b.Loop() {
			guard(src, true, "benchmark file")
		}
	})
	b.Run("lex+inspect", func(b *testing.B) {
		for b.Loop() {
			lex(src, "benchmark file")
		}
	})
	b.Run("goccy", func(b *testing.B) {
		for b.Loop() {
			parser.ParseBytes(src, parser.ParseComments, parser.AllowDuplicateMapKey())
		}
	})
	b.Run("goccy-nocomments", func(b *testing.B) {
		for b.Loop() {
			parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey())
		}
	})
	b.Run("goccy-plain", func(b *testing.B) {
		for b.Loop() {
			parser.ParseBytes(src, 0)
		}
	})
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			l, _ := lex(src, "benchmark file")
			parseFast(l)
		}
	})
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			Parse(src, Options{})
		}
	})
}

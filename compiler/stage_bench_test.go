package compiler

import (
	"testing"

	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"

	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ontology"
)

func BenchmarkStages(b *testing.B) {
	src := generated(1000)
	b.Run("lex", func(b *testing.B) {
		for b.Loop() {
			lexer.Tokenize(string(src))
		}
	})
	b.Run("guard", func(b *testing.B) {
		for b.Loop() {
			guard(src, true)
		}
	})
	b.Run("lex+inspect", func(b *testing.B) {
		for b.Loop() {
			lex(src)
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
			l, _ := lex(src)
			parseFast(l)
		}
	})
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			parse(src)
		}
	})
	root, _ := parse(src)
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			c := &checker{lookup: ontology.Lookup}
			c.check(root)
		}
	})
	bm, _ := Compile(src)
	b.Run("marshal", func(b *testing.B) {
		for b.Loop() {
			ir.Marshal(bm)
		}
	})
}

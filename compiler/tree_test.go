package compiler

import (
	"reflect"
	"testing"
)

func TestTree(t *testing.T) {
	src := "version: \"1.0\"\nprogram:\n  output:\n    b: string\n    a: {enum: [x, 'y']}\nscoring:\n  weights: {b: 1, a: 2.5}\nflag: true\nnone: ~\n"
	v, ok := Tree([]byte(src))
	if !ok {
		t.Fatal("Tree: did not parse")
	}
	root := v.(*Map)
	if want := []string{"version", "program", "scoring", "flag", "none"}; !reflect.DeepEqual(root.Keys, want) {
		t.Fatalf("keys %v, want %v", root.Keys, want)
	}
	prog, _ := root.Get("program")
	out, _ := prog.(*Map).Get("output")
	if keys := out.(*Map).Keys; !reflect.DeepEqual(keys, []string{"b", "a"}) {
		t.Errorf("output keys %v, want source order [b a]", keys)
	}
	a, _ := out.(*Map).Get("a")
	enum, _ := a.(*Map).Get("enum")
	if !reflect.DeepEqual(enum, []any{"x", "y"}) {
		t.Errorf("enum %#v", enum)
	}
	sc, _ := root.Get("scoring")
	w, _ := sc.(*Map).Get("weights")
	if got, _ := w.(*Map).Get("a"); got != Number("2.5") {
		t.Errorf("weight a = %#v, want Number(2.5)", got)
	}
	if got, _ := root.Get("flag"); got != true {
		t.Errorf("flag = %#v", got)
	}
	if got, ok := root.Get("none"); got != nil || !ok {
		t.Errorf("none = %#v, %v", got, ok)
	}
	if _, ok := Tree([]byte("a: [1, 2\n")); ok {
		t.Error("a syntax error parsed")
	}
	if _, ok := Tree([]byte("a: 1\na: 2\n")); ok {
		t.Error("a duplicate key parsed")
	}
}

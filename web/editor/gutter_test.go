package editor

import (
	"reflect"
	"testing"

	"github.com/benchy-eval/benchy/diag"
)

func TestMarks(t *testing.T) {
	for _, c := range []struct {
		name string
		ds   diag.List
		want []mark
	}{
		{"none", nil, []mark{}},
		{"whole file marks no line", diag.List{{Code: diag.MissingKey, Message: "m"}}, []mark{}},
		{"one per line, in line order, all in the title", diag.List{
			{Code: diag.UnknownKey, Message: "b", Line: 7, Column: 3},
			{Code: diag.MissingKey, Message: "a", Line: 2, Column: 1},
			{Code: diag.DuplicateKey, Message: "c", Line: 7, Column: 9},
		}, []mark{
			{Line: 2, Column: 1, Title: "missing_key: a"},
			{Line: 7, Column: 3, Title: "unknown_key: b\nduplicate_key: c"},
		}},
	} {
		if got := marks(c.ds); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: marks = %#v, want %#v", c.name, got, c.want)
		}
	}
}

func TestLineNumbers(t *testing.T) {
	for _, c := range []struct {
		text, want string
	}{
		{"", "1"}, {"a", "1"}, {"a\n", "1\n2"}, {"a\nb\nc", "1\n2\n3"},
	} {
		if got := numbers(lineCount(c.text)); got != c.want {
			t.Errorf("numbers(lineCount(%q)) = %q, want %q", c.text, got, c.want)
		}
	}
}

package web

import (
	"reflect"
	"testing"

	"github.com/benchy-eval/benchy/web/form"
)

func TestOffsetUTF16(t *testing.T) {
	s := "ab\nñ😀x\n\nend"
	for _, c := range []struct{ line, col, want int }{
		{1, 1, 0}, {1, 3, 2}, {2, 1, 3}, {2, 2, 4}, {2, 3, 6}, {2, 4, 7},
		{2, 99, 7}, // past the end of a line: its end
		{3, 1, 8}, {4, 2, 10},
		{9, 1, 12}, // past the last line: the end
	} {
		if got := offsetUTF16(s, c.line, c.col); got != c.want {
			t.Errorf("offsetUTF16(%d:%d) = %d, want %d", c.line, c.col, got, c.want)
		}
	}
}

func TestFieldEdits(t *testing.T) {
	list := []form.Field{{Name: "field"}, {Name: "field_2"}}
	if got := freeName(list, "field"); got != "field_3" {
		t.Errorf("freeName = %q", got)
	}
	if got := splitMembers(" a, b ,,c "); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("splitMembers = %q", got)
	}
	f := form.Field{Name: "x", Type: "string"}
	setType(&f, "enum")
	if len(f.Members) == 0 {
		t.Error("an enum needs members to be valid")
	}
	setType(&f, "object")
	if f.Members != nil || len(f.Children) != 1 {
		t.Errorf("object: %+v", f)
	}
	setType(&f, "int")
	if f.Children != nil {
		t.Errorf("int keeps children: %+v", f)
	}
	d := form.New("classify")
	setTask(d, "translate")
	if d.Language != "" || d.Source != "en" || d.Target != "es" {
		t.Errorf("to translate: %+v", d)
	}
	setTask(d, "extract")
	if d.Language != "en" || d.Source != "" {
		t.Errorf("from translate: %+v", d)
	}
}
